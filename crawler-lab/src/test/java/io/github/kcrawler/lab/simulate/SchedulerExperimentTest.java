package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.websim.GeneratedGraphSource;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Paper 004's experiments on a small generated web: the properties the paper's figures rest on. */
class SchedulerExperimentTest {

    private static LinkGraph graphOf(GeneratedGraphSource g) {
        int[][] adj = new int[g.numPages()][];
        for (int p = 0; p < adj.length; p++) {
            adj[p] = g.outlinks(p);
        }
        return LinkGraph.of(adj);
    }

    @Test
    @SuppressWarnings("unchecked")
    void smallWeb_exhaustiveNeverDrops_wheelStaysBounded_optDominates(@TempDir Path dir) throws Exception {
        WebSimConfig config = WebSimConfig.builder().generate(6000).seed(3).meanPagesPerHost(15).ips(200).build();
        SiteLayout layout = SiteLayout.build(6000, config);
        LinkGraph graph = graphOf(GeneratedGraphSource.generate(layout));
        long[] ip = new long[graph.numNodes()];
        for (int p = 0; p < ip.length; p++) {
            ip[p] = SchedulerExperiment.ipv4(layout.ipIndexOfPage(p));
        }
        SchedulerExperiment.Options o = new SchedulerExperiment.Options(null, 4, 3, 15, 200, 16,
                new int[] {2, 4, 16, 64}, 16, new int[] {4, 16, 64}, new int[][] {{4, 8}, {16, 16}},
                SchedulerExperiment.Score.IPR, 1.0, 0.85, 50, dir);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        Map<String, Object> r = SchedulerExperiment.run(graph, ip, o, new PrintStream(logBytes, true));

        int reached = (int) r.get("reachedPages");
        assertThat(reached).isGreaterThan(100);
        Map<String, Object> exhaustive = (Map<String, Object>) r.get("exhaustive");
        Map<String, Object> irl = (Map<String, Object>) exhaustive.get("IRLbot");
        Map<String, Object> bfs = (Map<String, Object>) exhaustive.get("BFS");
        // exhaustive schedulers never drop: they crawl every reached page and collect all the PageRank
        for (Map<String, Object> m : List.of(irl, bfs)) {
            assertThat(m.get("dropped")).isEqualTo(0L);
            assertThat(m.get("pagesCrawled")).isEqualTo(reached);
            assertThat((double) m.get("prShare")).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        }
        long irlPeak = (long) irl.get("peakStored");

        for (String exp : List.of("varyB", "varyH")) {
            for (Map<String, Object> point : (List<Map<String, Object>>) r.get(exp)) {
                int b = (int) point.get("B");
                int h = (int) point.get("H");
                Map<String, Object> fifo = (Map<String, Object>) point.get("fifo");
                Map<String, Object> prio = (Map<String, Object>) point.get("priority");
                // the wheel never stores more than B*H/2; the priority front adds at most as much again
                assertThat((long) fifo.get("peakStored")).isLessThanOrEqualTo((long) b * h / 2);
                assertThat((long) prio.get("peakStored")).isLessThanOrEqualTo((long) b * h);
                assertThat((int) fifo.get("pagesCrawled")).isLessThanOrEqualTo(reached);
                // a crawl either drops something or fetches everything
                if ((long) fifo.get("dropped") == 0) {
                    assertThat(fifo.get("pagesCrawled")).isEqualTo(reached);
                }
            }
        }
        // more queues crawl more and collect more PageRank, for fifo at fixed H (exp. a; B = 2 starves the crawl)
        List<Map<String, Object>> varyB = (List<Map<String, Object>>) r.get("varyB");
        Map<String, Object> smallest = (Map<String, Object>) varyB.get(0).get("fifo");
        Map<String, Object> largest = (Map<String, Object>) varyB.get(varyB.size() - 1).get("fifo");
        assertThat((double) largest.get("prShare")).isGreaterThan((double) smallest.get("prShare"));
        assertThat((int) largest.get("pagesCrawled")).isGreaterThan((int) smallest.get("pagesCrawled"));

        // OPT's curve dominates every other curve at every sampled point
        Map<String, Object> progress = (Map<String, Object>) r.get("progress");
        Map<String, Object> opt = (Map<String, Object>) progress.get("OPT");
        double[] optX = (double[]) opt.get("curvePagesCrawled");
        double[] optY = (double[]) opt.get("curvePrShare");
        for (Map.Entry<String, Object> e : progress.entrySet()) {
            Map<String, Object> m = (Map<String, Object>) e.getValue();
            double[] xs = (double[]) m.get("curvePagesCrawled");
            double[] ys = (double[]) m.get("curvePrShare");
            for (int i = 0; i < xs.length; i++) {
                int crawled = (int) xs[i];
                double best = crawled == 0 ? 0 : optY[Math.min(optY.length - 1, indexAtOrAfter(optX, crawled))];
                assertThat(ys[i]).as("%s at %d pages", e.getKey(), crawled).isLessThanOrEqualTo(best + 1e-9);
            }
        }
        Object tenth = r.get("prShareAtTenthStorage");
        if (tenth != null) {
            assertThat((double) tenth).isBetween(0.0, 1.0);
        }
        assertThat(irlPeak).isPositive();
        for (String f : (List<String>) r.get("plots")) {
            assertThat(Files.readString(dir.resolve(f))).startsWith("<svg").contains("polyline");
        }
        assertThat(logBytes.toString()).contains("IRLbot-style");
    }

    /** OPT samples at multiples of the sample step; the first sample at or after {@code crawled} pages. */
    private static int indexAtOrAfter(double[] xs, int crawled) {
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] >= crawled) {
                return i;
            }
        }
        return xs.length - 1;
    }

    @Test
    void tarjan_findsComponentsOfAKnownGraph() {
        // 0 <-> 1 -> 2 <-> 3 <-> 4, 5 alone
        LinkGraph g = LinkGraph.of(new int[][] {{1}, {0, 2}, {3}, {2, 4}, {3}, {}});
        int[][] info = StronglyConnectedComponents.largestComponentSizes(g, 3);
        assertThat(info[0]).containsExactly(3, 2, 1);
        assertThat(info[1]).containsExactly(2, 0, 5);
    }

    @Test
    void main_rejectsBadSettingsWithExitCode2() {
        int code = new picocli.CommandLine(new SchedulerExperimentMain()).execute("--graph", "/nonexistent/g",
                "--progress", "64by64");
        assertThat(code).isEqualTo(2);
    }
}
