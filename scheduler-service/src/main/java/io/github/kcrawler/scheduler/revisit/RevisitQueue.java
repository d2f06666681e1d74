package io.github.kcrawler.scheduler.revisit;

import java.io.IOException;

/**
 * The revisit event queue of paper 003 (Tamura &amp; Kitsuregawa, {@code ../shared/seeds/003_c53e4199b90a7af9.txt},
 * §2.2, Fig. 3): per-page state records (opaque bytes, ~200 in the crawler) stored <em>inside</em> the queue, keyed by
 * a 64-bit page key (the URL fingerprint) and clustered by scheduled access time, so that taking the records due now
 * is a sequential read.
 *
 * <p>Time is an integer count of units (one minute in the crawler); the caller passes it in — no implementation reads
 * a wall clock. The queue's current time is the {@code now} of the last {@link #poll}; {@link #schedule} places a
 * record relative to it.
 *
 * <p>Contract, shared by every implementation and held by {@code RevisitQueueContractTest}:
 * <ul>
 *   <li>a record scheduled at {@code at} is delivered by exactly one {@code poll(now)} with
 *       {@code earliest(t, at) <= now}, and, when the caller polls every unit, no later than {@code max(at, t+1)}
 *       where t is the time it was scheduled at (never late; early by at most {@link #tolerance()}, or what
 *       {@link #earliest} allows);</li>
 *   <li>scheduling an existing key replaces its record and time; {@link #delete} removes it; a replaced or deleted
 *       record is never delivered;</li>
 *   <li>a delivered record leaves the queue: the sink may schedule it again (typically at {@code now + interval}).</li>
 * </ul>
 * Not thread-safe: one stream task owns one queue.
 */
public interface RevisitQueue extends AutoCloseable {

    /** Receives due records; {@code record[0, length)} is valid only during the call (the array is reused). */
    @FunctionalInterface
    interface DueSink {
        void accept(long key, long at, byte[] record, int length) throws IOException;
    }

    /** Inserts the record of {@code key} due at {@code at}, or replaces its record and time if present. */
    void schedule(long key, long at, byte[] record) throws IOException;

    /** Replaces the record and time of an existing key; returns false (and does nothing) if the key is absent. */
    boolean update(long key, long at, byte[] record) throws IOException;

    /** Removes the key's record; returns false if absent. */
    boolean delete(long key) throws IOException;

    /** Whether the key has a scheduled record. */
    boolean contains(long key);

    /**
     * Advances the queue's time to {@code now} (which must not go backwards) and hands every due record to
     * {@code sink}, reading each due bucket sequentially. Records the sink schedules at or before {@code now} are
     * delivered by the next poll. Returns the number of records delivered.
     */
    long poll(long now, DueSink sink) throws IOException;

    /** Scheduled records. */
    long size();

    /** The queue's current time (the last poll's {@code now}; initially the creation time). */
    long now();

    /** How early a record may be delivered, in units (0: exactly on time). */
    long tolerance();

    /**
     * The earliest time a record scheduled at {@code scheduledAt} for {@code at} may be delivered: {@code at -
     * tolerance()} unless the store also allows an earliness relative to the distance (SAT/L's early fraction).
     */
    default long earliest(long scheduledAt, long at) {
        return at - tolerance();
    }

    /** Bytes this queue wrote to its files (for RocksDB: flush plus compaction writes). */
    long bytesWritten();

    /** Bytes this queue read from its files (for RocksDB: compaction reads plus data blocks read into the cache). */
    long bytesRead();

    /**
     * Whether a closed queue reopens with its records. When false, recovery is the caller's (in the crawler: the
     * Kafka changelog of the revisit state).
     */
    boolean persistent();

    @Override
    void close() throws IOException;
}
