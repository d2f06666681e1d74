package io.github.kcrawler.lab.simulate;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/**
 * What {@code simulate --experiment freshness} measured ({@link FreshnessExperiment}), written as its JSON summary
 * in this field order. Maps are keyed by data, in the order run: change model names ({@code zipf}, {@code peaked}),
 * policy keys ({@link FreshnessExperiment.Policy}) and estimator keys ({@link FreshnessRun#key}). Values are rounded
 * to 10^-6 where the summary always rounded them.
 *
 * @param graph                 the BVGraph whose page count was used, or null for {@code pages}
 * @param budgetPerUnit         fetches per time unit, the same for every policy
 * @param uniformInterval       pages / budget: the uniform policy's revisit interval
 * @param freshnessAdaptive     per change model, the adaptive policy's time-averaged freshness
 * @param freshnessUniform      per change model, the uniform policy's
 * @param freshnessByEstimator  per change model, the estimatedOptimal allocation's freshness driven by each estimator
 * @param wallMs                the experiment's wall time (a timing)
 */
public record FreshnessResult(String experiment, String graph, int pages, String process, int maxIntervalT,
                              long budgetPerUnit, double budgetFraction, double uniformInterval, long horizon,
                              long warmup, long replanEvery, long minRevisit, long maxRevisit, long seed,
                              Map<String, Double> freshnessAdaptive, Map<String, Double> freshnessUniform,
                              Map<String, Map<String, Double>> freshnessByEstimator, Map<String, Model> models,
                              long wallMs, Machine machine) {

    /**
     * One change model's runs: freshness and age of each policy, the theory's uniform freshness (Poisson changes
     * only; null otherwise and left out), the population's intervals, each policy's and each estimator's run, and the
     * curves over time ({@code t}, then {@code <policy>Freshness} and {@code <policy>Age} for every policy).
     */
    public record Model(double freshnessUniform, double freshnessAdaptive, double freshnessProportional,
                        double freshnessEstimatedOptimal, double freshnessOracle, double ageUniform,
                        double ageAdaptive, double ageProportional, double ageEstimatedOptimal, double ageOracle,
                        boolean adaptiveBeatsUniform,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double freshnessUniformExpected,
                        Intervals intervalsOfPages, Map<String, PolicyRun> policies, Map<String, double[]> curves,
                        Map<String, EstimatorRun> estimators) {
    }

    /** The population's change intervals against the uniform revisit interval. */
    public record Intervals(double shareChangingFasterThanUniformRevisit, double shareWithIntervalOne,
                            double meanChangesPerPagePerUnit) {
    }

    /**
     * One policy's run.
     *
     * @param pagesGivenUpOn pages the allocation gave the floor rate (adaptive, estimatedOptimal, oracle; null
     *                       otherwise and left out)
     * @param estimates      λ̂/λ by class of true interval (the policies that replan; null otherwise and left out)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PolicyRun(double freshness, double age, long fetches, long budgetPerUnit, long maxFetchesInAUnit,
                            long replans, Long pagesGivenUpOn, Estimates estimates, double revisitIntervalP10,
                            double revisitIntervalMedian, double revisitIntervalP90) {
    }

    /** λ̂/λ for pages changing fast (&lt; J/4), medium and slow (≥ 4J), J the uniform interval. */
    public record Estimates(EstimateClass fast, EstimateClass medium, EstimateClass slow) {
    }

    /** One class of pages: how many were revisited, and (when any) the estimates' ratios and the visits. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EstimateClass(int pages, Double sumEstimateOverSumTrue, Double medianEstimateOverTrue,
                                Double meanVisits) {
    }

    /**
     * The estimatedOptimal allocation driven by one estimator (issue 21), and every estimator's λ error on this
     * run's histories, keyed by estimator.
     */
    public record EstimatorRun(String estimator, double freshness, double age, long fetches, long pagesGivenUpOn,
                               Map<String, LambdaError> lambdaError) {
    }

    /**
     * One estimator's λ̂ against the true λ over the pages revisited at least once; the ratios are left out (null)
     * when there were none.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LambdaError(int pages, Double sumEstimateOverSumTrue, Double medianEstimateOverTrue,
                              Double meanAbsLog2Error, Long zeroEstimates) {
    }

    /** The machine the simulation ran on. */
    public record Machine(int availableProcessors, long maxHeapMiB, String java) {
    }
}
