package io.github.kcrawler.lab.dedup.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The generated graph: deterministic, consistent, links in range, mean degree near the requested one. */
class SyntheticWebGraphTest {
    @Test
    void sameSeed_sameLinks_andOutlinksAgreeWithOutdegree() {
        SyntheticWebGraph a = SyntheticWebGraph.generate(100_000, 40, 10, 7);
        SyntheticWebGraph b = SyntheticWebGraph.generate(100_000, 40, 10, 7);
        long links = 0;
        int[] buf = new int[4];
        for (int p = 0; p < a.numNodes(); p += 7) {
            int d = a.outdegree(p);
            assertThat(b.outdegree(p)).isEqualTo(d);
            buf = a.outlinks(p, buf);
            int[] other = b.outlinks(p, new int[1]);
            for (int i = 0; i < d; i++) {
                assertThat(buf[i]).isBetween(0, a.numNodes() - 1).isEqualTo(other[i]);
                assertThat(a.outlink(p, i)).isEqualTo(buf[i]);
            }
            links += d;
        }
        double mean = links / (a.numNodes() / 7.0);
        assertThat(mean).isBetween(7.0, 11.0);
        assertThat(a.numHosts()).isBetween(1000, 20_000);
    }

    @Test
    void crawlCoversTheGraph_withRepeatsToCache() {
        SyntheticWebGraph g = SyntheticWebGraph.generate(50_000, 40, 10, 3);
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(g, 0, true, (n, s) -> { });
        assertThat(stats.distinct()).isEqualTo(50_000);
        assertThat(stats.maxHitRate()).isBetween(0.8, 0.95);
    }

    @Test
    void badParameters_areRejectedByName() {
        assertThatThrownBy(() -> SyntheticWebGraph.generate(10, 40, 10, 1)).hasMessageContaining("pages");
        assertThatThrownBy(() -> SyntheticWebGraph.generate(10_000, 1, 10, 1)).hasMessageContaining("meanHostSize");
        assertThatThrownBy(() -> SyntheticWebGraph.generate(10_000, 40, 0.5, 1)).hasMessageContaining("meanOutdegree");
    }
}
