package io.github.kcrawler.dedup.store;

import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * An in-memory {@link FingerprintSet} on an open-addressing {@code long} hash set (fastutil, ~8–16 bytes per entry,
 * no boxing). Not durable: for the simulator, benchmarks and as the exact model that the Streams-backed set and
 * the probabilistic tiers are tested against.
 */
public final class HashFingerprintSet implements FingerprintSet {
    private final LongOpenHashSet set = new LongOpenHashSet();

    @Override
    public boolean add(long fingerprint) {
        return set.add(fingerprint);
    }

    @Override
    public boolean contains(long fingerprint) {
        return set.contains(fingerprint);
    }

    @Override
    public void remove(long fingerprint) {
        set.remove(fingerprint);
    }

    public int size() {
        return set.size();
    }
}
