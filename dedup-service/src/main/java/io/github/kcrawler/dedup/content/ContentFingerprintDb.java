package io.github.kcrawler.dedup.content;

/**
 * The fingerprint DB behind {@link ImpCbFilter} (seed 001's "MD5 指纹库"): a persistent map from a 128-bit content
 * fingerprint to an opaque record (encoded by {@link ContentRecord}), plus one metadata value naming the filter
 * parameters the records were written with. Byte-level on purpose: implementations copy into caller-owned buffers so
 * the hot path allocates nothing, and only the implementation knows its storage engine: in the service
 * {@code dedup.store.KeyValueContentFingerprintDb} (the task's Kafka Streams store, RocksDB with a changelog); in the
 * lab's {@code bench imp-cbf} and in tests {@code dedup.store.RocksDbContentFingerprintDb} (plain RocksDB with the
 * Streams store's options); in tests also {@link InMemoryContentFingerprintDb}.
 *
 * <p>Storage failures surface as {@link java.io.UncheckedIOException}. Not thread-safe unless an implementation says
 * so.
 */
public interface ContentFingerprintDb extends AutoCloseable {
    /** {@link #get} result for an absent fingerprint. */
    int NOT_FOUND = -1;

    /**
     * Copies the record of {@code (hi, lo)} into {@code into} and returns its full length, or {@link #NOT_FOUND}.
     * A record longer than {@code into} is truncated to it; the returned length tells the caller.
     */
    int get(long hi, long lo, byte[] into);

    /** Stores {@code value[0, length)} as the record of {@code (hi, lo)}, replacing any previous one. */
    void put(long hi, long lo, byte[] value, int length);

    /** Removes the record of {@code (hi, lo)}; absent is not an error. */
    void delete(long hi, long lo);

    /** Calls {@code visitor} once per record, in key order; the buffer passed is only valid during the call. */
    void forEach(RecordVisitor visitor);

    /** The metadata value, or {@code null} when none was written. */
    byte[] metadata();

    /** Replaces the metadata value. */
    void putMetadata(byte[] value);

    @Override
    void close();

    /** Receives the records of {@link #forEach}. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(long hi, long lo, byte[] value, int length);
    }
}
