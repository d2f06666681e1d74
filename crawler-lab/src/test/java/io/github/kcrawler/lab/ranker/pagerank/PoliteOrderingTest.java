package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PoliteOrdering} against an exact model written out here independently: at every step it hands out the
 * wrapped strategy's best frontier node among the hosts not cooling down (a host cools down for the k hand-outs after
 * one of its own; when every frontier node is on a cooling host, intervals end oldest first until one has a node),
 * and the strategy's priorities are the ones the bare strategy computes for the same fetch sequence — a held node's
 * priority keeps changing while it waits.
 */
class PoliteOrderingTest {

    private static final IprParams IPR = new IprParams(IprParams.CutOff.DL1, 3, 1.5, 29.0 / 30);

    @Test
    void handsOutTheBestNodeOfAHostNotCoolingDown() {
        forAll(120, g -> {
            CrawlOrderingPropertiesTest.Case c = CrawlOrderingPropertiesTest.cases(g);
            int k = g.intIn(1, 9);
            for (String name : Strategies.ALL) {
                exactModel(c, k, name, null);
            }
        });
    }

    /** The same model when the unit is a grouping of hosts (as websim's IPs group its hosts in {@code bench order}). */
    @Test
    void handsOutTheBestNodeOfAServerNotCoolingDown_whenServersGroupHosts() {
        forAll(120, g -> {
            CrawlOrderingPropertiesTest.Case c = CrawlOrderingPropertiesTest.cases(g);
            int k = g.intIn(1, 9);
            int servers = g.intIn(1, 3);
            int[] server = new int[c.hosts().length];
            for (int v = 0; v < server.length; v++) {
                server[v] = c.hosts()[v] % servers;
            }
            for (String name : Strategies.ALL) {
                exactModel(c, k, name, server);
            }
        });
    }

    /** @param server each node's politeness unit, or null for its host (the two-argument constructor) */
    private static void exactModel(CrawlOrderingPropertiesTest.Case c, int k, String name, int[] server) {
        int n = c.adjacency().length;
        NodeLabels labels = NodeLabels.of(c.hosts(), new int[n], new int[n]);
        PoliteOrdering polite = server == null
                ? (PoliteOrdering) Strategies.create(name, labels, IPR, c.recomputeEvery(), 0.85, k)
                : new PoliteOrdering((FrontierOrdering) Strategies.create(name, labels, IPR, c.recomputeEvery(),
                        0.85), k, name, server);
        int[] unit = server != null ? server : c.hosts();
        FrontierOrdering inner = polite.inner();
        // the twin: the bare strategy, made to fetch the same pages in the same order
        FrontierOrdering twin = (FrontierOrdering) Strategies.create(name, labels, IPR, c.recomputeEvery(), 0.85);
        int kk = polite.k();
        for (int s : c.seeds()) {
            polite.addSeed(s);
            twin.addSeed(s);
        }
        Deque<int[]> cooling = new ArrayDeque<>(); // {host, hand-out index}, oldest first
        BitSet visited = new BitSet(n);
        int handed = 0;
        int p;
        while (true) {
            while (!cooling.isEmpty() && handed - cooling.peekFirst()[1] > kk) {
                cooling.pollFirst();
            }
            int expected = best(inner, n, unit, cooling);
            if (expected < 0 && inner.frontierSize() > 0) {
                // a wait: intervals end oldest first until a host with a frontier node is free
                while (expected < 0) {
                    assertThat(cooling).as(name + ": nodes wait but no host cools down").isNotEmpty();
                    cooling.pollFirst();
                    expected = best(inner, n, unit, cooling);
                }
            }
            p = polite.next();
            assertThat(p).as(name + " k=" + kk + " step " + handed).isEqualTo(expected);
            if (p < 0) {
                break;
            }
            assertThat(visited.get(p)).as(name + " hands out " + p + " twice").isFalse();
            visited.set(p);
            cooling.addLast(new int[] {unit[p], handed});
            handed++;
            takeFromTwin(twin, p, n);
            polite.fetched(p, c.adjacency()[p], 0, c.adjacency()[p].length);
            twin.fetched(p, c.adjacency()[p], 0, c.adjacency()[p].length);
            inner.checkFrontier();
            for (int v = 0; v < n; v++) {
                assertThat(inner.inFrontier(v)).as(name + ": node " + v + " in the frontier").isEqualTo(twin.inFrontier(v));
                if (inner.inFrontier(v)) {
                    assertThat(inner.priorityForTest(v)).as(name + ": priority of " + v + " after " + handed)
                            .isEqualTo(twin.priorityForTest(v));
                    assertThat(inner.orderKeyForTest(v)).as(name + ": order of " + v).isEqualTo(twin.orderKeyForTest(v));
                }
            }
            assertThat(polite.frontierSize()).isEqualTo(twin.frontierSize());
        }
        assertThat(visited).as(name).isEqualTo(CrawlOrderingPropertiesTest.reachable(c.adjacency(), c.seeds()));
        assertThat(polite.frontierSize()).isZero();
        assertThat(inner.heldCount()).isZero();
    }

