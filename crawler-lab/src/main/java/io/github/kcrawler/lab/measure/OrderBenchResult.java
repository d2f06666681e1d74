package io.github.kcrawler.lab.measure;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code bench order} measured: criterion B (paper 002) of the running pipeline's crawl order and of the
 * simulator's for the same strategy and seeds, at each 10 % of the reachable pages, written as its JSON summary in
 * this field order and read back from it for the plot ({@code OrderPlots}).
 *
 * @param seeds                    how many seed pages
 * @param population               pages reachable from the seeds
 * @param fetched                  of those, the pages the pipeline fetched
 * @param pipelineCriterionB       the pipeline's criterion B at 10 %, 20 %, … 100 %; null past the pages it fetched
 * @param simulatorCriterionB      the simulator's at the same points, under the pipeline's constraints: websim's web
 *                                 (the pages its robots.txt disallows are never discovered),
 *                                 {@code simulatorFeedbackDelay} pages handed out before a page's links reach the
 *                                 strategy, and politeness (after a page of one of websim's IPs, that IP waits
 *                                 {@code simulatorPoliteness} hand-outs of other pages); null past the pages it crawled
 * @param maxGap                   largest |pipeline − simulator| where both have a value
 * @param simulatorFeedbackDelay   the simulator's pages in flight ({@code --simulator-feedback-delay})
 * @param simulatorCrawled         pages of the population the simulator crawled
 * @param simulatorPoliteness      the simulator's politeness k ({@code --simulator-politeness}; by default the
 *                                 pipeline's pages/s × T, rounded), 0 = none
 * @param simulatorWithoutPolitenessCriterionB the simulator under the other two constraints only, as reported before
 *                                 the thirty-fifth session; left out when {@code simulatorPoliteness} is 0
 * @param maxGapWithoutPoliteness  largest |pipeline − that simulator|; null when it is left out
 * @param sequentialSimulatorCriterionB the simulator one page at a time over every reachable page (the figure of
 *                                 {@code simulate --experiment ordering}), at the same points
 * @param sequentialMaxGap         largest |pipeline − sequential simulator| where the pipeline has a value
 * @param linkLatencyPages         pages with a link latency ({@link LinkLatency}): fetched, with an in-link from a
 *                                 page fetched before them
 * @param linkLatencyP1Ms          the pipeline's link latency, 1st percentile: from the first fetch of a page linking
 *                                 to v to v's fetch, milliseconds (null without such pages)
 * @param linkLatencyP10Ms         its 10th percentile
 * @param linkLatencyP50Ms         its median
 */
public record OrderBenchResult(String bench, String graph, String strategy, int seeds, long politenessMs,
                               int partitions, int population, int fetched, int fetchedOutsidePopulation,
                               int[] checkpointsPercent, List<Double> pipelineCriterionB,
                               List<Double> simulatorCriterionB, double maxGap, int simulatorFeedbackDelay,
                               int simulatorCrawled, int simulatorPoliteness,
                               @JsonInclude(JsonInclude.Include.NON_NULL)
                               List<Double> simulatorWithoutPolitenessCriterionB, Double maxGapWithoutPoliteness,
                               double[] sequentialSimulatorCriterionB, double sequentialMaxGap,
                               int linkLatencyPages, Double linkLatencyP1Ms, Double linkLatencyP10Ms,
                               Double linkLatencyP50Ms, double pagesPerSecond,
                               long politenessViolations, long duplicateFetches, double elapsedSeconds) {
    /** The checkpoints every result is sampled at: 10 %, 20 %, … 100 % of the reachable pages. */
    public static final int[] CHECKPOINTS_PERCENT = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};

    /** NaN (no value) as null, for the JSON summary. */
    public static Double nullable(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** NaN (no value: the pipeline did not get that far) as null, for the JSON summary. */
    public static List<Double> nullable(double[] values) {
        List<Double> out = new ArrayList<>();
        for (double v : values) {
            out.add(Double.isNaN(v) ? null : v);
        }
        return out;
    }
}
