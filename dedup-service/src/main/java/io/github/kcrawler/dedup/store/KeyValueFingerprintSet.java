package io.github.kcrawler.dedup.store;

import io.github.kcrawler.common.streams.JournalStore;
import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.common.streams.JournalStoreBuilder;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The durable fingerprint set of one stream task: a Kafka Streams key-value store (RocksDB on disk) mapping the
 * fingerprint to a one-byte marker. Its changelog is what lets the set survive a restart or move with its partition
 * to another instance. It is a {@link JournalStore}: each commit logs the fingerprints it added and removed as one
 * record, not one record per fingerprint (issue 19). The set is the case that store is for: a fingerprint is put
 * once and removed only by a rare forget, so a changelog that never compacts holds little more than a per-key one.
 *
 * <p>Keys are the fingerprint as 8 big-endian bytes; the value is the marker format version ({@link #MARKER}), so
 * a later format (e.g. adding a first-seen time) can be told apart. This is the only class of the module that
 * touches Streams state stores.
 *
 * <p>One more key, longer than a fingerprint so it never collides with one, holds the tag of the in-memory tiers'
 * snapshot ({@link #snapshotTag}): written through the changelog like any other entry, so it is in the store after
 * a restore exactly when the transaction that wrote it committed.
 */
public final class KeyValueFingerprintSet implements FingerprintSet {
    /** Store value: format version 1 of the marker. */
    static final byte[] MARKER = {1};

    private final KeyValueStore<Bytes, byte[]> store;

    public KeyValueFingerprintSet(KeyValueStore<Bytes, byte[]> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A persistent (RocksDB), uncached store for this set whose changelog holds one record per commit. */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder(String name, JournalSnapshots snapshots) {
        return JournalStoreBuilder.of(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withSnapshots(snapshots);
    }

    @Override
    public boolean add(long fingerprint) {
        return store.putIfAbsent(key(fingerprint), MARKER) == null;
    }

    @Override
    public boolean contains(long fingerprint) {
        return store.get(key(fingerprint)) != null;
    }

    /**
     * Removes the fingerprint if present. An absent one writes nothing: a delete would log a tombstone to the
     * changelog even for a key that is not there, and the store (restored from that changelog) already lacks it.
     */
    @Override
    public void remove(long fingerprint) {
        Bytes key = key(fingerprint);
        if (store.get(key) != null) {
            store.delete(key);
        }
    }

    /** The tag of the last snapshot of the in-memory tiers taken against this exact store state, if any. */
    public OptionalLong snapshotTag() {
        byte[] v = store.get(SNAPSHOT_TAG_KEY);
        return v != null && v.length == Long.BYTES ? OptionalLong.of(ByteBuffer.wrap(v).getLong()) : OptionalLong.empty();
    }

    /** Records that a snapshot with {@code tag} reflects the store as it is now. */
    public void setSnapshotTag(long tag) {
        store.put(SNAPSHOT_TAG_KEY, ByteBuffer.allocate(Long.BYTES).putLong(tag).array());
    }

    /** Forgets the snapshot tag: from now on the store moves on and no earlier snapshot matches it. */
    public void clearSnapshotTag() {
        store.delete(SNAPSHOT_TAG_KEY);
    }

    /** 17 bytes: never the 8-byte key of a fingerprint. */
    static final Bytes SNAPSHOT_TAG_KEY = Bytes.wrap("url-seen.snapshot".getBytes(StandardCharsets.US_ASCII));

    static Bytes key(long fingerprint) {
        byte[] b = new byte[Long.BYTES];
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            b[i] = (byte) fingerprint;
            fingerprint >>>= 8;
        }
        return Bytes.wrap(b);
    }

    @Override
    public String toString() {
        return "KeyValueFingerprintSet[" + store.name() + ", marker=" + Arrays.toString(MARKER) + "]";
    }
}
