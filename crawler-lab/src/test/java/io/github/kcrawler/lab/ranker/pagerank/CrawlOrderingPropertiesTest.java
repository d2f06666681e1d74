package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the graph (cycles, self-loops, duplicate links, dangling pages, several seeds) every strategy fetches
 * every node reachable from the seeds exactly once and nothing else, and its frontier heap stays consistent.
 */
class CrawlOrderingPropertiesTest {

    record Case(int[][] adjacency, int[] hosts, int[] seeds, int recomputeEvery) {
    }

    @Test
    void everyStrategyVisitsEveryReachableNodeExactlyOnce() {
        forAll(150, g -> everyStrategyVisitsEveryReachableNodeExactlyOnce(cases(g)));
    }

    void everyStrategyVisitsEveryReachableNodeExactlyOnce(Case c) {
        int n = c.adjacency().length;
        BitSet reachable = reachable(c.adjacency(), c.seeds());
        NodeLabels labels = NodeLabels.of(c.hosts(), new int[n], slashFreeLengths(n));
        for (String name : Strategies.ALL) {
            CrawlOrdering o = Strategies.create(name, labels,
                    new IprParams(IprParams.CutOff.DL1, 3, 1.5, 29.0 / 30), c.recomputeEvery(), 0.85);
            for (int s : c.seeds()) {
                o.addSeed(s);
            }
            BitSet visited = new BitSet(n);
            int count = 0;
            int p;
            while ((p = o.next()) >= 0) {
                assertThat(visited.get(p)).as(name + " visits " + p + " twice").isFalse();
                visited.set(p);
                count++;
                o.fetched(p, c.adjacency()[p], 0, c.adjacency()[p].length);
                ((FrontierOrdering) o).checkFrontier();
            }
            assertThat(visited).as(name).isEqualTo(reachable);
            assertThat(count).as(name).isEqualTo(reachable.cardinality());
            assertThat(o.frontierSize()).isZero();
        }
    }

    private static int[] slashFreeLengths(int n) {
        int[] len = new int[n];
        for (int i = 0; i < n; i++) {
            len[i] = 20 + Integer.toString(i).length();
        }
        return len;
    }

    /** The nodes reachable from {@code seeds} (also used by PoliteOrderingTest). */
    static BitSet reachable(int[][] g, int[] seeds) {
        BitSet seen = new BitSet(g.length);
        Deque<Integer> queue = new ArrayDeque<>();
        for (int s : seeds) {
            if (!seen.get(s)) {
                seen.set(s);
                queue.add(s);
            }
        }
        while (!queue.isEmpty()) {
            for (int t : g[queue.poll()]) {
                if (!seen.get(t)) {
                    seen.set(t);
                    queue.add(t);
                }
            }
        }
        return seen;
    }

    /** 1 to 60 nodes, up to 8 links each (self-loops and duplicates allowed), hosts 0..4, 1 to 3 seeds. */
    static Case cases(Gen g) {
        int n = g.intIn(1, 60);
        int[][] adjacency = new int[n][];
        for (int i = 0; i < n; i++) {
            adjacency[i] = g.ints(0, 8, 0, n - 1);
        }
        int[] hosts = g.ints(n, n, 0, 4);
        int[] seeds = g.ints(1, 3, 0, n - 1);
        return new Case(adjacency, hosts, seeds, g.intIn(1, 6));
    }
}
