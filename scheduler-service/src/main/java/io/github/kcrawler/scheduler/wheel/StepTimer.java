package io.github.kcrawler.scheduler.wheel;

/**
 * The time condition of paper 004's Next (Algorithm 3, with the comparison the text describes: wait until T has
 * passed since the previous Next) on an injected clock: the caller passes the current time in milliseconds, so
 * tests run on fake time and the stream layer can use its punctuation time.
 *
 * <p>Usage: {@code if (timer.due(now) && fetchesOfPreviousStepReported) { wheel.next(out); timer.stepped(now); }}.
 * Because a residue never appears in two consecutive steps, consecutive accesses to one IP are at least one full
 * interval apart whenever every Next waits for {@link #due}. Not thread-safe.
 */
public final class StepTimer {

    private final long intervalMs;
    private long lastStepMs;

    /**
     * @param intervalMs T, the minimum time between two Next calls ({@code > 0})
     * @param startMs    the crawl start time; the first Next is due at {@code startMs + intervalMs}
     */
    public StepTimer(long intervalMs, long startMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("politeness interval must be > 0 ms, was " + intervalMs);
        }
        this.intervalMs = intervalMs;
        this.lastStepMs = startMs;
    }

    /** True when at least T has passed since the previous Next (or the start). */
    public boolean due(long nowMs) {
        return nowMs - lastStepMs >= intervalMs;
    }

    /** The earliest time the next Next may run. */
    public long nextDueAtMs() {
        return lastStepMs + intervalMs;
    }

    /** Milliseconds to wait before the next Next is due (0 when due). */
    public long waitMs(long nowMs) {
        return Math.max(0, nextDueAtMs() - nowMs);
    }

    /**
     * Records that Next ran at {@code nowMs}.
     *
     * @throws IllegalStateException if it was not due (the caller broke the T guarantee)
     */
    public void stepped(long nowMs) {
        if (!due(nowMs)) {
            throw new IllegalStateException("Next at " + nowMs + " ms is before " + nextDueAtMs() + " ms");
        }
        lastStepMs = nowMs;
    }

    public long intervalMs() {
        return intervalMs;
    }

    /** Time of the previous Next (or the start). */
    public long lastStepMs() {
        return lastStepMs;
    }
}
