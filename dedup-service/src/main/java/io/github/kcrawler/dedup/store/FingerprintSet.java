package io.github.kcrawler.dedup.store;

/**
 * A set of 64-bit URL fingerprints: the exact, durable last tier of the URL-seen test. Kept free of Kafka types so
 * that the membership algorithms (and the simulator and benchmarks) run over either the Streams-backed RocksDB
 * set ({@link KeyValueFingerprintSet}) or a plain in-memory one ({@link HashFingerprintSet}). Instances are confined
 * to one thread.
 */
public interface FingerprintSet {
    /** Adds the fingerprint; returns true if it was absent (like {@link java.util.Set#add}). */
    boolean add(long fingerprint);

    boolean contains(long fingerprint);

    /** Removes the fingerprint if present. */
    void remove(long fingerprint);
}
