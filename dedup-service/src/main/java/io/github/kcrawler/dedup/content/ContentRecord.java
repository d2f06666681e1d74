package io.github.kcrawler.dedup.content;

/**
 * The persisted record of one content fingerprint in a {@link ContentFingerprintDb}: seed 001 §2.3 stores the
 * fingerprint (the key), its reference count and the k counter positions ("hash1 … hashk"). Layout, big-endian:
 * <pre>
 *   byte 0      format version ({@link #FORMAT_VERSION})
 *   bytes 1..4  refCount, ≥ 1
 *   byte 5      k, in [0, 32] (0: a record of the DB-only baseline, which keeps no positions)
 *   bytes 6..   k positions, 4 bytes each, each in [0, m)
 * </pre>
 * Decoding is total: anything else (unknown version, wrong length, refCount &lt; 1, a position out of range) is
 * reported as invalid, never thrown. Static helpers over caller-owned buffers; nothing here allocates.
 */
public final class ContentRecord {
    /** Version 1 layout above; a new layout gets a new number, old numbers are never reused. */
    public static final byte FORMAT_VERSION = 1;
    /** Bytes before the positions. */
    public static final int HEADER = 6;
    /** A buffer this long holds any valid record. */
    public static final int MAX_LENGTH = HEADER + 4 * CountingBloomFilter.MAX_HASHES;

    private ContentRecord() {
    }

    /** Length of a record with {@code k} positions. */
    public static int length(int k) {
        return HEADER + 4 * k;
    }

    /** Encodes into {@code out} (at least {@link #length}(k) long) and returns the length. */
    public static int encode(byte[] out, int refCount, int[] positions, int k) {
        out[0] = FORMAT_VERSION;
        writeRefCount(out, refCount);
        out[5] = (byte) k;
        for (int i = 0; i < k; i++) {
            writeInt(out, HEADER + 4 * i, positions[i]);
        }
        return length(k);
    }

    /**
     * True when {@code record[0, length)} is a well-formed version-1 record with exactly {@code k} positions, each in
     * [0, m). {@code length} may exceed {@code record.length} (a truncated read): then it is invalid.
     */
    public static boolean isValid(byte[] record, int length, int k, long m) {
        if (length != length(k) || length > record.length || record[0] != FORMAT_VERSION
                || (record[5] & 0xFF) != k || refCount(record) < 1) {
            return false;
        }
        for (int i = 0; i < k; i++) {
            int p = position(record, i);
            if (p < 0 || p >= m) {
                return false;
            }
        }
        return true;
    }

    public static int refCount(byte[] record) {
        return readInt(record, 1);
    }

    public static void writeRefCount(byte[] record, int refCount) {
        writeInt(record, 1, refCount);
    }

    public static int position(byte[] record, int i) {
        return readInt(record, HEADER + 4 * i);
    }

    private static int readInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    private static void writeInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
