package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.simulate.FreshnessExperiment.Options;
import io.github.kcrawler.lab.simulate.FreshnessExperiment.Policy;
import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator.Kind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.github.kcrawler.lab.simulate.FreshnessExperiment.round;

/**
 * One revisit policy of a {@link FreshnessExperiment} on one {@link FreshnessPopulation}: the budgeted fetch loop,
 * the policy's re-planning (the estimator's rates, their optimal-freshness allocation by bisection on a log-binned
 * histogram) and the exact freshness and age integrals. The class comment of {@link FreshnessExperiment} states the
 * model and the policies.
 */
final class FreshnessRun {
    private static final int BINS = 4_000;
    private static final double LN2 = Math.log(2);
    private static final double LOG_LAMBDA_MIN = Math.log(1e-9);
    private static final double LOG_LAMBDA_MAX = Math.log(1e3);
    /**
     * Ticks per simulated unit for the crawler's bounded history (issue 21): the crawler counts whole minutes, the
     * simulator's intervals are fractions of a unit, so they are kept in 1/64 units before entering the same
     * {@link ChangeIntervals} length classes and the same estimator code.
     */
    static final double TICKS = 64;
    /** |log2(λ̂/λ)| is capped here, so that λ̂ = 0 (the naive estimator at X = 0) counts as a finite error. */
    static final double MAX_LOG2_ERROR = 10;

    final FreshnessPopulation pop;
    final Policy policy;
    final long budget;
    final long maxRevisit;
    final Options o;
    final ChangeRateEstimator estimator;
    /** The estimator an issue-21 run re-plans with (null: the policy's own rule, as before issue 21). */
    final Kind kind;
    /** Per page, for issue-21 runs: the observed and changed spans in ticks, and the changed intervals' classes. */
    final long[] observedTicks;
    final long[] changedTicks;
    final long[] classes;
    final double[] origin;
    final double[] lastFetch;
    final double[] firstChange;
    final int[] visits;
    final int[] changes;
    final double[] interval;
    final DueHeap heap;
    final SplittableRandom rnd;
    double freshTime;
    double ageIntegral;
    long fetches;
    long maxFetchesInAUnit;
    long replans;
    long pagesAtFloor;
    double[] curveT;
    double[] curveFresh;
    double[] curveAge;

    FreshnessRun(FreshnessPopulation pop, Policy policy, long budget, long maxRevisit, Options o) {
        this(pop, policy, budget, maxRevisit, o, null);
    }

    /**
     * A run whose re-plans estimate every page's rate with {@code kind} (issue 21; only with
     * {@link Policy#ESTIMATED_OPTIMAL}: the optimal allocation on those estimates, nothing else), keeping the
     * bounded history the crawler keeps so that all three estimators can be compared on its histories.
     */
    FreshnessRun(FreshnessPopulation pop, Policy policy, long budget, long maxRevisit, Options o, Kind kind) {
        if (kind != null && policy != Policy.ESTIMATED_OPTIMAL) {
            throw new IllegalArgumentException("an estimator run is an estimatedOptimal run, not " + policy);
        }
        this.kind = kind;
        this.pop = pop;
        this.policy = policy;
        this.budget = budget;
        this.maxRevisit = maxRevisit;
        this.o = o;
        this.estimator = new ChangeRateEstimator(o.minRevisit(), maxRevisit);
        int n = pop.n;
        origin = new double[n];
        lastFetch = new double[n];
        firstChange = new double[n];
        visits = new int[n];
        changes = new int[n];
        interval = new double[n];
        heap = new DueHeap(n);
        rnd = new SplittableRandom(pop.seed);
        observedTicks = kind == null ? null : new long[n];
        changedTicks = kind == null ? null : new long[n];
        if (kind != null && (long) n * ChangeIntervals.BUCKETS > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("an estimator run holds at most " + (Integer.MAX_VALUE - 8)
                    / ChangeIntervals.BUCKETS + " pages, was " + n);
        }
        classes = kind == null ? null : new long[n * ChangeIntervals.BUCKETS];
    }

