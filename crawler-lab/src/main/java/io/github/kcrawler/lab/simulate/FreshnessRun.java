package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.simulate.FreshnessExperiment.Options;
import io.github.kcrawler.lab.simulate.FreshnessExperiment.Policy;
import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator.Kind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.github.kcrawler.lab.simulate.FreshnessExperiment.round;

/**
 * One revisit policy of a {@link FreshnessExperiment} on one {@link FreshnessPopulation}: the budgeted fetch loop,
 * the policy's re-planning on its rate estimates, and the exact freshness and age integrals. The allocation of the
 * budget over the estimated rates is {@link OptimalAllocation}'s; a per-estimator run (issue 21) keeps its pages'
 * bounded histories and compares the estimators in {@link EstimatorHistory}. The class comment of
 * {@link FreshnessExperiment} states the model and the policies.
 */
final class FreshnessRun {
    private static final double LN2 = Math.log(2);
    /**
     * Ticks per simulated unit for the crawler's bounded history (issue 21): the crawler counts whole minutes, the
     * simulator's intervals are fractions of a unit, so they are kept in 1/64 units before entering the same
     * {@link ChangeIntervals} length classes and the same estimator code.
     */
    static final double TICKS = 64;

    final FreshnessPopulation pop;
    final Policy policy;
    final long budget;
    final long maxRevisit;
    final Options o;
    final ChangeRateEstimator estimator;
    /** The estimator an issue-21 run re-plans with (null: the policy's own rule, as before issue 21). */
    final Kind kind;
    /** For issue-21 runs: the bounded history per page the estimators work on (null otherwise). */
    final EstimatorHistory history;
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
        history = kind == null ? null : new EstimatorHistory(n);
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
        if (history != null) {
            history.visit(p, Math.max(1, Math.round((t - lastFetch[p]) * TICKS)), changed);
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
                lambda[p] = history.estimate(kind, p, visits[p], changes[p]);
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
        pagesAtFloor = OptimalAllocation.allocate(lambda, budget, o.minRevisit(), maxRevisit, interval);
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
     * this run's histories ({@link EstimatorHistory#lambdaErrors}).
     */
    FreshnessResult.EstimatorRun estimatorSummary() {
        return new FreshnessResult.EstimatorRun(EstimatorHistory.key(kind), round(freshness()), round(age()), fetches,
                pagesAtFloor, history.lambdaErrors(pop, visits, changes));
    }

    int classOf(int p, double uniformInterval) {
        int i = pop.interval[p];
        return i < uniformInterval / 4 ? 0 : i >= uniformInterval * 4 ? 2 : 1;
    }
}
