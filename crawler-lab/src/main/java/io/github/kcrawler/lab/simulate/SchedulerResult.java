package io.github.kcrawler.lab.simulate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * What paper 004's scheduler experiments measured ({@link SchedulerExperiment}), written as the JSON summary in this
 * field order: the seeds and the reached subgraph, the exhaustive schedulers (IRLbot-style and BFS), OPT (Figure 2),
 * the wheel at each number of queues B (experiment a) and of slots H (experiment b), the crawls' progress, and the
 * PageRank share the best wheel collects in a tenth of IRLbot's peak storage.
 *
 * @param graph                       the BVGraph basename; null (left out) for a graph in memory, as {@code layout}
 * @param progress                    each run's progress curves, by run name, in the order run
 * @param prShareAtTenthStorage       null when no wheel configuration stored ≤ 1/10 of IRLbot's peak
 * @param plots                       the figure files, when figures were drawn (null and left out otherwise)
 */
public record SchedulerResult(@JsonInclude(JsonInclude.Include.NON_NULL) String graph,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Layout layout, String experiment,
                              String paper, int graphPages, long graphArcs, int seedComponents, String seedRule,
                              int[] seedComponentSizes, int[] seeds, int reachedPages, long reachedArcs,
                              PageRankSettings pagerank, Priority priority, Exhaustive exhaustive, Run figure2,
                              List<Vary> varyB, List<Vary> varyH, Map<String, Run> progress,
                              Double prShareAtTenthStorage, String prShareAtTenthStorageConfig,
                              @JsonInclude(JsonInclude.Include.NON_NULL) List<String> plots) {

    /** This result with the graph it was loaded from and websim's layout over it (those fields come first). */
    public SchedulerResult withGraph(String name, Layout l) {
        return new SchedulerResult(name, l, experiment, paper, graphPages, graphArcs, seedComponents, seedRule,
                seedComponentSizes, seeds, reachedPages, reachedArcs, pagerank, priority, exhaustive, figure2, varyB,
                varyH, progress, prShareAtTenthStorage, prShareAtTenthStorageConfig, plots);
    }

    /** websim's hosts and IPs over the graph's pages. */
    public record Layout(String source, long seed, double meanPagesPerHost, int hosts, int ips, String ipKey) {
    }

    /** The reference PageRank's settings and convergence, and what it was computed on. */
    public record PageRankSettings(double damping, double tolerance, int iterations, String of) {
    }

    /** The priority front's score and sizing. */
    public record Priority(String score, String poolCapacity, double poolFraction, String feedPerStep) {
    }

    /** The two exhaustive schedulers, which never drop a URL. */
    public record Exhaustive(@JsonProperty("IRLbot") Run irlbot, @JsonProperty("BFS") Run bfs) {
    }

    /** One (B, H) point: the wheel with FIFO queues and with the priority front. */
    public record Vary(@JsonProperty("B") int b, @JsonProperty("H") int h, Run fifo, Run priority) {
    }

    /**
     * One scheduler run on the reached subgraph.
     *
     * @param wheelCapacity the wheel's capacity B·H/2 (wheel runs only; null and left out otherwise)
     * @param curvePagesCrawled the progress curves, when asked for (null and left out otherwise), as the other two
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Run(String name, int pagesCrawled, double pageShare, double prShare, long peakStored, long dropped,
                      long steps, Long wheelCapacity, double[] curvePagesCrawled, double[] curvePrShare,
                      double[] curveStored) {
    }
}
