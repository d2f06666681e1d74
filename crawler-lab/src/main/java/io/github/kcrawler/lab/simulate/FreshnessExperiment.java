package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.websim.ChangeModel;
import io.github.kcrawler.websim.ChangeSchedule;
import io.github.kcrawler.websim.WebSimConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Freshness of a re-crawled collection under a fixed fetch budget: uniform revisits against revisits driven by the
 * change-rate estimator of DESIGN.md §4.4 (Cho &amp; Garcia-Molina, "Estimating frequency of change", ACM TOIT 2003;
 * the allocation is from their "Effective page refresh policies for web crawlers", ACM TODS 2003). No HTTP: the
 * pages are the graph's node ids and everything runs on simulated time, so the ground truth is exact.
 *
 * <p><b>Pages and changes.</b> Page p's change interval I_p ∈ [1, T] units is the one websim serves for it
 * ({@link ChangeSchedule}: paper 003's Zipf or Peaked distribution, same seed ⇒ same I_p). With
 * {@link Process#POISSON} (the default, the estimator's own assumption) the page changes as a Poisson process of
 * rate λ_p = 1/I_p; with {@link Process#PERIODIC} it changes exactly on websim's schedule (every I_p units from its
 * phase).
 *
 * <p><b>Budget.</b> B = round(budgetFraction · N) fetches per unit, every unit, for every policy: unit u pops the B
 * pages with the earliest due time from a heap and fetches them at u + j/B (j = 0…B−1), then re-queues each at fetch
 * time + its interval. The budget is therefore enforced by construction (a priority by due time); intervals that ask
 * for more or fewer fetches than B only shift due times. Initially page p is due at rank(p)/B (a random
 * permutation) and its stored copy was taken one uniform interval earlier: every policy starts from the uniform
 * policy's steady state.
 *
 * <p><b>Policies.</b>
 * <ul>
 *   <li>{@code uniform}: every page every N/B units.</li>
 *   <li>{@code proportional}: each page's interval is {@link ChangeRateEstimator#nextInterval} — clamp(1/λ̂, min,
 *   max) — on its own history (n revisits, X of them found a change, I = mean interval between them), re-estimated
 *   every {@code replanEvery} units and scaled by one common factor so that Σ 1/interval = B. This is "revisit each
 *   page as often as it changes", which Cho &amp; Garcia-Molina proved can be worse than uniform for freshness.</li>
 *   <li>{@code estimatedOptimal}: the same estimates λ̂_p, but revisit frequencies f_p from their optimal freshness
 *   allocation: maximise Σ F(λ_p, f_p), F = (f/λ)(1 − e^{−λ/f}), subject to Σ f_p = B. The Lagrange condition is
 *   g(λ/f)/λ = μ with g(x) = 1 − (1 + x)e^{−x}; a page with μλ ≥ 1 gets f = 0. Every page keeps a floor of 1/max so
 *   its estimate stays current, and a ceiling of 1/min. μ is found by bisection on a log-binned histogram of the λ̂
 *   (4,000 bins), then each page's f_p is computed from its own λ̂.</li>
 *   <li>{@code adaptive} (reported as {@code freshnessAdaptive}): that allocation with two rules on the estimates.
 *   A page never seen changing (X = 0) has λ̂ = 0 and would be sent to the maximum interval for good; it gets
 *   ln 2 / (time observed), the median-unbiased rate of a Poisson count of 0, instead. A page whose λ̂ is at least
 *   {@code skipFactor} times the uniform frequency B/N changes far faster than the budget can follow (and its
 *   estimate saturates at X = n, λ̂ ≤ ln(2n + 1)/Ī, so it is a lower bound): it is given up on, i.e. revisited only
 *   at the floor — Cho &amp; Garcia-Molina's rule of thumb.</li>
 *   <li>{@code oracle}: the optimal allocation on the true rates: the reference the estimator-driven policies
 *   can approach but, for Poisson changes and up to noise, not beat.</li>
 * </ul>
 * A page never revisited yet (only possible before the first re-plan) keeps the uniform interval.
 *
 * <p><b>Estimators side by side</b> (issue 21). Three more runs of {@code estimatedOptimal}, each re-planning with one
 * of Cho &amp; Garcia-Molina's estimators as the crawler computes them ({@link ChangeRateEstimator.Kind}):
 * {@code naive} (X/T, §4.1; 0 at X = 0), {@code biasReduced} (§4.2 on the mean interval) and {@code irregular}
 * (§4.3 on the crawler's bounded history of length classes, the crawler's default), the last two with the
 * half-change rule at X = 0. Each reports its freshness and age ({@code freshnessByEstimator}, and
 * {@code models.M.estimators.K}) and, on its own histories, every estimator's error against the true λ
 * ({@code lambdaError}: Σλ̂/Σλ, median λ̂/λ, mean |log2(λ̂/λ)| capped at 10, pages with λ̂ = 0). These runs keep
 * intervals in 1/64 units so that short intervals keep their lengths in the crawler's whole-unit classes. The
 * earlier fields are computed as before and are unchanged.
 *
 * <p><b>Measures</b> (exact, per realisation). A page is fresh from a fetch until its first change after it; its
 * age is 0 while fresh and t − (that change) afterwards. Time-averaged freshness and age are integrated in closed
 * form per page over the window [warmup, horizon] and averaged over pages; curves sample the instantaneous fraction
 * of fresh pages and mean age at {@code curvePoints} unit boundaries. For Poisson changes and the uniform policy the
 * expected freshness is known: mean over pages of (1 − e^{−λJ})/(λJ), J = N/B ({@code freshnessUniformExpected}).
 * Poisson realisations are drawn per policy from the same seed: the policies see statistically identical, not
 * identical, change sequences.
 */
public final class FreshnessExperiment {

    /** How a page's changes happen in time. */
    public enum Process {
        /** Poisson process of rate 1/I_p (the estimator's model). */
        POISSON,
        /** Exactly websim's deterministic schedule: every I_p units from the page's phase. */
        PERIODIC
    }

    /** Revisit policies, in report order. */
    public enum Policy {
        UNIFORM("uniform"), PROPORTIONAL("proportional"), ESTIMATED_OPTIMAL("estimatedOptimal"),
        ADAPTIVE("adaptive"), ORACLE("oracle");

        private final String key;

        Policy(String key) {
            this.key = key;
        }

        String key() {
            return key;
        }

        boolean replans() {
            return this == PROPORTIONAL || this == ESTIMATED_OPTIMAL || this == ADAPTIVE;
        }
    }

    /**
     * @param graph BVGraph basename whose pages are simulated, or null to simulate {@code pages} pages
     * @param pages number of pages when {@code graph} is null (ignored otherwise)
     * @param models change models to run (ZIPF, PEAKED)
     * @param process Poisson or websim's periodic schedule
     * @param maxInterval T: change intervals 1…T units
     * @param budgetFraction fetches per unit as a fraction of the pages (uniform interval = 1/budgetFraction)
     * @param horizon units simulated
     * @param warmup units excluded from the time averages
     * @param replanEvery units between re-estimations of the adaptive policies
     * @param minRevisit smallest revisit interval of the adaptive policies (the estimator's min), units
     * @param maxRevisit largest revisit interval of the adaptive policies (the estimator's max), units; 0 = ten uniform
     *     intervals
     * @param skipFactor the adaptive policy gives up on (revisits at the floor) a page whose estimated rate is at
     *     least this many times the uniform revisit frequency B/N
     * @param seed seed of the change intervals (websim's) and of the Poisson realisations
     * @param curvePoints samples per curve
     * @param plotDir directory for the SVG plots, or null for none
     */
    public record Options(Path graph, int pages, List<ChangeModel> models, Process process, int maxInterval,
                          double budgetFraction, long horizon, long warmup, long replanEvery, long minRevisit,
                          long maxRevisit, double skipFactor, long seed, int curvePoints, Path plotDir) {
        public static final int DEFAULT_MAX_INTERVAL = 9_600;
        public static final double DEFAULT_BUDGET_FRACTION = 0.01;
        public static final long DEFAULT_HORIZON = 10_000;
        public static final long DEFAULT_WARMUP = 2_000;
        public static final long DEFAULT_REPLAN_EVERY = 100;
        public static final long DEFAULT_MIN_REVISIT = 1;
        public static final double DEFAULT_SKIP_FACTOR = 3.0;
        public static final long DEFAULT_SEED = 42;
        public static final int DEFAULT_CURVE_POINTS = 200;

        public Options {
            if (graph == null && (pages < 1 || pages > 100_000_000)) {
                throw new IllegalArgumentException("pages must be in [1, 100000000] without a graph, was " + pages);
            }
            if (models == null || models.isEmpty()
                    || models.stream().anyMatch(m -> m == null || m == ChangeModel.NONE)) {
                throw new IllegalArgumentException("models must be a non-empty list of ZIPF and PEAKED, was " + models);
            }
            models = List.copyOf(models);
            if (process == null) {
                throw new IllegalArgumentException("process must be POISSON or PERIODIC, was null");
            }
            if (maxInterval < 1 || maxInterval > WebSimConfig.MAX_CHANGE_INTERVAL) {
                throw new IllegalArgumentException("maxInterval must be in [1, " + WebSimConfig.MAX_CHANGE_INTERVAL
                        + "], was " + maxInterval);
            }
            if (!(budgetFraction > 0 && budgetFraction <= 1)) {
                throw new IllegalArgumentException("budgetFraction must be in (0, 1], was " + budgetFraction);
            }
            if (horizon < 1) {
                throw new IllegalArgumentException("horizon must be >= 1, was " + horizon);
            }
            if (warmup < 0 || warmup >= horizon) {
                throw new IllegalArgumentException("warmup must be in [0, horizon " + horizon + "), was " + warmup);
            }
            if (replanEvery < 1) {
                throw new IllegalArgumentException("replanEvery must be >= 1, was " + replanEvery);
            }
            if (minRevisit < 1) {
                throw new IllegalArgumentException("minRevisit must be >= 1, was " + minRevisit);
            }
            if (maxRevisit != 0 && maxRevisit < minRevisit) {
                throw new IllegalArgumentException("maxRevisit must be 0 (automatic) or >= minRevisit " + minRevisit
                        + ", was " + maxRevisit);
            }
            if (!(skipFactor > 0)) {
                throw new IllegalArgumentException("skipFactor must be > 0, was " + skipFactor);
            }
            if (curvePoints < 2) {
                throw new IllegalArgumentException("curvePoints must be >= 2, was " + curvePoints);
            }
        }

        /** Defaults: both models, Poisson, T = 9,600, 1% of pages per unit, 10,000 units (2,000 warm-up). */
        public static Options defaults(Path graph) {
            return new Options(graph, 0, List.of(ChangeModel.ZIPF, ChangeModel.PEAKED), Process.POISSON,
                    DEFAULT_MAX_INTERVAL, DEFAULT_BUDGET_FRACTION, DEFAULT_HORIZON, DEFAULT_WARMUP,
                    DEFAULT_REPLAN_EVERY, DEFAULT_MIN_REVISIT, 0, DEFAULT_SKIP_FACTOR, DEFAULT_SEED, DEFAULT_CURVE_POINTS, null);
        }
    }

    private FreshnessExperiment() {
    }

    /** Runs every model and policy; returns the JSON summary and writes the plots. */
    public static FreshnessResult run(Options o, PrintStream log) throws IOException {
        long t0 = System.nanoTime();
        int n;
        if (o.graph() != null) {
            LinkGraph graph = LinkGraph.load(o.graph());
            n = graph.numNodes();
            log.printf(Locale.ROOT, "loaded %s: %,d pages%n", o.graph(), n);
        } else {
            n = o.pages();
        }
        long budget = Math.max(1, Math.round(o.budgetFraction() * n));
        double uniformInterval = (double) n / budget;
        long maxRevisit = o.maxRevisit() != 0 ? o.maxRevisit()
                : Math.max(o.minRevisit(), (long) Math.ceil(10 * uniformInterval));
        Map<String, Double> freshAdaptive = new LinkedHashMap<>();
        Map<String, Double> freshUniform = new LinkedHashMap<>();
        Map<String, Map<String, Double>> freshEstimators = new LinkedHashMap<>();
        Map<String, FreshnessResult.Model> models = new LinkedHashMap<>();
        for (ChangeModel model : o.models()) {
            FreshnessPopulation pop = FreshnessPopulation.of(n, model, o);
            Map<Policy, FreshnessRun> runs = new EnumMap<>(Policy.class);
            for (Policy policy : Policy.values()) {
                long t1 = System.nanoTime();
                FreshnessRun r = new FreshnessRun(pop, policy, budget, maxRevisit, o).simulate();
                runs.put(policy, r);
                log.printf(Locale.ROOT, "%s %-12s freshness %.4f  age %.2f units  (%d ms)%n",
                        model.name().toLowerCase(Locale.ROOT), policy.key(), r.freshness(), r.age(),
                        (System.nanoTime() - t1) / 1_000_000);
            }
            // issue 21: the estimatedOptimal allocation driven by each estimator, side by side
            Map<String, FreshnessResult.EstimatorRun> byEstimator = new LinkedHashMap<>();
            Map<String, Double> freshByEstimator = new LinkedHashMap<>();
            for (ChangeRateEstimator.Kind kind : ChangeRateEstimator.Kind.values()) {
                long t1 = System.nanoTime();
                FreshnessRun r = new FreshnessRun(pop, Policy.ESTIMATED_OPTIMAL, budget, maxRevisit, o, kind)
                        .simulate();
                FreshnessResult.EstimatorRun e = r.estimatorSummary();
                byEstimator.put(EstimatorHistory.key(kind), e);
                freshByEstimator.put(EstimatorHistory.key(kind), e.freshness());
                FreshnessResult.LambdaError own = e.lambdaError().get(EstimatorHistory.key(kind));
                log.printf(Locale.ROOT, "%s estimator %-12s freshness %.4f  age %.2f units  λ error: mean |log2| %s,"
                                + " Σλ̂/Σλ %s, median λ̂/λ %s, λ̂ = 0 for %s pages  (%d ms)%n",
                        model.name().toLowerCase(Locale.ROOT), EstimatorHistory.key(kind), r.freshness(), r.age(),
                        own.meanAbsLog2Error(), own.sumEstimateOverSumTrue(), own.medianEstimateOverTrue(),
                        own.zeroEstimates(), (System.nanoTime() - t1) / 1_000_000);
            }
            FreshnessResult.Model m = modelSummary(pop, runs, uniformInterval, o, byEstimator);
            String name = model.name().toLowerCase(Locale.ROOT);
            freshEstimators.put(name, freshByEstimator);
            models.put(name, m);
            freshAdaptive.put(name, m.freshnessAdaptive());
            freshUniform.put(name, m.freshnessUniform());
            if (o.plotDir() != null) {
                plot(o.plotDir(), model, runs, o);
            }
        }
        return new FreshnessResult("freshness: uniform vs estimator-driven revisits under a fixed budget",
                o.graph() == null ? null : o.graph().toString(), n, o.process().name().toLowerCase(Locale.ROOT),
                o.maxInterval(), budget, o.budgetFraction(), uniformInterval, o.horizon(), o.warmup(),
                o.replanEvery(), o.minRevisit(), maxRevisit, o.seed(), freshAdaptive, freshUniform, freshEstimators,
                models, (System.nanoTime() - t0) / 1_000_000,
                new FreshnessResult.Machine(Runtime.getRuntime().availableProcessors(),
                        Runtime.getRuntime().maxMemory() >> 20, System.getProperty("java.version")));
    }

    private static FreshnessResult.Model modelSummary(FreshnessPopulation pop, Map<Policy, FreshnessRun> runs,
            double uniformInterval, Options o, Map<String, FreshnessResult.EstimatorRun> estimators) {
        FreshnessRun uniform = runs.get(Policy.UNIFORM);
        FreshnessRun adaptive = runs.get(Policy.ADAPTIVE);
        Map<String, FreshnessResult.PolicyRun> policies = new LinkedHashMap<>();
        for (FreshnessRun r : runs.values()) {
            policies.put(r.policy.key(), r.summary(uniformInterval));
        }
        Map<String, double[]> curves = new LinkedHashMap<>();
        curves.put("t", uniform.curveT);
        for (FreshnessRun r : runs.values()) {
            curves.put(r.policy.key() + "Freshness", roundAll(r.curveFresh));
        }
        for (FreshnessRun r : runs.values()) {
            curves.put(r.policy.key() + "Age", roundAll(r.curveAge));
        }
        return new FreshnessResult.Model(round(uniform.freshness()), round(adaptive.freshness()),
                round(runs.get(Policy.PROPORTIONAL).freshness()), round(runs.get(Policy.ESTIMATED_OPTIMAL).freshness()),
                round(runs.get(Policy.ORACLE).freshness()), round(uniform.age()), round(adaptive.age()),
                round(runs.get(Policy.PROPORTIONAL).age()), round(runs.get(Policy.ESTIMATED_OPTIMAL).age()),
                round(runs.get(Policy.ORACLE).age()), adaptive.freshness() > uniform.freshness(),
                o.process() == Process.POISSON ? round(pop.expectedUniformFreshness(uniformInterval)) : null,
                pop.intervalSummary(uniformInterval), policies, curves, estimators);
    }

    private static void plot(Path dir, ChangeModel model, Map<Policy, FreshnessRun> runs, Options o)
            throws IOException {
        Files.createDirectories(dir);
        String name = model.name().toLowerCase(Locale.ROOT);
        List<SvgChart.Series> fresh = new ArrayList<>();
        List<SvgChart.Series> age = new ArrayList<>();
        for (FreshnessRun r : runs.values()) {
            fresh.add(new SvgChart.Series(r.policy.key(), r.curveT, r.curveFresh, false));
            age.add(new SvgChart.Series(r.policy.key(), r.curveT, r.curveAge, false));
        }
        String process = o.process().name().toLowerCase(Locale.ROOT);
        SvgChart.write(dir.resolve("freshness-" + name + "-" + process + ".svg"),
                "Freshness over time, " + name + " intervals (T = " + o.maxInterval() + "), " + process + " changes",
                "time (units)", "fraction of pages fresh", fresh, false, false);
        SvgChart.write(dir.resolve("age-" + name + "-" + process + ".svg"),
                "Mean age over time, " + name + " intervals (T = " + o.maxInterval() + "), " + process + " changes",
                "time (units)", "mean age (units)", age, false, false);
    }

    static double round(double v) {
        return Math.round(v * 1e6) / 1e6;
    }

    private static double[] roundAll(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = round(v[i]);
        }
        return r;
    }
}
