package io.github.kcrawler.websim;

import java.util.Locale;

/**
 * The two revisit-interval distributions of paper 003 (§4.1, {@code ../shared/seeds/003_c53e4199b90a7af9.txt}) over
 * the intervals i = 1…T time units:
 * <ul>
 *   <li>Zipf, eqs. (7)–(8): f(i) = N/H_T · i^−1 with H_T = Σ_{k=1..T} 1/k;</li>
 *   <li>Peaked, eqs. (9)–(10): f(i) = N/P_T · i/100² for i ≤ 100 and N/P_T · i^−1 beyond, with P_T the sum of those
 *   weights (the two pieces meet at i = 100, where both are 1/100).</li>
 * </ul>
 * One class serves the SAT/L benchmark (exact counts per interval, {@link #counts(long)}), the simulated web (one
 * interval per page from a uniform hash, {@link #sample(double)}) and the freshness experiment, so the three agree on
 * what "Zipf" and "Peaked" mean.
 *
 * <p>The cumulative distribution is tabulated once (8 bytes per interval: 4.6 MB at T = 576,000); sampling is a
 * binary search on it, O(log T), and is a pure function of its argument. Immutable and thread-safe.
 */
public final class IntervalDistribution {

    /** Where Peaked turns from rising (∝ i) to falling (∝ 1/i). */
    public static final int PEAK = 100;
    /** The largest T accepted (the paper's 1 minute … 400 days is 576,000). */
    public static final int MAX_T = 10_000_000;

    /** The shape of f(i). */
    public enum Shape {
        ZIPF, PEAKED;

        /** {@code "zipf"} or {@code "peaked"} (any case). */
        public static Shape parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("distribution must be zipf or peaked, was " + name);
            }
        }
    }

    private final Shape shape;
    private final int maxInterval;
    private final double normaliser;
    /** cdf[i] = P(interval ≤ i), cdf[0] = 0, cdf[T] = 1. */
    private final double[] cdf;

    private IntervalDistribution(Shape shape, int maxInterval) {
        this.shape = shape;
        this.maxInterval = maxInterval;
        double[] c = new double[maxInterval + 1];
        double sum = 0;
        for (int i = 1; i <= maxInterval; i++) {
            sum += weight(shape, i);
            c[i] = sum;
        }
        for (int i = 1; i < maxInterval; i++) {
            c[i] /= sum;
        }
        c[maxInterval] = 1.0;
        this.normaliser = sum;
        this.cdf = c;
    }

    /** The distribution of {@code shape} over 1…{@code maxInterval}. */
    public static IntervalDistribution of(Shape shape, long maxInterval) {
        if (shape == null) {
            throw new IllegalArgumentException("distribution shape must not be null");
        }
        if (maxInterval < 1 || maxInterval > MAX_T) {
            throw new IllegalArgumentException("max interval T must be in [1, " + MAX_T + "], was " + maxInterval);
        }
        return new IntervalDistribution(shape, (int) maxInterval);
    }

    /** The unnormalised weight of interval i: 1/i (Zipf), i/100² up to 100 then 1/i (Peaked). */
    public static double weight(Shape shape, int i) {
        return switch (shape) {
            case ZIPF -> 1.0 / i;
            case PEAKED -> i <= PEAK ? (double) i / (PEAK * PEAK) : 1.0 / i;
        };
    }

    public Shape shape() {
        return shape;
    }

    /** T. */
    public int maxInterval() {
        return maxInterval;
    }

    /** H_T (Zipf, eq. (8)) or P_T (Peaked, eq. (10)): the sum of the weights. */
    public double normaliser() {
        return normaliser;
    }

    /** P(interval = i) for 1 ≤ i ≤ T. */
    public double probability(int i) {
        if (i < 1 || i > maxInterval) {
            return 0;
        }
        return weight(shape, i) / normaliser;
    }

    /** P(interval ≤ i). */
    public double cumulative(int i) {
        return i < 1 ? 0 : i >= maxInterval ? 1 : cdf[i];
    }

    /**
     * The interval whose cumulative range holds {@code u}: the smallest i with P(interval ≤ i) &gt; u. A uniform u in
     * [0, 1) gives an interval distributed as f; the same u always gives the same interval.
     */
    public int sample(double u) {
        if (!(u >= 0 && u < 1)) {
            throw new IllegalArgumentException("u must be in [0, 1), was " + u);
        }
        int lo = 1;
        int hi = maxInterval;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** f(i) for i = 1…T (index 0 unused) for N = {@code records}, rounded cumulatively so they sum to exactly N. */
    public long[] counts(long records) {
        if (records < 0) {
            throw new IllegalArgumentException("records must be >= 0, was " + records);
        }
        long[] f = new long[maxInterval + 1];
        long prev = 0;
        for (int i = 1; i <= maxInterval; i++) {
            long c = i == maxInterval ? records : Math.round(cdf[i] * records);
            f[i] = c - prev;
            prev = c;
        }
        return f;
    }
}
