package io.github.kcrawler.scheduler.revisit;

/**
 * Revisit interval from a page's change history: the estimator of Cho &amp; Garcia-Molina ("Estimating frequency of
 * change", ACM TOIT 3(3), 2003 — ref. 7 of paper 003, which uses it to set each page's period), DESIGN.md §4.4.
 *
 * <p>A page visited n times at a regular interval I, found changed X times (a change = a 200 with a new content
 * hash), changes as a Poisson process of rate λ estimated by
 * <pre>  r = −ln((n − X + 0.5) / (n + 0.5)),   λ = r / I</pre>
 * (the +0.5 terms keep the estimate finite at X = n and make it nearly unbiased). The next interval is 1/λ clamped
 * to [min, max]; X = 0 gives λ = 0 and so the maximum. Time unit: whatever unit I, min and max share (minutes in the
 * crawler: defaults 1 minute … 400 days).
 */
public final class ChangeRateEstimator {
    public static final long DEFAULT_MIN_INTERVAL = 1;
    public static final long DEFAULT_MAX_INTERVAL = 400L * 24 * 60;

    private final long minInterval;
    private final long maxInterval;

    public ChangeRateEstimator(long minInterval, long maxInterval) {
        if (minInterval < 1) {
            throw new IllegalArgumentException("min interval must be >= 1, was " + minInterval);
        }
        if (maxInterval < minInterval) {
            throw new IllegalArgumentException("max interval must be >= min interval " + minInterval + ", was "
                    + maxInterval);
        }
        this.minInterval = minInterval;
        this.maxInterval = maxInterval;
    }

    /** 1 minute … 400 days, in minutes. */
    public static ChangeRateEstimator defaults() {
        return new ChangeRateEstimator(DEFAULT_MIN_INTERVAL, DEFAULT_MAX_INTERVAL);
    }

    /** λ in changes per unit for {@code changes} of {@code visits} visits {@code interval} units apart. */
    public static double changeRate(long visits, long changes, double interval) {
        if (visits < 1) {
            throw new IllegalArgumentException("visits must be >= 1, was " + visits);
        }
        if (changes < 0 || changes > visits) {
            throw new IllegalArgumentException("changes must be in [0, " + visits + "], was " + changes);
        }
        if (!(interval > 0)) {
            throw new IllegalArgumentException("interval must be > 0, was " + interval);
        }
        double r = -Math.log((visits - changes + 0.5) / (visits + 0.5));
        return r / interval;
    }

    /** The next revisit interval: clamp(1/λ, min, max), rounded to whole units. */
    public long nextInterval(long visits, long changes, double interval) {
        double lambda = changeRate(visits, changes, interval);
        if (lambda <= 0) {
            return maxInterval;
        }
        double next = 1.0 / lambda;
        if (next >= maxInterval) {
            return maxInterval;
        }
        return Math.max(minInterval, Math.round(next));
    }

    public long minInterval() {
        return minInterval;
    }

    public long maxInterval() {
        return maxInterval;
    }
}
