package io.github.kcrawler.lab.dedup.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The crawl stream: BFS order, one test per link occurrence, exact ground truth, restarts when exhaustive. */
class BreadthFirstCrawlTest {
    // 0 -> 1, 2; 1 -> 2, 0; 2 -> 2; 3 -> 4 (unreachable from 0); 4 -> (none)
    private static final LinkGraph GRAPH = LinkGraph.csr("tiny", new int[] {0, 2, 4, 5, 6, 6},
            new int[] {1, 2, 2, 0, 2, 4});

    @Test
    void emitsEveryLinkOccurrence_inBreadthFirstOrder_withGroundTruth() {
        List<String> tests = new ArrayList<>();
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(GRAPH, 0, false,
                (node, seen) -> tests.add(node + (seen ? "s" : "n")));
        assertThat(tests).containsExactly("0n", "1n", "2n", "2s", "0s", "2s");
        assertThat(stats.tests()).isEqualTo(6);
        assertThat(stats.distinct()).isEqualTo(3);
        assertThat(stats.maxHitRate()).isEqualTo(0.5);
    }

    @Test
    void exhaustive_restartsFromTheLowestUndiscoveredNode() {
        List<String> tests = new ArrayList<>();
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(GRAPH, 0, true,
                (node, seen) -> tests.add(node + (seen ? "s" : "n")));
        assertThat(tests).containsExactly("0n", "1n", "2n", "2s", "0s", "2s", "3n", "4n");
        assertThat(stats.seeds()).isEqualTo(2);
        assertThat(stats.distinct()).isEqualTo(5);
    }

    @Test
    void badSeed_isRejected() {
        assertThatThrownBy(() -> BreadthFirstCrawl.run(GRAPH, 5, true, (n, s) -> { }))
                .hasMessageContaining("was 5");
    }

    @Test
    void csr_rejectsLinksOutsideTheGraph() {
        assertThatThrownBy(() -> LinkGraph.csr("bad", new int[] {0, 1}, new int[] {3}))
                .hasMessageContaining("link target 3");
    }
}
