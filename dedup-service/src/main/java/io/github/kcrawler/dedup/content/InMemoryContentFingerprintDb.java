package io.github.kcrawler.dedup.content;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * A heap {@link ContentFingerprintDb} (a {@code HashMap} of copies): for tests, and for running {@link ImpCbFilter}
 * where persistence is not wanted. Visits records in unsigned key order like the RocksDB implementation.
 */
public final class InMemoryContentFingerprintDb implements ContentFingerprintDb {
    private record Key(long hi, long lo) {
    }

    private static final Comparator<Key> ORDER = Comparator.<Key>comparingLong(k -> k.hi ^ Long.MIN_VALUE)
            .thenComparingLong(k -> k.lo ^ Long.MIN_VALUE);

    private final Map<Key, byte[]> records = new HashMap<>();
    private byte[] metadata;

    @Override
    public int get(long hi, long lo, byte[] into) {
        byte[] v = records.get(new Key(hi, lo));
        if (v == null) {
            return NOT_FOUND;
        }
        System.arraycopy(v, 0, into, 0, Math.min(v.length, into.length));
        return v.length;
    }

    @Override
    public void put(long hi, long lo, byte[] value, int length) {
        records.put(new Key(hi, lo), Arrays.copyOf(value, length));
    }

    @Override
    public void delete(long hi, long lo) {
        records.remove(new Key(hi, lo));
    }

    @Override
    public void forEach(RecordVisitor visitor) {
        Key[] keys = records.keySet().toArray(new Key[0]);
        Arrays.sort(keys, ORDER);
        for (Key k : keys) {
            byte[] v = records.get(k);
            if (v != null) {
                visitor.visit(k.hi, k.lo, v.clone(), v.length);
            }
        }
    }

    @Override
    public byte[] metadata() {
        return metadata == null ? null : metadata.clone();
    }

    @Override
    public void putMetadata(byte[] value) {
        metadata = value.clone();
    }

    /** Records stored. */
    public int size() {
        return records.size();
    }

    @Override
    public void close() {
    }
}
