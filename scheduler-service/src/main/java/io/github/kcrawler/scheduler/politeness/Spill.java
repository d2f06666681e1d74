package io.github.kcrawler.scheduler.politeness;


/**
 * Where a PRIORITY {@link WheelFrontier} puts URLs it cannot hold within its memory bound ({@link FrontierBound}),
 * instead of dropping them: a durable place outside the heap (ours, not paper 004's, which drops a URL its wheel
 * cannot take and relies on rediscovery). In the scheduler it is the pending store itself (RocksDB with a changelog,
 * so a deferred URL survives any crash exactly as a pending one does), under keys {@link #key} that sort best score
 * bucket first, then admission order; tests use an in-memory map with the same order. The frontier keeps no
 * per-URL data about a deferred URL — only {@link #size()} — so deferring costs no heap.
 *
 * <p>Contract: a URL given to {@link #defer} (or one the caller deferred itself after
 * {@link Frontier.Admission#DEFERRED}) stays until {@link #takeBack} hands it to a sink that takes it, or that
 * refuses it because the same fingerprint is pending already (then the copy is discarded: it is pending, so nothing
 * is lost). Nothing else removes it.
 */
public interface Spill {
    /** Receives a URL taken back from the spill. */
    @FunctionalInterface
    interface Sink {
        /** @return true if the frontier took the URL; false if it was a duplicate of a pending URL (discard it) */
        boolean accept(PendingUrl url);
    }

    /**
     * The frontier gives up a URL it indexed (the pool's worst waiting URL, or a restored URL beyond the bound): the
     * caller moves its stored entry to the spill.
     */
    void defer(PendingUrl url);

    /**
     * Hands back at most {@code max} deferred URLs, best score bucket first and in admission order within a
     * bucket, removing each from the spill (moved back to where pending URLs are kept when the sink takes it).
     *
     * @return how many were handed to the sink
     */
    int takeBack(int max, Sink sink);

    /** URLs deferred and not taken back yet. */
    long size();

    /**
     * The order of the spill as a string key: {@code ~} (after every character of an IP address, so deferred keys sort
     * after pending ones in a store ordered by key), 3 hex digits of the inverted score bucket
     * ({@link PriorityFront#bucket}; best bucket first), 16 hex digits of the admission sequence.
     */
    static String key(double score, long seq) {
        int inverted = PriorityFront.BUCKETS - 1 - PriorityFront.bucket(score);
        StringBuilder key = new StringBuilder(20).append(PREFIX);
        for (int shift = 8; shift >= 0; shift -= 4) {
            key.append(Character.forDigit((inverted >>> shift) & 0xf, 16));
        }
        for (int shift = 60; shift >= 0; shift -= 4) {
            key.append(Character.forDigit((int) (seq >>> shift) & 0xf, 16));
        }
        return key.toString();
    }

    /** First character of every {@link #key}. */
    char PREFIX = '~';
}
