package io.github.kcrawler.ranker.pagerank;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the graph (cycles, self-loops, duplicate links, dangling pages, several seeds) every strategy fetches
 * every node reachable from the seeds exactly once and nothing else, and its frontier heap stays consistent.
 */
class CrawlOrderingPropertiesTest {

    record Case(int[][] adjacency, int[] hosts, int[] seeds, int recomputeEvery) {
    }

    @Property(tries = 150)
    void everyStrategyVisitsEveryReachableNodeExactlyOnce(@ForAll("cases") Case c) {
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

    private static BitSet reachable(int[][] g, int[] seeds) {
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

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(1, 60).flatMap(n -> {
            Arbitrary<int[]> links = Arbitraries.integers().between(0, n - 1).array(int[].class).ofMaxSize(8);
            Arbitrary<int[][]> adjacency = links.array(int[][].class).ofSize(n);
            Arbitrary<int[]> hosts = Arbitraries.integers().between(0, 4).array(int[].class).ofSize(n);
            Arbitrary<int[]> seeds = Arbitraries.integers().between(0, n - 1).array(int[].class).ofMinSize(1)
                    .ofMaxSize(3);
            Arbitrary<Integer> every = Arbitraries.integers().between(1, 6);
            return Combinators.combine(adjacency, hosts, seeds, every).as(Case::new);
        });
    }
}