    FreshnessRun simulate() {
        int n = pop.n;
        double uniformInterval = (double) n / budget;
        int[] order = new int[n];
        for (int p = 0; p < n; p++) {
            order[p] = p;
        }
        SplittableRandom perm = new SplittableRandom(o.seed() * 31 + 7); // same permutation for every policy
        for (int p = n - 1; p > 0; p--) {
            int q = perm.nextInt(p + 1);
            int t = order[p];
            order[p] = order[q];
            order[q] = t;
        }
        for (int rank = 0; rank < n; rank++) {
            int p = order[rank];
            double due = (double) rank / budget;
            origin[p] = due - uniformInterval; // the uniform steady state: copy taken one interval before due
            lastFetch[p] = origin[p];
            firstChange[p] = pop.nextChange(p, origin[p], rnd);
            interval[p] = uniformInterval;
            heap.push(due, p);
        }
        if (policy == Policy.ORACLE) {
            double[] lambda = new double[n];
            for (int p = 0; p < n; p++) {
                lambda[p] = pop.rate(p);
            }
            allocate(lambda);
        }
        int points = o.curvePoints();
        curveT = new double[points];
        curveFresh = new double[points];
        curveAge = new double[points];
        int k = 0;
        for (long u = 0; u < o.horizon(); u++) {
            if (policy.replans() && u > 0 && u % o.replanEvery() == 0) {
                replan();
            }
            while (k < points && sampleTime(k) <= u) {
                sample(k++, u);
            }
            long inUnit = 0;
            for (long j = 0; j < budget; j++) {
                int p = heap.popPage();
                double t = u + (double) j / budget;
                fetch(p, t);
                heap.push(t + interval[p], p);
                inUnit++;
            }
            fetches += inUnit;
            maxFetchesInAUnit = Math.max(maxFetchesInAUnit, inUnit);
        }
        while (k < points) {
            sample(k++, o.horizon());
        }
        for (int p = 0; p < n; p++) {
            account(lastFetch[p], o.horizon(), firstChange[p]);
        }
        return this;
    }

    private long sampleTime(int k) {
        return Math.round((double) k * o.horizon() / (o.curvePoints() - 1));
    }

    private void sample(int k, long t) {
        long fresh = 0;
        double age = 0;
        for (int p = 0; p < pop.n; p++) {
            double c = firstChange[p];
            if (c > t) {
                fresh++;
            } else {
                age += t - c;
            }
        }
        curveT[k] = t;
        curveFresh[k] = (double) fresh / pop.n;
        curveAge[k] = age / pop.n;
    }

    private void fetch(int p, double t) {
        double c = firstChange[p];
        account(lastFetch[p], t, c);
        boolean changed = c <= t;
        visits[p]++;
        if (kind != null) {
            long ticks = Math.max(1, Math.round((t - lastFetch[p]) * TICKS));
            observedTicks[p] += ticks;
            if (changed) {
                changedTicks[p] += ticks;
                classes[p * ChangeIntervals.BUCKETS + ChangeIntervals.bucket(ticks)]++;
            }
        }
        if (changed) {
            changes[p]++;
            firstChange[p] = pop.nextChange(p, t, rnd);
        }
        lastFetch[p] = t;
    }

    /** Adds the fresh time and the age integral of [t0, t1] (copy taken at t0, first change c) in the window. */
    private void account(double t0, double t1, double c) {
        double w0 = o.warmup();
        double w1 = o.horizon();
        double freshEnd = Math.min(c, t1);
        double a = Math.max(t0, w0);
        double b = Math.min(freshEnd, w1);
        if (b > a) {
            freshTime += b - a;
        }
        if (c < t1) {
            double s = Math.max(c, w0);
            double e = Math.min(t1, w1);
            if (e > s) {
                ageIntegral += ((e - c) * (e - c) - (s - c) * (s - c)) / 2;
            }
        }
    }

