package io.github.kcrawler.lab.ranker.simulate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.List;
import java.util.Map;

/**
 * What the crawl-ordering experiment of paper 002 measured ({@link OrderingExperiment}), written as its JSON summary
 * in this field order. Maps are keyed by data, in the order run: strategy names ({@code BF}, {@code PR},
 * {@code IPR-DL1}, …) and the criterion-A top-set labels ({@link Criteria#TOP_LABELS}). Criteria are sampled at
 * 10 %, 20 %, … 100 % of the pages crawled ({@code checkpointsPercent}); {@code curves} holds every 1 %.
 *
 * @param graph                        the graph's name (a BVGraph basename, or the synthetic graph's description);
 *                                     null (left out) when the experiment was run on a graph in memory
 * @param priorityPagesPerSecond       the fastest of the timed crawls per strategy (priority determination speed)
 * @param priorityPagesPerSecondMedian their median
 * @param work                         per incremental strategy its receipts per page crawled, per recomputing one
 *                                     its recomputations
 * @param politeness                   k of the politeness model every strategy ran under (0 = none, left out)
 * @param feedbackDelay                pages in flight every strategy ran with (0 = none, left out)
 * @param plots                        the figure files, when figures were drawn (null and left out otherwise)
 */
public record OrderingResult(@JsonInclude(JsonInclude.Include.NON_NULL) String graph, String experiment, int nodes,
                             long arcs, int[] seeds, String seedRule, int pagesCrawled, int hosts, Layout layout,
                             PageRankFigures pagerank, double criterionCParameter, IprParameters iprParameters,
                             int prRecomputeEvery, int[] checkpointsPercent, Map<String, Integer> topSetSizes,
                             Map<String, Map<String, double[]>> criterionA, Map<String, double[]> criterionB,
                             Map<String, double[]> criterionC, Map<String, Double> priorityPagesPerSecond,
                             Map<String, Double> priorityPagesPerSecondMedian, int timingRepeats,
                             Map<String, Work> work, GoalB goalB, String defaultStrategy,
                             Map<String, Map<String, double[]>> curves,
                             @JsonInclude(JsonInclude.Include.NON_DEFAULT) int politeness,
                             @JsonInclude(JsonInclude.Include.NON_DEFAULT) int feedbackDelay,
                             @JsonInclude(JsonInclude.Include.NON_NULL) List<String> plots) {

    /** This result named after its graph (the graph's field comes first in the summary). */
    public OrderingResult withGraph(String name) {
        return new OrderingResult(name, experiment, nodes, arcs, seeds, seedRule, pagesCrawled, hosts, layout,
                pagerank, criterionCParameter, iprParameters, prRecomputeEvery, checkpointsPercent, topSetSizes,
                criterionA, criterionB, criterionC, priorityPagesPerSecond, priorityPagesPerSecondMedian,
                timingRepeats, work, goalB, defaultStrategy, curves, politeness, feedbackDelay, plots);
    }

    /** websim's host layout over the graph's pages. */
    public record Layout(long seed, double meanPagesPerHost) {
    }

    /** The reference PageRank of the whole graph: its settings and convergence, and the crawled pages' share. */
    public record PageRankFigures(double damping, double tolerance, int iterations, double lastL1Change,
                                  double crawledShareOfTotal) {
    }

    /** IPR's cut-off parameters (paper 002, §3). */
    public record IprParameters(int pageLimit, double valueRatio, double accumulatedRatio) {
    }

    /**
     * A strategy's work: receipts per page crawled (incremental PageRank), or its recomputations (recomputed
     * PageRank). Written as the bare number or as the object.
     */
    public record Work(Double receiptsPerPage, Recomputations recomputations) {
        @JsonValue
        Object json() {
            return receiptsPerPage != null ? receiptsPerPage : recomputations;
        }
    }

    /** How often a recomputing strategy recomputed PageRank: every {@code recomputeEvery} pages. */
    public record Recomputations(int recomputations, int recomputeEvery) {
    }

    /**
     * Goal B of the issue: at each 10 % point, the best IPR variant against the best baseline on criterion B. With no
     * IPR variant or no baseline in the run, {@code evaluated} is false and nothing else is written; otherwise
     * {@code evaluated} is left out.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GoalB(Boolean evaluated, Boolean metAtEveryPoint, List<String> variantsAtOrAboveEveryBaselineEverywhere,
                        List<GoalPoint> points) {
    }

    /** One 10 % point of goal B. */
    public record GoalPoint(int percent, String bestIpr, double bestIprValue, String bestBaseline,
                            double bestBaselineValue, boolean met) {
    }
}
