package io.github.kcrawler.scheduler.politeness;

import it.unimi.dsi.fastutil.longs.Long2DoubleLinkedOpenHashMap;

/**
 * Scores that arrived for URLs not pending yet, oldest first (a fastutil linked open hash map: no boxing per entry),
 * with its table size readable so that {@link WheelFrontier#memoryBytes()} counts it. The frontier keeps it at most
 * {@code score-cache-size} entries (ours; see {@link FrontierBound}). Not thread-safe.
 */
final class ScoreCache extends Long2DoubleLinkedOpenHashMap {
    private static final long serialVersionUID = 1L;

    /** Bytes of the table now: {@code long key, double value, long link} per slot, plus the three array headers. */
    long memoryBytes() {
        return 8L * key.length + 8L * value.length + 8L * link.length + 3 * 16;
    }
}