    /** λ̂ of a page from its own history, or NaN before its first revisit. */
    double estimate(int p) {
        if (visits[p] == 0) {
            return Double.NaN;
        }
        return ChangeRateEstimator.changeRate(visits[p], changes[p], meanInterval(p));
    }

    /**
     * λ̂ of a page by estimator {@code k} on this issue-21 run's history, per unit, or NaN before its first revisit:
     * NAIVE X/T (0 at X = 0); BIAS_REDUCED §4.2 on the mean interval and IRREGULAR §4.3 on the length classes, both
     * with the half-change rule at X = 0 — the crawler's {@link ChangeRateEstimator#rate} on the same numbers.
     */
    double estimate(Kind k, int p) {
        if (visits[p] == 0) {
            return Double.NaN;
        }
        long n = visits[p];
        long x = changes[p];
        long obs = observedTicks[p];
        double perTick = switch (k) {
            case NAIVE -> ChangeRateEstimator.naive(n, x, obs);
            case BIAS_REDUCED -> x == 0 ? ChangeRateEstimator.zeroChangeRate(n, (double) obs / n)
                    : ChangeRateEstimator.changeRate(n, x, (double) obs / n);
            case IRREGULAR -> x == 0 ? ChangeRateEstimator.zeroChangeRate(n, (double) obs / n)
                    : ChangeRateEstimator.irregular(classes, p * ChangeIntervals.BUCKETS, changedTicks[p], obs, n, x);
        };
        return perTick * TICKS;
    }

    /** The mean interval between the page's visits so far (its first copy counts as visit 0). */
    double meanInterval(int p) {
        return (lastFetch[p] - origin[p]) / visits[p];
    }

    private void replan() {
        replans++;
        int n = pop.n;
        if (policy == Policy.PROPORTIONAL) {
            double[] desired = new double[n];
            double demand = 0;
            for (int p = 0; p < n; p++) {
                desired[p] = visits[p] == 0 ? (double) n / budget
                        : estimator.nextInterval(visits[p], changes[p], meanInterval(p));
                demand += 1.0 / desired[p];
            }
            double scale = demand / budget;
            for (int p = 0; p < n; p++) {
                interval[p] = desired[p] * scale;
            }
            return;
        }
        double[] lambda = new double[n];
        if (kind != null) {
            for (int p = 0; p < n; p++) {
                lambda[p] = estimate(kind, p);
            }
            allocate(lambda);
            return;
        }
        double skipAbove = o.skipFactor() * budget / n;
        for (int p = 0; p < n; p++) {
            double l = estimate(p);
            if (policy == Policy.ADAPTIVE && visits[p] > 0) {
                if (changes[p] == 0) {
                    l = LN2 / (lastFetch[p] - origin[p]); // median-unbiased rate of a Poisson count of 0
                } else if (l >= skipAbove) {
                    l = Double.POSITIVE_INFINITY; // far above what the budget can follow: give up on it
                }
            }
            lambda[p] = l;
        }
        allocate(lambda);
    }

    /**
     * Sets intervals from Cho &amp; Garcia-Molina's optimal freshness allocation for rates {@code lambda} (NaN =
     * unknown: the page keeps the uniform frequency, taken off the budget first).
     */
    void allocate(double[] lambda) {
        int n = pop.n;
        double fMin = 1.0 / maxRevisit;
        double fMax = 1.0 / o.minRevisit();
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
            interval[p] = 1.0 / f;
        }
        pagesAtFloor = floor;
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

    double freshness() {
        return freshTime / ((double) pop.n * (o.horizon() - o.warmup()));
    }

    double age() {
        return ageIntegral / ((double) pop.n * (o.horizon() - o.warmup()));
    }

