package io.github.kcrawler.lab.simulate;

/**
 * Cho &amp; Garcia-Molina's optimal freshness allocation of a revisit budget over pages of known (or estimated)
 * change rates ({@link ChoGarciaMolinaG}: f(λ) = λ / g⁻¹(μλ), with the multiplier μ chosen so that Σ f = budget).
 * Rates are binned on a log scale ({@value #BINS} bins over [10^-9, 10^3] per unit) so that the bisection on ln μ
 * costs O(bins) per step rather than O(pages); each page then gets its own f from its own λ at the μ found.
 *
 * <p>Invariants: every frequency lies in [1/maxRevisit, 1/minRevisit]; a page whose rate is unknown (NaN) keeps the
 * uniform frequency budget/n, taken off the budget first; a page that changes never (λ ≤ 0) or too fast to follow
 * (λ = ∞) gets the floor 1/maxRevisit. Used by {@link FreshnessRun}'s estimatedOptimal, adaptive and oracle policies.
 */
final class OptimalAllocation {
    static final int BINS = 4_000;
    private static final double LOG_LAMBDA_MIN = Math.log(1e-9);
    private static final double LOG_LAMBDA_MAX = Math.log(1e3);

    private OptimalAllocation() {
    }

    /**
     * Fills {@code interval} with 1/f of each page for rates {@code lambda} (NaN = unknown) under {@code budget}
     * fetches per unit; returns the pages given up on (at the floor frequency while their rate is positive).
     */
    static long allocate(double[] lambda, long budget, long minRevisit, long maxRevisit, double[] interval) {
        int n = lambda.length;
        assert interval.length == n : "one interval per page";
        double fMin = 1.0 / maxRevisit;
        double fMax = 1.0 / minRevisit;
        double uniformF = (double) budget / n;
        double left = budget;
        long[] count = new long[BINS];
        double[] sum = new double[BINS];
        long zeros = 0;
        for (int p = 0; p < n; p++) {
            double l = lambda[p];
            if (Double.isNaN(l)) {
                left -= uniformF;
            } else if (l <= 0 || l == Double.POSITIVE_INFINITY) {
                zeros++;
            } else {
                int b = bin(l);
                count[b]++;
                sum[b] += l;
            }
        }
        double[] rep = new double[BINS];
        for (int b = 0; b < BINS; b++) {
            rep[b] = count[b] == 0 ? 0 : sum[b] / count[b];
        }
        // Σ f(μ) is non-increasing in μ: bisection on ln μ
        double lo = -60;
        double hi = 60;
        for (int it = 0; it < 200 && hi - lo > 1e-12; it++) {
            double mid = (lo + hi) / 2;
            double mu = Math.exp(mid);
            double total = zeros * fMin;
            for (int b = 0; b < BINS; b++) {
                if (count[b] > 0) {
                    total += count[b] * frequency(rep[b], mu, fMin, fMax);
                }
            }
            if (total > left) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double mu = Math.exp((lo + hi) / 2);
        long floor = 0;
        for (int p = 0; p < n; p++) {
            double l = lambda[p];
            double f;
            if (Double.isNaN(l)) {
                f = uniformF;
            } else if (l <= 0 || l == Double.POSITIVE_INFINITY) {
                f = fMin;
                floor += l > 0 ? 1 : 0;
            } else {
                f = frequency(l, mu, fMin, fMax);
                floor += f <= fMin ? 1 : 0;
            }
            assert f >= fMin && f <= fMax || Double.isNaN(l) : "frequency " + f + " outside [fMin, fMax]";
            interval[p] = 1.0 / f;
        }
        return floor;
    }

    private static int bin(double lambda) {
        double x = (Math.log(lambda) - LOG_LAMBDA_MIN) / (LOG_LAMBDA_MAX - LOG_LAMBDA_MIN) * BINS;
        return (int) Math.max(0, Math.min(BINS - 1, x));
    }

    /** The optimal frequency for rate λ at multiplier μ: λ / g⁻¹(μλ), 0 if μλ ≥ 1, clamped to [fMin, fMax]. */
    static double frequency(double lambda, double mu, double fMin, double fMax) {
        double y = mu * lambda;
        double f = y >= 1 ? 0 : lambda / ChoGarciaMolinaG.inverse(y);
        return Math.max(fMin, Math.min(fMax, f));
    }
}
