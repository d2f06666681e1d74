package io.github.kcrawler.app.runtime;

/**
 * When {@code crawl --exit-when-idle} and {@code demo} may call a crawl finished (issue 20, "honest exit"): nothing
 * is pending in the scheduler or in flight at the fetcher, no record is unconsumed — the lag of every service's
 * consumer group on every topic it reads, changelogs aside, counted in records, not offsets — every service is
 * settled (no stream thread being replaced, no rebalance) and none is unhealthy. A lag that could not be read is
 * not zero. The monitor asks the rule once a second and calls the crawl finished after a few idle answers in a row.
 */
public final class IdleRule {
    private IdleRule() {
    }

    /**
     * What the monitor saw at one check.
     *
     * @param unconsumed records not yet consumed by all groups, or negative if it was not (or could not be) read
     */
    public record Signals(long frontier, long inFlight, long unconsumed, boolean settled, boolean healthy) {
    }

    public static boolean idle(Signals s) {
        return s.healthy() && s.settled() && s.frontier() == 0 && s.inFlight() == 0 && s.unconsumed() == 0;
    }

    /** Whether the lag is worth reading at all: it is the expensive signal, asked last. */
    public static boolean mayBeIdle(long frontier, long inFlight, boolean settled, boolean healthy) {
        return healthy && settled && frontier == 0 && inFlight == 0;
    }
}