    FreshnessResult.PolicyRun summary(double uniformInterval) {
        boolean allocates = policy == Policy.ADAPTIVE || policy == Policy.ESTIMATED_OPTIMAL || policy == Policy.ORACLE;
        double[] iv = interval.clone();
        Arrays.sort(iv);
        return new FreshnessResult.PolicyRun(round(freshness()), round(age()), fetches, budget, maxFetchesInAUnit,
                replans, allocates ? pagesAtFloor : null, policy.replans() ? estimateSummary(uniformInterval) : null,
                round(iv[iv.length / 10]), round(iv[iv.length / 2]),
                round(iv[Math.min(iv.length - 1, iv.length * 9 / 10)]));
    }

    /** λ̂/λ by class of true interval: fast (&lt; J/4), medium, slow (≥ 4J), J = uniform interval. */
    FreshnessResult.Estimates estimateSummary(double uniformInterval) {
        FreshnessResult.EstimateClass[] classes = new FreshnessResult.EstimateClass[3];
        for (int cls = 0; cls < 3; cls++) {
            double sumEst = 0;
            double sumTrue = 0;
            List<Double> ratios = new ArrayList<>();
            long visitsSum = 0;
            for (int p = 0; p < pop.n; p++) {
                if (classOf(p, uniformInterval) != cls || visits[p] == 0) {
                    continue;
                }
                double est = estimate(p);
                sumEst += est;
                sumTrue += pop.rate(p);
                ratios.add(est / pop.rate(p));
                visitsSum += visits[p];
            }
            if (ratios.isEmpty()) {
                classes[cls] = new FreshnessResult.EstimateClass(0, null, null, null);
            } else {
                ratios.sort(null);
                classes[cls] = new FreshnessResult.EstimateClass(ratios.size(), round(sumEst / sumTrue),
                        round(ratios.get(ratios.size() / 2)), round((double) visitsSum / ratios.size()));
            }
        }
        return new FreshnessResult.Estimates(classes[0], classes[1], classes[2]);
    }

    /**
     * An issue-21 run's summary: its freshness and age, and the error of each estimator's λ̂ against the true λ on
     * this run's histories (pages revisited at least once): Σλ̂/Σλ, median λ̂/λ, mean |log2(λ̂/λ)| (capped at
     * {@value #MAX_LOG2_ERROR}, so λ̂ = 0 counts as 10) and the pages with λ̂ = 0.
     */
    FreshnessResult.EstimatorRun estimatorSummary() {
        Map<String, FreshnessResult.LambdaError> errors = new LinkedHashMap<>();
        for (Kind k : Kind.values()) {
            double sumEst = 0;
            double sumTrue = 0;
            double logError = 0;
            long zeros = 0;
            double[] ratios = new double[pop.n];
            int pages = 0;
            for (int p = 0; p < pop.n; p++) {
                if (visits[p] == 0) {
                    continue;
                }
                double est = estimate(k, p);
                double truth = pop.rate(p);
                sumEst += est;
                sumTrue += truth;
                zeros += est == 0 ? 1 : 0;
                logError += est == 0 ? MAX_LOG2_ERROR
                        : Math.min(MAX_LOG2_ERROR, Math.abs(Math.log(est / truth) / LN2));
                ratios[pages++] = est / truth;
            }
            if (pages == 0) {
                errors.put(key(k), new FreshnessResult.LambdaError(0, null, null, null, null));
            } else {
                Arrays.sort(ratios, 0, pages);
                errors.put(key(k), new FreshnessResult.LambdaError(pages, round(sumEst / sumTrue),
                        round(ratios[pages / 2]), round(logError / pages), zeros));
            }
        }
        return new FreshnessResult.EstimatorRun(key(kind), round(freshness()), round(age()), fetches, pagesAtFloor,
                errors);
    }

    /** The JSON name of an estimator. */
    static String key(Kind k) {
        return switch (k) {
            case NAIVE -> "naive";
            case BIAS_REDUCED -> "biasReduced";
            case IRREGULAR -> "irregular";
        };
    }

    int classOf(int p, double uniformInterval) {
        int i = pop.interval[p];
        return i < uniformInterval / 4 ? 0 : i >= uniformInterval * 4 ? 2 : 1;
    }
}
