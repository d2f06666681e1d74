package io.github.kcrawler.dedup.store;

import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.common.streams.JournalStoreBuilder;
import io.github.kcrawler.dedup.content.ContentFingerprintDb;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The IMP-CB filter's fingerprint DB (paper 001) as a Kafka Streams key-value store of one task: RocksDB on disk,
 * backed by a compacted changelog, so the records (refCount and counter positions) survive a crash and move with
 * their partition, and the in-memory counting Bloom filter is rebuilt from them at start. Keys are the 128-bit
 * fingerprint as 16 big-endian bytes; one longer key holds the filter parameters ({@link #metadata()}).
 */
public final class KeyValueContentFingerprintDb implements ContentFingerprintDb {
    /** 21 bytes: never the 16-byte key of a fingerprint. */
    static final Bytes METADATA_KEY = Bytes.wrap("content-db.parameters".getBytes(StandardCharsets.US_ASCII));
    private static final int KEY_BYTES = 16;

    private final KeyValueStore<Bytes, byte[]> store;

    public KeyValueContentFingerprintDb(KeyValueStore<Bytes, byte[]> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A persistent (RocksDB), uncached store for the records whose changelog holds one record per commit. */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder(String name, JournalSnapshots snapshots) {
        return JournalStoreBuilder.of(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withSnapshots(snapshots);
    }

    static Bytes key(long hi, long lo) {
        return Bytes.wrap(ByteBuffer.allocate(KEY_BYTES).putLong(hi).putLong(lo).array());
    }

    @Override
    public int get(long hi, long lo, byte[] into) {
        byte[] v = store.get(key(hi, lo));
        if (v == null) {
            return NOT_FOUND;
        }
        System.arraycopy(v, 0, into, 0, Math.min(v.length, into.length));
        return v.length;
    }

    @Override
    public void put(long hi, long lo, byte[] value, int length) {
        store.put(key(hi, lo), Arrays.copyOf(value, length));
    }

    @Override
    public void delete(long hi, long lo) {
        store.delete(key(hi, lo));
    }

    @Override
    public void forEach(RecordVisitor visitor) {
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] k = kv.key.get();
                if (k.length != KEY_BYTES || kv.value == null) {
                    continue; // the metadata entry
                }
                ByteBuffer b = ByteBuffer.wrap(k);
                visitor.visit(b.getLong(), b.getLong(), kv.value, kv.value.length);
            }
        }
    }

    @Override
    public byte[] metadata() {
        return store.get(METADATA_KEY);
    }

    @Override
    public void putMetadata(byte[] value) {
        store.put(METADATA_KEY, value.clone());
    }

    /** The store belongs to Kafka Streams, which closes it. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "KeyValueContentFingerprintDb[" + store.name() + "]";
    }
}
