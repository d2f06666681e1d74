package io.github.kcrawler.scheduler.revisit;

/**
 * Which write buffers a bucket store appends to their files when its free-page pool runs dry. In both orders a first
 * pass skips buffers smaller than the average and a second pass takes the rest, until an eighth of the pool is free
 * (paper 003 §2.2: small buffers are left out at first, so that flushes stay large and sequential).
 */
public enum FlushOrder {
    /**
     * Paper 003 §2.2 as written: the buffers in time order, the nearest bucket first ("各書き込みバッファを時刻順に
     * フラッシュする").
     */
    TIME_ORDER,
    /**
     * Ours: the farthest bucket first. A buffer whose bucket comes up soonest is the one most worth keeping in memory:
     * flushed, it is written and then read back almost at once, and under SAT/L the nearest buckets are exactly where
     * records re-queued at a finer resolution land (paper 003 §3, strict timing). Flushing the farthest first is
     * Belady's rule (evict what is needed last) applied to the buffers; each record's first, coarse placement still
     * goes to disk once, but its re-queues mostly stay in memory until their bucket is processed. Same records, same
     * delivery times; only which bytes reach the files differs.
     */
    FARTHEST_FIRST
}
