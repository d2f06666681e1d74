package io.github.kcrawler.lab.baselines.dedup;

import io.github.kcrawler.dedup.membership.UrlSeen;
import io.github.kcrawler.dedup.store.FingerprintSet;

import java.util.Objects;

/**
 * The baseline of {@code bench url-seen}: the exact fingerprint set alone as the URL-seen test, no cache and no filter
 * in front (the foundation's test, which dedup-service ran before paper 000's tiers, {@code UrlSeenTiers}, replaced
 * it; issue 24 moved it here). It never admits a URL twice and never rejects a new one (the only error is a 64-bit
 * fingerprint collision, ~5×10^-11 per URL at 10^9 URLs, see {@code Fingerprints}); its cost is one store lookup per
 * test, which the tiers cut by answering most tests from an LRU and a Stable Bloom Filter Light. The same contract
 * ({@code UrlSeenContract}, dedup-service's tests) holds for the sets it wraps.
 */
public final class ExactUrlSeen implements UrlSeen {
    private final FingerprintSet seen;

    public ExactUrlSeen(FingerprintSet seen) {
        this.seen = Objects.requireNonNull(seen, "seen");
    }

    @Override
    public boolean testAndAdd(long fingerprint) {
        return seen.add(fingerprint);
    }

    @Override
    public void forget(long fingerprint) {
        seen.remove(fingerprint);
    }
}
