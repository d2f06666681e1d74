package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;

/**
 * A page's change rate λ from its revisit history, and the revisit interval that follows from it (DESIGN.md §4.4):
 * the estimators of Cho &amp; Garcia-Molina, "Estimating frequency of change", ACM TOIT 3(3):256–290, 2003 (ref. 7
 * of paper 003, which uses it to set each page's period). A page is modelled as a Poisson process of rate λ; a
 * revisit only tells whether the page changed since the previous fetch ("existence of change", the paper's §4). The
 * paper is not among the seeds, so the equations are cited by section and quoted here; their printed numbers could
 * not be checked against the text.
 *
 * <ul>
 *   <li>{@link Kind#NAIVE} — §4.1, the intuitive estimator: λ̂ = X / T for X changes detected in n visits over a
 *   total time T. It ignores changes hidden between visits (E[X/n] = 1 − e^{−λI}) and so underestimates λ, the more
 *   the faster the page changes; X = 0 gives λ̂ = 0.</li>
 *   <li>{@link Kind#BIAS_REDUCED} — §4.2, the improved estimator for a regular interval I:
 *   λ̂ = −ln((n − X + 0.5) / (n + 0.5)) / I ({@link #changeRate}). The 0.5 terms keep it finite at X = n and make it
 *   nearly unbiased for small n. X = 0 still gives exactly 0, so on its own it sends a page found unchanged once to
 *   the maximum interval (issue 21): the policy adds our {@linkplain #zeroChangeRate half-change rule}.</li>
 *   <li>{@link Kind#IRREGULAR} (the default) — §4.3, the maximum-likelihood estimator for irregular access intervals:
 *   with t_ci (i = 1…m) the intervals in which a change was detected and t_uj (j = 1…n − m) those in which none was,
 *   the likelihood Π(1 − e^{−λ t_ci}) Π e^{−λ t_uj} is largest at the root of
 *   <pre>  Σ_i t_ci / (e^{λ t_ci} − 1) = Σ_j t_uj        ({@link #irregularMle})</pre>
 *   solved numerically. A crawler's intervals vary (they follow the estimate), so this is the one it must use. Two
 *   additions of ours, each reducing to the paper's §4.2 estimator when every interval equals I:
 *   <ul>
 *     <li><b>bias term</b>: the right-hand side gets + 0.5·Ī (Ī = mean interval), half an unchanged interval — the
 *     §4.2 correction carried over (with t_ci = t_uj = I the root is exactly −ln((n − X + 0.5)/(n + 0.5)) / I), which
 *     also keeps λ̂ finite when every visit found a change ({@link #irregular(double[], int, double, long)});</li>
 *     <li><b>bounded history</b>: a page's state keeps n, X, the total observed span, the span of the changed
 *     intervals and a {@link ChangeIntervals} summary of their lengths (21 power-of-two classes), not the list the
 *     equation sums over. Each t_ci is replaced by its class's geometric midpoint, all rescaled so that their sum is
 *     the exact changed span ({@link #irregular(ChangeIntervals, long, long, long, long)}). Σ t_uj is exact. A
 *     length is then off by at most a factor √2 before rescaling; with one length class the result is exact.</li>
 *   </ul></li>
 * </ul>
 * <p><b>Half-change rule (ours)</b>, used by BIAS_REDUCED and IRREGULAR: a page whose n comparisons found no change
 * gets the §4.2 formula at X = ½, λ̂ = ln((n + 0.5) / n) / Ī = ln(1 + 1/(2n)) / Ī, instead of 0: the same continuity
 * correction of one half, applied to the count that is zero. A page unchanged once after a day gets 1/λ̂ = 2.47
 * days; after n unchanged visits the next interval is ≈ (2n + ½)·Ī, so an unchanging page backs off geometrically
 * (about ×3 a visit) to the maximum instead of jumping there.
 *
 * <p><b>Solving</b> (§4.3): F(λ) = Σ w_k t_k / (e^{λ t_k} − 1) − R is strictly decreasing and convex on λ &gt; 0, so it
 * has one root, bracketed by lo = ln(1 + S/R) / (S/m) (every t_k replaced by their mean S/m; by Jensen, as
 * t / (e^{λt} − 1) is convex in t, F(lo) ≥ 0) and hi = m / R (t / (e^{λt} − 1) &lt; 1/λ, so F(hi) &lt; 0). Newton's
 * method started at lo climbs monotonically to the root (a convex decreasing function's tangent lies below it), at
 * most {@value #MAX_ITERATIONS} steps, no allocation. Invariant (asserted): lo ≤ λ̂ ≤ hi.
 *
 * <p>The next interval is clamp(1/λ̂, min, max) in whole units (λ̂ = 0 gives the maximum). Time unit: whatever unit
 * the intervals, min and max share (minutes in the crawler: defaults 1 minute … 400 days).
 */
