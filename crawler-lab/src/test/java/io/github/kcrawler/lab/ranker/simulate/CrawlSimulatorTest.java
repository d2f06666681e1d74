package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NodeLabels;
import io.github.kcrawler.lab.ranker.pagerank.Strategies;
import io.github.kcrawler.ranker.pagerank.IprParams;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.BitSet;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The simulator's delayed feedback ("pages in flight"): exactly once whatever the delay, and the delay's effect. */
class CrawlSimulatorTest {

    private static final IprParams IPR = new IprParams(IprParams.CutOff.DL1, 3, 1.5, 29.0 / 30);

    @Test
    void everyReachablePageOnceWhateverTheDelayAndDelayZeroIsThePlainCrawl() {
        forAll(60, g -> {
            int n = g.intIn(1, 50);
            int[][] adjacency = new int[n][];
            for (int i = 0; i < n; i++) {
                adjacency[i] = Arrays.stream(g.ints(0, 6, 0, n - 1)).distinct().toArray();
            }
            LinkGraph graph = LinkGraph.of(adjacency);
            int[] seeds = g.ints(1, 3, 0, n - 1);
            int[] hosts = g.ints(n, n, 0, 4);
            NodeLabels labels = NodeLabels.of(hosts, new int[n], new int[n]);
            int delay = g.intIn(0, 12);
            int k = g.intIn(0, 5);
            BitSet reachable = graph.reachableFrom(seeds);
            for (String name : Strategies.ALL) {
                int[] order = CrawlSimulator.crawl(create(name, labels, k), graph, seeds, delay);
                BitSet seen = new BitSet(n);
                for (int p : order) {
                    assertThat(seen.get(p)).as(name + " fetches " + p + " twice").isFalse();
                    seen.set(p);
                }
                assertThat(seen).as(name + " delay " + delay).isEqualTo(reachable);
                assertThat(CrawlSimulator.crawl(create(name, labels, k), graph, seeds, 0))
                        .containsExactly(CrawlSimulator.crawl(create(name, labels, k), graph, seeds));
            }
        });
    }

    @Test
    void aDelayedPagesLinksCountOnlyWhenTheyArrive() {
        // 0 -> 1, 2, 3; 1 -> 3. Back-link count: once 1 is fetched, 3 has two in-links and goes before 2; with one
        // page in flight, 2 is chosen before 1's links arrive.
        LinkGraph graph = LinkGraph.of(new int[][] {{1, 2, 3}, {3}, {}, {}});
        NodeLabels labels = NodeLabels.singleHost(4);
        assertThat(CrawlSimulator.crawl(create("BLC", labels, 0), graph, new int[] {0}, 0))
                .containsExactly(0, 1, 3, 2);
        assertThat(CrawlSimulator.crawl(create("BLC", labels, 0), graph, new int[] {0}, 1))
                .containsExactly(0, 1, 2, 3);
        assertThatThrownBy(() -> CrawlSimulator.crawl(create("BF", labels, 0), graph, new int[] {0}, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static CrawlOrdering create(String name, NodeLabels labels, int k) {
        return Strategies.create(name, labels, IPR, 2, 0.85, k);
    }
}
