package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.websim.GeneratedGraphSource;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.lab.report.SummaryGolden;
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
        SchedulerResult r = SchedulerExperiment.run(graph, ip, o, new PrintStream(logBytes, true));

        int reached = r.reachedPages();
        assertThat(reached).isGreaterThan(100);
        SchedulerResult.Run irl = r.exhaustive().irlbot();
        SchedulerResult.Run bfs = r.exhaustive().bfs();
        // exhaustive schedulers never drop: they crawl every reached page and collect all the PageRank
        for (SchedulerResult.Run m : List.of(irl, bfs)) {
            assertThat(m.dropped()).isZero();
            assertThat(m.pagesCrawled()).isEqualTo(reached);
            assertThat(m.prShare()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        }
        long irlPeak = irl.peakStored();

        for (List<SchedulerResult.Vary> exp : List.of(r.varyB(), r.varyH())) {
            for (SchedulerResult.Vary point : exp) {
                SchedulerResult.Run fifo = point.fifo();
                SchedulerResult.Run prio = point.priority();
                // the wheel never stores more than B*H/2; the priority front adds at most as much again
                assertThat(fifo.peakStored()).isLessThanOrEqualTo((long) point.b() * point.h() / 2);
                assertThat(prio.peakStored()).isLessThanOrEqualTo((long) point.b() * point.h());
                assertThat(fifo.pagesCrawled()).isLessThanOrEqualTo(reached);
                // a crawl either drops something or fetches everything
                if (fifo.dropped() == 0) {
                    assertThat(fifo.pagesCrawled()).isEqualTo(reached);
                }
            }
        }
        // more queues crawl more and collect more PageRank, for fifo at fixed H (exp. a; B = 2 starves the crawl)
        SchedulerResult.Run smallest = r.varyB().get(0).fifo();
        SchedulerResult.Run largest = r.varyB().get(r.varyB().size() - 1).fifo();
        assertThat(largest.prShare()).isGreaterThan(smallest.prShare());
        assertThat(largest.pagesCrawled()).isGreaterThan(smallest.pagesCrawled());

        // OPT's curve dominates every other curve at every sampled point
        SchedulerResult.Run opt = r.progress().get("OPT");
        double[] optX = opt.curvePagesCrawled();
        double[] optY = opt.curvePrShare();
        for (Map.Entry<String, SchedulerResult.Run> e : r.progress().entrySet()) {
            double[] xs = e.getValue().curvePagesCrawled();
            double[] ys = e.getValue().curvePrShare();
            for (int i = 0; i < xs.length; i++) {
                int crawled = (int) xs[i];
                double best = crawled == 0 ? 0 : optY[Math.min(optY.length - 1, indexAtOrAfter(optX, crawled))];
                assertThat(ys[i]).as("%s at %d pages", e.getKey(), crawled).isLessThanOrEqualTo(best + 1e-9);
            }
        }
        if (r.prShareAtTenthStorage() != null) {
            assertThat(r.prShareAtTenthStorage()).isBetween(0.0, 1.0);
        }
        assertThat(irlPeak).isPositive();
        for (String f : r.plots()) {
            assertThat(Files.readString(dir.resolve(f))).startsWith("<svg").contains("polyline");
        }
        assertThat(logBytes.toString()).contains("IRLbot-style");

        // the summary is the untyped maps' field for field (captured before the conversion); the blocks that were
        // Map.of (pagerank, priority, exhaustive, each B/H point) had a random field order, now fixed
        String after = io.github.kcrawler.common.serde.JsonSerde.MAPPER.writerWithDefaultPrettyPrinter()
                .writeValueAsString(r);
        String before = io.github.kcrawler.lab.report.SummaryGolden.before("scheduler.json");
        // the capture drew no figures
        SummaryGolden.assertSameFields("scheduler.json", before, after.replaceFirst(",\\s*\"plots\" : \\[[^]]*]", ""),
                java.util.Set.of(), path -> java.util.Set.of("/pagerank", "/priority", "/exhaustive").contains(path)
                        || path.matches("/vary[BH]/\\d+"));
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