public final class ChangeRateEstimator {
    public static final long DEFAULT_MIN_INTERVAL = 1;
    public static final long DEFAULT_MAX_INTERVAL = 400L * 24 * 60;
    /** Newton steps at most when solving the §4.3 likelihood equation. */
    public static final int MAX_ITERATIONS = 64;
    private static final double TOLERANCE = 1e-13;
    private static final double SQRT2 = Math.sqrt(2);

    /** Which estimator turns a history into λ̂. */
    public enum Kind {
        /** §4.1: X / T (kept for comparison). */
        NAIVE,
        /** §4.2 on the mean interval, with the half-change rule at X = 0. */
        BIAS_REDUCED,
        /** §4.3 with our bias term, bounded history and half-change rule: the default. */
        IRREGULAR
    }

    private final long minInterval;
    private final long maxInterval;
    private final Kind kind;

    /** The default estimator ({@link Kind#IRREGULAR}) within [min, max]. */
    public ChangeRateEstimator(long minInterval, long maxInterval) {
        this(minInterval, maxInterval, Kind.IRREGULAR);
    }

    public ChangeRateEstimator(long minInterval, long maxInterval, Kind kind) {
        if (minInterval < 1) {
            throw new IllegalArgumentException("min interval must be >= 1, was " + minInterval);
        }
        if (maxInterval < minInterval) {
            throw new IllegalArgumentException("max interval must be >= min interval " + minInterval + ", was "
                    + maxInterval);
        }
        if (kind == null) {
            throw new IllegalArgumentException("estimator kind must be one of NAIVE, BIAS_REDUCED, IRREGULAR");
        }
        this.minInterval = minInterval;
        this.maxInterval = maxInterval;
        this.kind = kind;
    }

    /** 1 minute … 400 days, in minutes. */
    public static ChangeRateEstimator defaults() {
        return new ChangeRateEstimator(DEFAULT_MIN_INTERVAL, DEFAULT_MAX_INTERVAL);
    }

    private static void checkHistory(long visits, long changes, double span, String what) {
        if (visits < 1) {
            throw new IllegalArgumentException("visits must be >= 1, was " + visits);
        }
        if (changes < 0 || changes > visits) {
            throw new IllegalArgumentException("changes must be in [0, " + visits + "], was " + changes);
        }
        if (!(span > 0) || span == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(what + " must be > 0 and finite, was " + span);
        }
    }

    /** §4.1, the intuitive estimator: λ̂ = X / T, {@code observed} = T the time covered by the n visits. */
    public static double naive(long visits, long changes, double observed) {
        checkHistory(visits, changes, observed, "observed time");
        return changes / observed;
    }

    /**
     * §4.2, the improved (bias-reduced) estimator for {@code changes} of {@code visits} visits {@code interval} units
     * apart: λ̂ = −ln((n − X + 0.5) / (n + 0.5)) / I, exactly as the paper gives it (0 at X = 0).
     */
    public static double changeRate(long visits, long changes, double interval) {
        checkHistory(visits, changes, interval, "interval");
        double r = -Math.log((visits - changes + 0.5) / (visits + 0.5));
        return r / interval;
    }

    /** {@link #changeRate}, under the paper's name. */
    public static double biasReduced(long visits, long changes, double interval) {
        return changeRate(visits, changes, interval);
    }

    /** The half-change rule (ours): ln((n + 0.5) / n) / Ī, §4.2's formula at X = ½, for a page never found changed. */
    public static double zeroChangeRate(long visits, double meanInterval) {
        checkHistory(visits, 0, meanInterval, "mean interval");
        return Math.log1p(0.5 / visits) / meanInterval;
    }

    /**
     * §4.3 exactly as the paper states it: the root λ of Σ_i t_ci / (e^{λ t_ci} − 1) = Σ_j t_uj, with
     * {@code changed[0, m)} the t_ci and {@code unchangedUnits} = Σ t_uj. 0 when m = 0 (no root: the likelihood
     * e^{−λ Σ t_uj} is largest at 0), +∞ when nothing was unchanged (every visit found a change).
     */
    public static double irregularMle(double[] changed, int m, double unchangedUnits) {
        checkLengths(changed, m, unchangedUnits);
        if (m == 0) {
            return 0;
        }
        if (unchangedUnits == 0) {
            return Double.POSITIVE_INFINITY;
        }
        return solve(changed, m, null, 0, null, 0, unchangedUnits);
    }

