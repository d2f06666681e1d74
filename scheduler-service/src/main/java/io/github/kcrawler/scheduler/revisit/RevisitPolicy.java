package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;

import java.util.Objects;

/**
 * When to fetch a page again, from what its fetches found (DESIGN §4.4; no Kafka, no clock of its own). The first
 * successful fetch schedules a revisit after the initial interval; every later one is a comparison: a change is a 200
 * whose body fingerprint differs from the last one, a 304 (or the same fingerprint) is no change, and the
 * {@link ChangeRateEstimator} turns n comparisons, X changes, the span they cover and the lengths of the intervals
 * that found a change (summarised, {@link ChangeIntervals}) into the next interval, clamped to its bounds; by default
 * with Cho &amp; Garcia-Molina's estimator for irregular intervals (§4.3), so a page found unchanged gets a longer
 * interval, not the maximum (issue 21). A 404 or 410 ends the page's revisits. Any other failure keeps the history and tries again after the
 * interval in force (never sooner than the minimum), so a flaky server is not hammered.
 */
public final class RevisitPolicy {
    /** What a fetch result did to a page's revisit state. */
    public enum Outcome { FIRST, CHANGED, UNCHANGED, GONE, RETRY, IGNORED }

    /** The new state (null when the page is gone or was never fetched) and what happened. */
    public record Decision(RevisitState state, Outcome outcome) {
    }

    private final ChangeRateEstimator estimator;
    private final long unitMs;
    private final long initialIntervalUnits;

    /**
     * @param estimator            intervals in units, with their bounds
     * @param unitMs               length of one time unit
     * @param initialIntervalUnits interval after the first fetch, before any change was observed
     */
    public RevisitPolicy(ChangeRateEstimator estimator, long unitMs, long initialIntervalUnits) {
        this.estimator = Objects.requireNonNull(estimator, "estimator");
        if (unitMs < 1) {
            throw new IllegalArgumentException("time unit must be >= 1 ms, was " + unitMs);
        }
        if (initialIntervalUnits < estimator.minInterval() || initialIntervalUnits > estimator.maxInterval()) {
            throw new IllegalArgumentException("initial revisit interval must be within [" + estimator.minInterval()
                    + ", " + estimator.maxInterval() + "] units, was " + initialIntervalUnits);
        }
        this.unitMs = unitMs;
        this.initialIntervalUnits = initialIntervalUnits;
    }

    public long unitMs() {
        return unitMs;
    }

    /** The time unit containing {@code epochMs}. */
    public long unit(long epochMs) {
        return Math.floorDiv(epochMs, unitMs);
    }

    /**
     * @param previous the page's state, or null if it has none yet
     * @param ip       the partition key of the page (its host's IP)
     * @param nowMs    when the result is processed
     */
    public Decision next(RevisitState previous, FetchResult r, String ip, long nowMs) {
        long now = unit(nowMs);
        if (r.status() == 404 || r.status() == 410) {
            return new Decision(null, previous == null ? Outcome.IGNORED : Outcome.GONE);
        }
        boolean body = r.outcome() == FetchOutcome.OK && r.status() >= 200 && r.status() < 300;
        boolean notModified = r.outcome() == FetchOutcome.NOT_MODIFIED;
        if (previous == null) {
            if (!body) {
                return new Decision(null, Outcome.IGNORED);
            }
            return new Decision(new RevisitState(RevisitState.VERSION, r.url(), r.fingerprint(), ip, r.depth(),
                    r.etag(), r.lastModified(), r.contentHash(), 0, 0, 0, initialIntervalUnits, nowMs,
                    now + initialIntervalUnits, nowMs, 0, ChangeIntervals.EMPTY), Outcome.FIRST);
        }
        if (!body && !notModified) {
            long retry = Math.max(estimator.minInterval(), previous.intervalUnits());
            return new Decision(previous.withDue(now + retry), Outcome.RETRY);
        }
        boolean changed = body && r.contentHash() != null && !r.contentHash().equals(previous.contentHash());
        long elapsed = Math.max(1, now - unit(previous.lastFetchedMs()));
        long visits = previous.visits() + 1;
        long changes = previous.changes() + (changed ? 1 : 0);
        long observed = previous.observedUnits() + elapsed;
        long changedUnits = previous.changedUnits();
        ChangeIntervals intervals = previous.changedIntervals();
        if (!ChangeRateEstimator.consistent(intervals, changedUnits, previous.observedUnits(), previous.changes())) {
            // a state written before issue 21 (or a summary that does not add up): its X changed intervals are
            // taken at the mean interval, as the estimator reads such a state
            long mean = previous.visits() == 0 ? 0 : Math.round((double) previous.observedUnits() / previous.visits());
            intervals = ChangeIntervals.allIn(previous.changes(), mean);
            changedUnits = Math.min(previous.observedUnits(), Math.max(previous.changes(), previous.changes() * mean));
        }
        if (changed) {
            intervals = intervals.plus(elapsed);
            changedUnits += elapsed;
        }
        long interval = estimator.nextInterval(visits, changes, observed, changedUnits, intervals);
        String etag = body ? r.etag() : r.etag() != null ? r.etag() : previous.etag();
        String lastModified = body ? r.lastModified() : r.lastModified() != null ? r.lastModified()
                : previous.lastModified();
        String hash = body && r.contentHash() != null ? r.contentHash() : previous.contentHash();
        assert ChangeRateEstimator.consistent(intervals, changedUnits, observed, changes);
        return new Decision(new RevisitState(RevisitState.VERSION, previous.url(), previous.fingerprint(), ip,
                previous.depth(), etag, lastModified, hash, visits, changes, observed, interval, nowMs,
                now + interval, previous.firstFetchedMs(), changedUnits, intervals),
                changed ? Outcome.CHANGED : Outcome.UNCHANGED);
    }
}
