package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;

import java.util.Objects;

/**
 * When to fetch a page again, from what its fetches found (DESIGN §4.4; no Kafka, no clock of its own). The first
 * successful fetch schedules a revisit after the initial interval; every later one is a comparison: a change is a 200
 * whose body fingerprint differs from the last one, a 304 (or the same fingerprint) is no change, and the
 * {@link ChangeRateEstimator} turns n comparisons, X changes and their mean spacing into the next interval, clamped
 * to its bounds. A 404 or 410 ends the page's revisits. Any other failure keeps the history and tries again after the
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
                    now + initialIntervalUnits, nowMs), Outcome.FIRST);
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
        long interval = estimator.nextInterval(visits, changes, (double) observed / visits);
        String etag = body ? r.etag() : r.etag() != null ? r.etag() : previous.etag();
        String lastModified = body ? r.lastModified() : r.lastModified() != null ? r.lastModified()
                : previous.lastModified();
        String hash = body && r.contentHash() != null ? r.contentHash() : previous.contentHash();
        return new Decision(new RevisitState(RevisitState.VERSION, previous.url(), previous.fingerprint(), ip,
                previous.depth(), etag, lastModified, hash, visits, changes, observed, interval, nowMs,
                now + interval, previous.firstFetchedMs()), changed ? Outcome.CHANGED : Outcome.UNCHANGED);
    }
}