    /**
     * §4.3 with our bias term, on the exact intervals: the root of Σ_i t_ci / (e^{λ t_ci} − 1) = Σ_j t_uj + 0.5·Ī,
     * Ī = (Σ t_ci + Σ t_uj) / n; 0 when m = 0, like §4.2 (the half-change rule is the policy's, {@link #rate}).
     * Equals {@link #changeRate} when all intervals are equal.
     */
    public static double irregular(double[] changed, int m, double unchangedUnits, long visits) {
        checkLengths(changed, m, unchangedUnits);
        if (visits < m || visits < 1) {
            throw new IllegalArgumentException("visits must be >= max(1, changes " + m + "), was " + visits);
        }
        double changedUnits = 0;
        for (int i = 0; i < m; i++) {
            changedUnits += changed[i];
        }
        double mean = (changedUnits + unchangedUnits) / visits;
        if (m == 0) {
            return 0;
        }
        return solve(changed, m, null, 0, null, 0, unchangedUnits + 0.5 * mean);
    }

    /**
     * §4.3 with our bias term and bounded history: what the crawler computes from a page's state (0 when X = 0).
     * {@code changed} summarises the X changed intervals, whose lengths sum to {@code changedUnits}, out of
     * {@code observedUnits} covered by all n. A history that does not hold together (a record written before the
     * summary existed: no summary, or one whose total is not X, or a changed span outside [X, observed]) is read as
     * a regular one: every interval the mean, which is §4.2.
     */
    public static double irregular(ChangeIntervals changed, long changedUnits, long observedUnits, long visits,
                                   long changes) {
        checkHistory(visits, changes, observedUnits, "observed time");
        double mean = (double) observedUnits / visits;
        if (changes == 0) {
            return 0;
        }
        if (!consistent(changed, changedUnits, observedUnits, changes)) {
            return changeRate(visits, changes, mean);
        }
        return classes(null, 0, changed, changedUnits, observedUnits, mean);
    }

    /**
     * {@link #irregular(ChangeIntervals, long, long, long, long)} over length-class counts the caller keeps in
     * {@code counts[offset, offset + BUCKETS)} (the simulator's flat per-page arrays), which must be consistent:
     * they add up to {@code changes} &gt; 0 and changedUnits is in [changes, observedUnits]. 0 when X = 0.
     */
    public static double irregular(long[] counts, int offset, long changedUnits, long observedUnits, long visits,
                                   long changes) {
        checkHistory(visits, changes, observedUnits, "observed time");
        if (changes == 0) {
            return 0;
        }
        if (changedUnits < changes || changedUnits > observedUnits) {
            throw new IllegalArgumentException("changed span " + changedUnits + " outside [" + changes + ", "
                    + observedUnits + "]");
        }
        return classes(counts, offset, null, changedUnits, observedUnits, (double) observedUnits / visits);
    }

    private static long count(long[] counts, int offset, ChangeIntervals changed, int b) {
        return changed != null ? changed.count(b) : counts[offset + b];
    }

    private static double classes(long[] counts, int offset, ChangeIntervals changed, long changedUnits,
                                  long observedUnits, double mean) {
        double rawSum = 0;
        for (int b = 0; b < ChangeIntervals.BUCKETS; b++) {
            long c = count(counts, offset, changed, b);
            if (c > 0) {
                rawSum += c * midpoint(b);
            }
        }
        double scale = changedUnits / rawSum;
        return solve(null, 0, counts, offset, changed, scale, (observedUnits - changedUnits) + 0.5 * mean);
    }

    /** Whether a page's change-interval summary and changed span can be used as they are (see above). */
    public static boolean consistent(ChangeIntervals changed, long changedUnits, long observedUnits, long changes) {
        return changed != null && changed.valid() && changed.total() == changes && changedUnits >= changes
                && changedUnits <= observedUnits;
    }

    /** Geometric midpoint of length class b: 1 for b = 0 (exactly one unit), 2^b·√2 otherwise. */
    static double midpoint(int b) {
        return b == 0 ? 1 : Math.scalb(SQRT2, b);
    }