    /** The model's choice: the best frontier node (priority, then order key) whose unit is not in {@code cooling}. */
    private static int best(FrontierOrdering o, int n, int[] unit, Deque<int[]> cooling) {
        BitSet coolingHosts = new BitSet();
        for (int[] e : cooling) {
            coolingHosts.set(e[0]);
        }
        int best = -1;
        for (int v = 0; v < n; v++) {
            if (!o.inFrontier(v) || coolingHosts.get(unit[v])) {
                continue;
            }
            if (best < 0 || o.priorityForTest(v) > o.priorityForTest(best)
                    || (o.priorityForTest(v) == o.priorityForTest(best) && o.orderKeyForTest(v) < o.orderKeyForTest(best))) {
                best = v;
            }
        }
        return best;
    }

    /** Makes the bare twin hand out exactly {@code p}: everything else is set aside for the one call, then put back. */
    private static void takeFromTwin(FrontierOrdering twin, int p, int n) {
        List<Integer> aside = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            if (v != p && twin.inFrontier(v)) {
                twin.hold(v);
                aside.add(v);
            }
        }
        assertThat(twin.next()).isEqualTo(p);
        aside.forEach(twin::release);
    }

    @Test
    void withKZeroTheOrderIsTheStrategysOwn() {
        forAll(60, g -> {
            CrawlOrderingPropertiesTest.Case c = CrawlOrderingPropertiesTest.cases(g);
            int n = c.adjacency().length;
            NodeLabels labels = NodeLabels.of(c.hosts(), new int[n], new int[n]);
            for (String name : Strategies.ALL) {
                FrontierOrdering bare = (FrontierOrdering) Strategies.create(name, labels, IPR, c.recomputeEvery(), 0.85);
                PoliteOrdering polite = new PoliteOrdering(
                        (FrontierOrdering) Strategies.create(name, labels, IPR, c.recomputeEvery(), 0.85), 0, name);
                assertThat(crawl(polite, c)).as(name).containsExactly(crawl(bare, c));
                assertThat(polite.holds()).isZero();
            }
        });
    }

    @Test
    void spreadsOneHostsBestPagesOverTheCrawl() {
        // host 0: pages 1..6 linked from the seed with the highest back-link counts; host 1: pages 7..12
        int[][] adjacency = new int[13][];
        adjacency[0] = new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        for (int i = 1; i < 13; i++) {
            adjacency[i] = new int[0];
        }
        int[] hosts = {2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
        NodeLabels labels = NodeLabels.of(hosts, new int[13], new int[13]);
        CrawlOrderingPropertiesTest.Case c = new CrawlOrderingPropertiesTest.Case(adjacency, hosts, new int[] {0}, 1);
        int[] bf = crawl(Strategies.create("BF", labels, IPR, 1, 0.85), c);
        int[] politeBf = crawl(Strategies.create("BF", labels, IPR, 1, 0.85, 1), c);
        assertThat(bf).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        assertThat(politeBf).containsExactly(0, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12);
        // k = 2 with two hosts: from the fourth hand-out on every hand-out is a wait
        PoliteOrdering k2 = (PoliteOrdering) Strategies.create("BF", labels, IPR, 1, 0.85, 2);
        assertThat(crawl(k2, c)).containsExactly(0, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12);
        assertThat(k2.waits()).isEqualTo(10);
        // hosts 0 and 1 on one server (as two websim hosts on one IP): with k = 1 every other hand-out is a wait,
        // and the order is breadth-first's own
        int[] oneServer = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        PoliteOrdering shared = new PoliteOrdering((FrontierOrdering) Strategies.create("BF", labels, IPR, 1, 0.85),
                1, "BF", oneServer);
        assertThat(crawl(shared, c)).containsExactly(bf);
        assertThat(shared.waits()).isEqualTo(11);
    }

    @Test
    void rejectsAServerListOfAnotherLengthOrANegativeServer() {
        NodeLabels labels = NodeLabels.of(new int[] {0, 1}, new int[2], new int[2]);
        assertThatThrownBy(() -> new PoliteOrdering(new BreadthFirst(labels), 1, "BF", new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 entries for 2 nodes");
        assertThatThrownBy(() -> new PoliteOrdering(new BreadthFirst(labels), 1, "BF", new int[] {0, -1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    @Test
    void rejectsANegativeK() {
        NodeLabels labels = NodeLabels.singleHost(3);
        assertThatThrownBy(() -> new PoliteOrdering(new BreadthFirst(labels), -1, "BF"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be >= 0");
    }

    private static int[] crawl(CrawlOrdering o, CrawlOrderingPropertiesTest.Case c) {
        for (int s : c.seeds()) {
            o.addSeed(s);
        }
        int[] order = new int[c.adjacency().length];
        int count = 0;
        int p;
        while ((p = o.next()) >= 0) {
            order[count++] = p;
            o.fetched(p, c.adjacency()[p], 0, c.adjacency()[p].length);
        }
        return java.util.Arrays.copyOf(order, count);
    }
}
