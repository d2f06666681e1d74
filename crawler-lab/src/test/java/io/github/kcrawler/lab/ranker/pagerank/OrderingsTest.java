package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IprParams;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The strategies' priority rules and the shared tie rules on small hand-made crawls. */
class OrderingsTest {

    /**
     * Crawls a graph given as adjacency lists from the seeds and returns the fetch order; a frontier ordering's heap
     * invariants are checked after every fetch.
     */
    static List<Integer> crawl(CrawlOrdering o, int[][] adjacency, int... seeds) {
        for (int s : seeds) {
            o.addSeed(s);
        }
        List<Integer> order = new ArrayList<>();
        int p;
        while ((p = o.next()) >= 0) {
            o.fetched(p, adjacency[p], 0, adjacency[p].length);
            if (o instanceof FrontierOrdering f) {
                f.checkFrontier();
            }
            order.add(p);
        }
        return order;
    }

    @Test
    void breadthFirst_offSiteLinksBeforeSameSiteLinksOfOnePage() {
        // hosts: 0,1,3 on host 0; 2 on host 1; 4 on host 2
        NodeLabels labels = NodeLabels.of(new int[] {0, 0, 1, 0, 2}, new int[5], new int[5]);
        int[][] g = {{1, 2, 3, 4}, {}, {}, {}, {}};
        assertThat(crawl(new BreadthFirst(labels), g, 0)).containsExactly(0, 2, 4, 1, 3);
    }

    @Test
    void breadthFirst_isFifoAcrossPages() {
        NodeLabels labels = NodeLabels.singleHost(6);
        int[][] g = {{1, 2}, {3, 0}, {4}, {5}, {}, {}};
        assertThat(crawl(new BreadthFirst(labels), g, 0)).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void backLinkCount_prefersMoreBacklinksThenFewerSlashesThenShorterUrl() {
        List<String> urls = List.of(
                "http://a.example/",            // 0 seed
                "http://a.example/x/y/z.html",  // 1: 1 backlink, 4 slashes
                "http://a.example/long-name",   // 2: 1 backlink, 3 slashes, longer
                "http://a.example/s",           // 3: 1 backlink, 3 slashes, shorter
                "http://a.example/p/q",         // 4: 2 backlinks (from 0 and 3)
                "http://a.example/leaf");       // 5
        NodeLabels labels = NodeLabels.ofUrls(urls);
        int[][] g = {{1, 2, 3, 4}, {}, {}, {4, 5}, {}, {}};
        // after 0: counts 1,1,1,1 -> 3 (3 slashes, shortest), then 4 has 2 backlinks, then 2 (3 slashes), then 1
        // 5 has 1 backlink and is /leaf: 3 slashes, length 21 vs 2's 26 -> 5 before 2
        assertThat(crawl(new BackLinkCount(labels), g, 0)).containsExactly(0, 3, 4, 5, 2, 1);
    }

    @Test
    void incrementalPageRank_fetchesHighestApproximateScoreFirst() {
        NodeLabels labels = NodeLabels.singleHost(6);
        // 0 -> 1,2; 1 -> 3; 2 -> 3,4: 3 reaches 0.5 + 0.75 before 4 gets 0.75
        int[][] g = {{1, 2}, {3}, {3, 4}, {}, {5}, {}};
        IncrementalPageRankOrdering ipr = new IncrementalPageRankOrdering(labels, IprParams.defaults(IprParams.CutOff.DL1));
        assertThat(crawl(ipr, g, 0)).containsExactly(0, 1, 3, 2, 4, 5);
        assertThat(ipr.name()).isEqualTo("IPR-DL1");
        // 3: 1.5 from 1 (s1 = 1.5), + 1 when fetched, + 0.75 from 2 afterwards; 4: 0.75 from 2, + 1 when fetched
        assertThat(ipr.rank().score(3)).isEqualTo(3.25);
        assertThat(ipr.rank().score(4)).isEqualTo(1.75);
    }

    @Test
    void opic_movesCashToOutlinksAndKeepsItsTotalWithoutDanglingPages() {
        NodeLabels labels = NodeLabels.singleHost(4);
        int[][] g = {{1, 2}, {2, 3}, {0}, {0, 1}};
        Opic opic = new Opic(labels);
        opic.addSeed(0);
        int p;
        while ((p = opic.next()) >= 0) {
            opic.fetched(p, g[p], 0, g[p].length);
            double cash = 0;
            for (int v = 0; v < 4; v++) {
                cash += opic.cash(v);
            }
            assertThat(cash).isCloseTo(1.0, within(1e-12)); // no dangling page: cash is only moved
            assertThat(opic.cash(p)).as("a fetched page spends its cash").isZero();
        }
        // 0 spends 1 (0.5 each to 1 and 2); 1 goes first on the tie (discovered first), then 2 (0.75), then 3
        assertThat(opic.history(0)).isEqualTo(1.0);
        assertThat(opic.history(1)).isEqualTo(0.5);
        assertThat(opic.history(2)).isEqualTo(0.75); // 0.5 from 0 + 0.25 from 1
    }

    @Test
    void opic_seedsShareOneUnit() {
        Opic opic = new Opic(NodeLabels.singleHost(3));
        opic.addSeed(0);
        opic.addSeed(2);
        assertThat(opic.cash(0)).isEqualTo(0.5);
        assertThat(opic.cash(2)).isEqualTo(0.5);
    }

    @Test
    void batchPageRank_recomputesEveryKFetchesAndReordersTheFrontier() {
        NodeLabels labels = NodeLabels.singleHost(7);
        // 0 -> 1,2,4; 1 -> 3; 2 -> 3: after three fetches 3 has more PageRank than 4 (BF would take 4 first)
        int[][] g = {{1, 2, 4}, {3}, {3}, {}, {5}, {6}, {}};
        BatchPageRank pr = new BatchPageRank(labels, 3, 0.85);
        List<Integer> order = crawl(pr, g, 0);
        assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6);
        assertThat(order.subList(0, 4)).containsExactly(0, 1, 2, 3); // 3 overtakes 4 after the recomputation at 3
        assertThat(pr.recomputations()).isEqualTo(7 / 3);
        assertThatThrownBy(() -> new BatchPageRank(labels, 0, 0.85)).hasMessageContaining("recomputeEvery");
    }

    @Test
    void fetchedRejectsPagesNotHandedOutAndBadLinks() {
        BreadthFirst bf = new BreadthFirst(NodeLabels.singleHost(3));
        bf.addSeed(0);
        assertThatThrownBy(() -> bf.fetched(1, new int[0], 0, 0)).hasMessageContaining("not handed out");
        int p = bf.next();
        assertThatThrownBy(() -> bf.fetched(p, new int[] {7}, 0, 1)).hasMessageContaining("7");
        bf.fetched(p, new int[] {1}, 0, 1);
        assertThatThrownBy(() -> bf.fetched(p, new int[] {1}, 0, 1)).hasMessageContaining("already reported");
        assertThatThrownBy(() -> bf.addSeed(-2)).hasMessageContaining("-2");
        assertThat(bf.frontierSize()).isEqualTo(1);
    }

    @Test
    void factoryKnowsEveryName() {
        NodeLabels labels = NodeLabels.singleHost(2);
        for (String name : Strategies.ALL) {
            assertThat(Strategies.create(name, labels, IprParams.defaults(IprParams.CutOff.DL1), 10, 0.85).name())
                    .isEqualTo(name);
        }
        assertThatThrownBy(() -> Strategies.create("DFS", labels, IprParams.defaults(IprParams.CutOff.DL1), 1, 0.85))
                .hasMessageContaining("DFS");
    }
}