    private static void checkLengths(double[] changed, int m, double unchangedUnits) {
        if (m < 0 || (m > 0 && (changed == null || changed.length < m))) {
            throw new IllegalArgumentException("need " + m + " changed intervals");
        }
        for (int i = 0; i < m; i++) {
            if (!(changed[i] > 0) || changed[i] == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("changed interval " + i + " must be > 0, was " + changed[i]);
            }
        }
        if (!(unchangedUnits >= 0) || unchangedUnits == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("unchanged time must be >= 0, was " + unchangedUnits);
        }
    }

    /**
     * The root of Σ w_k t_k / (e^{λ t_k} − 1) = rhs over {@code lengths[0, m)} (weight 1 each) or, when
     * {@code lengths} is null, over length classes — {@code classes}, or {@code counts[offset, offset + BUCKETS)} —
     * with weight = count and t = midpoint · scale. rhs &gt; 0, Σ w &gt; 0.
     */
    private static double solve(double[] lengths, int m, long[] counts, int offset, ChangeIntervals classes,
                                double scale, double rhs) {
        assert rhs > 0;
        boolean byClass = lengths == null;
        double weight = 0;
        double sum = 0;
        int terms = byClass ? ChangeIntervals.BUCKETS : m;
        for (int k = 0; k < terms; k++) {
            double w = byClass ? count(counts, offset, classes, k) : 1;
            if (w > 0) {
                weight += w;
                sum += w * (byClass ? midpoint(k) * scale : lengths[k]);
            }
        }
        assert weight > 0 && sum > 0;
        double lo = Math.log1p(sum / rhs) / (sum / weight);
        double hi = weight / rhs;
        double x = lo;
        for (int it = 0; it < MAX_ITERATIONS; it++) {
            double f = -rhs;
            double slope = 0;
            for (int k = 0; k < terms; k++) {
                double w = byClass ? count(counts, offset, classes, k) : 1;
                if (w == 0) {
                    continue;
                }
                double t = byClass ? midpoint(k) * scale : lengths[k];
                double e = Math.expm1(x * t);
                if (e == Double.POSITIVE_INFINITY) {
                    continue; // the term and its slope are 0
                }
                f += w * t / e;
                slope -= w * t * t / (e * -Math.expm1(-x * t));
            }
            if (f <= 0 || slope == 0) {
                break; // at the root, to rounding
            }
            double next = Math.min(hi, x - f / slope);
            if (next - x <= TOLERANCE * x) {
                x = Math.max(x, next);
                break;
            }
            x = next;
        }
        assert x >= lo && x <= hi * (1 + 1e-12) : "lambda " + x + " outside [" + lo + ", " + hi + "]";
        return x;
    }

    /**
     * λ̂ of this estimator's {@link #kind()} for a page's history (see the class comment): NAIVE as §4.1 (0 at X = 0),
     * BIAS_REDUCED and IRREGULAR with the half-change rule at X = 0.
     */
    public double rate(long visits, long changes, long observedUnits, long changedUnits, ChangeIntervals changed) {
        if (kind != Kind.NAIVE && changes == 0) {
            checkHistory(visits, changes, observedUnits, "observed time");
            return zeroChangeRate(visits, (double) observedUnits / visits);
        }
        return switch (kind) {
            case NAIVE -> naive(visits, changes, observedUnits);
            case BIAS_REDUCED -> changeRate(visits, changes, (double) observedUnits / visits);
            case IRREGULAR -> irregular(changed, changedUnits, observedUnits, visits, changes);
        };
    }

    /** The next revisit interval for a history: {@link #interval(double)} of {@link #rate}. */
    public long nextInterval(long visits, long changes, long observedUnits, long changedUnits,
                             ChangeIntervals changed) {
        return interval(rate(visits, changes, observedUnits, changedUnits, changed));
    }

    /**
     * The interval §4.2's estimator alone gives n visits {@code interval} units apart with X changes — the crawler's
     * rule before issue 21 (X = 0 ⇒ the maximum), kept for the simulator's existing policies.
     */
    public long nextInterval(long visits, long changes, double interval) {
        return interval(changeRate(visits, changes, interval));
    }

    /** clamp(1/λ, min, max), rounded to whole units; λ ≤ 0 gives the maximum. */
    public long interval(double lambda) {
        if (!(lambda > 0)) {
            return maxInterval;
        }
        double next = 1.0 / lambda;
        if (next >= maxInterval) {
            return maxInterval;
        }
        return Math.max(minInterval, Math.round(next));
    }

    public Kind kind() {
        return kind;
    }

    public long minInterval() {
        return minInterval;
    }

    public long maxInterval() {
        return maxInterval;
    }
}
