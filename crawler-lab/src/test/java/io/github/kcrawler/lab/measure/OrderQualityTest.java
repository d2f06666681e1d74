package io.github.kcrawler.lab.measure;

import io.github.kcrawler.lab.ranker.pagerank.BreadthFirst;
import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.simulate.CrawlSimulator;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderQualityTest {

    /** A random graph of 400 pages where every page is reachable from page 0 (a path 0→1→…→399 plus random links). */
    private static LinkGraph graph(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 400;
        int[][] adj = new int[n][];
        for (int v = 0; v < n; v++) {
            int extra = r.nextInt(6);
            adj[v] = new int[(v + 1 < n ? 1 : 0) + extra];
            int k = 0;
            if (v + 1 < n) {
                adj[v][k++] = v + 1;
            }
            for (int i = 0; i < extra; i++) {
                adj[v][k++] = r.nextInt(n);
            }
        }
        return LinkGraph.of(adj);
    }

    @Test
    void theSimulatorsOwnOrderHasNoGap_andAShortCrawlReportsOnlyThePointsItReached() {
        LinkGraph g = graph(7);
        int[] seeds = {0};
        int[] simulated = CrawlSimulator.crawl(new BreadthFirst(io.github.kcrawler.lab.ranker.pagerank.NodeLabels.singleHost(400)), g, seeds);
        OrderQuality.Comparison same = OrderQuality.compare(g, seeds, simulated, simulated, simulated,
                PageRank.DEFAULT_DAMPING);
        assertThat(same.pipeline()).containsExactly(same.simulator());
        assertThat(same.sequential()).containsExactly(same.simulator());
        assertThat(same.maxGap()).isZero();
        assertThat(same.sequentialMaxGap()).isZero();
        assertThat(same.simulator()[9]).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(same.population()).isEqualTo(400);
        assertThat(same.simulatorCrawled()).isEqualTo(400);
        assertThat(same.simulatorWithoutPoliteness()).isNull();
        assertThat(same.maxGapWithoutPoliteness()).isNaN();

        // a second modelled order is evaluated as the first: here the half crawl, so NaN past 50 %
        int[] half = java.util.Arrays.copyOf(simulated, 200);
        OrderQuality.Comparison both = OrderQuality.compare(g, seeds, simulated, half, simulated, simulated,
                PageRank.DEFAULT_DAMPING);
        assertThat(both.simulator()).containsExactly(same.simulator());
        OrderQuality.Comparison halfAsModel = OrderQuality.compare(g, seeds, half, simulated, simulated,
                PageRank.DEFAULT_DAMPING);
        assertThat(both.simulatorWithoutPoliteness()).containsExactly(halfAsModel.simulator());
        assertThat(both.maxGapWithoutPoliteness()).isEqualTo(halfAsModel.maxGap());

        OrderQuality.Comparison shortCrawl = OrderQuality.compare(g, seeds, half, simulated, half,
                PageRank.DEFAULT_DAMPING);
        assertThat(shortCrawl.fetchedInPopulation()).isEqualTo(200);
        assertThat(shortCrawl.simulatorCrawled()).isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            assertThat(shortCrawl.pipeline()[i]).isEqualTo(same.pipeline()[i]);
            assertThat(shortCrawl.simulator()[i]).isEqualTo(same.simulator()[i]);
        }
        for (int i = 5; i < 10; i++) {
            assertThat(shortCrawl.pipeline()[i]).isNaN();
            assertThat(shortCrawl.simulator()[i]).isNaN();
        }
        assertThat(shortCrawl.sequential()).containsExactly(same.sequential());
        assertThat(shortCrawl.maxGap()).isZero();
        assertThat(shortCrawl.sequentialMaxGap()).isZero();
        assertThatThrownBy(() -> OrderQuality.compare(g, seeds, simulated, half, simulated, PageRank.DEFAULT_DAMPING))
                .hasMessageContaining("sequential order holds 200 pages");
    }

    @Test
    void aCrawlOfTheGraphWithoutLinksIntoDisallowedPages_neverReachesThem_andOnlyThosePointsAreLeftOut() {
        LinkGraph g = graph(5);
        int[] seeds = {0};
        java.util.BitSet disallowed = new java.util.BitSet();
        for (int p = 350; p < 400; p++) {
            disallowed.set(p);
        }
        LinkGraph allowed = g.withoutLinksInto(disallowed);
        assertThat(allowed.numNodes()).isEqualTo(g.numNodes());
        for (int v = 0; v < g.numNodes(); v++) {
            for (int k = allowed.offsets()[v]; k < allowed.offsets()[v + 1]; k++) {
                assertThat(disallowed.get(allowed.targets()[k])).isFalse();
            }
            long kept = java.util.stream.IntStream.range(g.offsets()[v], g.offsets()[v + 1])
                    .filter(k -> !disallowed.get(g.targets()[k])).count();
            assertThat(allowed.outdegree(v)).isEqualTo((int) kept);
        }
        var labels = io.github.kcrawler.lab.ranker.pagerank.NodeLabels.singleHost(400);
        int[] sequential = CrawlSimulator.crawl(new BreadthFirst(labels), g, seeds);
        int[] modelled = CrawlSimulator.crawl(new BreadthFirst(labels), allowed, seeds, 5);
        assertThat(modelled).hasSize(350);
        assertThat(java.util.Arrays.stream(modelled).filter(disallowed::get).count()).isZero();
        OrderQuality.Comparison c = OrderQuality.compare(g, seeds, modelled, sequential, sequential,
                PageRank.DEFAULT_DAMPING);
        assertThat(c.simulatorCrawled()).isEqualTo(350);
        for (int i = 0; i < 8; i++) {
            assertThat(c.simulator()[i]).as("point %d", i).isNotNaN();
        }
        assertThat(c.simulator()[8]).as("90 %% of 400 is past the 350 pages crawled").isNaN();
        assertThat(c.simulator()[9]).isNaN();
        assertThat(c.sequentialMaxGap()).isZero();
    }

    @Test
    void aWorseOrderCollectsLess_andPagesOutsideThePopulationAreCountedApart() {
        LinkGraph g = graph(11);
        int[] seeds = {0};
        int[] simulated = CrawlSimulator.crawl(new BreadthFirst(io.github.kcrawler.lab.ranker.pagerank.NodeLabels.singleHost(400)), g, seeds);
        // ascending true PageRank: the worst order there is
        double[] pr = PageRank.compute(g.offsets(), g.targets()).scores();
        Integer[] byRank = new Integer[pr.length];
        for (int i = 0; i < pr.length; i++) {
            byRank[i] = i;
        }
        java.util.Arrays.sort(byRank, (a, b) -> Double.compare(pr[a], pr[b]));
        int[] worst = new int[pr.length + 1];
        for (int i = 0; i < pr.length; i++) {
            worst[i] = byRank[i];
        }
        worst[pr.length] = 10_000; // not a page of the graph
        OrderQuality.Comparison c = OrderQuality.compare(g, seeds, simulated, simulated, worst,
                PageRank.DEFAULT_DAMPING);
        assertThat(c.fetchedOutside()).isEqualTo(1);
        for (int i = 0; i < 9; i++) {
            assertThat(c.pipeline()[i]).isLessThanOrEqualTo(c.simulator()[i]);
        }
        assertThat(c.pipeline()[0]).isLessThan(c.simulator()[0]);
        assertThat(c.maxGap()).isPositive();
    }

    @Test
    void fetchOrder_takesEachPageOnceAtItsFirstPageRequest_inTheServersTimeOrder(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("websim-access.tsv");
        Files.writeString(log, String.join("\n",
                "at_ms\tip\thost\tmethod\tpath\tstatus\tkind\tpage",
                "10.500\t127.1.0.1\th0.websim.test\tGET\t/robots.txt\t200\tROBOTS\t-1",
                "12.000\t127.1.0.1\th0.websim.test\tGET\t/p/5\t200\tPAGE\t5",
                "11.250\t127.1.0.2\th1.websim.test\tGET\t/p/9\t200\tPAGE\t9",
                "13.000\t127.1.0.1\th0.websim.test\tGET\t/p/5\t200\tPAGE\t5",
                "13.000\t127.1.0.3\th2.websim.test\tGET\t/p/2\t200\tPAGE\t2",
                "14.000\t127.2.0.1\ttrap.websim.test\tGET\t/x\t200\tHOSTILE\t-1", ""));
        assertThat(FetchOrder.read(log)).containsExactly(9, 5, 2);
        FetchOrder.Timed timed = FetchOrder.readTimed(log); // each first fetch with the server's time
        assertThat(timed.order()).containsExactly(9, 5, 2);
        assertThat(timed.atMs()).containsExactly(11.25, 12.0, 13.0);

        Path notALog = dir.resolve("other.tsv");
        Files.writeString(notALog, "a\tb\n");
        assertThatThrownBy(() -> FetchOrder.read(notALog)).hasMessageContaining("not a websim access log");
    }
}
