package io.github.kcrawler.lab.ranker.pagerank;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * IPR-NSR ({@link NewSiteRecomputedPageRankOrdering}) against an exact model: a naive crawler that keeps the estimate
 * of every URL in plain arrays, recomputes it with the documented power iteration, and picks the next URL by scanning
 * all known unfetched URLs for the best (tier, estimate, discovery number). Arithmetic is done in the documented
 * order, so estimates must be equal exactly and the fetch orders identical. Rerun one case with
 * {@code -Dipr.nsr.seed=N}.
 */
class NewSiteRecomputedPageRankOrderingTest {

    private static final double D = 0.85;


    @Test
    void handCase_incrementalSharesBetweenRecomputationsAndTiers() {
        // one host for 0..4, host 1 for 5; 0 -> 1, 2, 5; 1 -> 3; 2 -> 3, 4
        NodeLabels labels = NodeLabels.of(new int[] {0, 0, 0, 0, 0, 1}, new int[6], new int[6]);
        int[][] g = {{1, 2, 5}, {3}, {3, 4}, {}, {}, {}};
        NewSiteRecomputedPageRankOrdering nsr = new NewSiteRecomputedPageRankOrdering(labels, 100, D);
        // 0 (seed, 4 URLs known: 1/4 each, d/12 to 1, 2 and 5); 5 (new host) although 1 and 2 tie with it; 1 before
        // 2 by discovery; 1 was never valued, so it passes d * (1/5) (5 URLs known) to 3, more than 2's d/12: 3, 2, 4
        assertThat(OrderingsTest.crawl(nsr, g, 0)).containsExactly(0, 5, 1, 3, 2, 4);
        assertThat(nsr.estimate(3)).isEqualTo(D * (1.0 / 5) / 1);
        assertThat(nsr.estimate(1)).isEqualTo(D * (1.0 / 4) / 3); // 4 URLs known when 0 was fetched, never valued
        assertThat(nsr.recomputations()).isZero();
        assertThat(nsr.name()).isEqualTo("IPR-NSR");
        assertThatThrownBy(() -> new NewSiteRecomputedPageRankOrdering(labels, 0, D)).hasMessageContaining("recompute");
    }

    @Test
    void recomputationIsBatchPageRanksIteration() {
        // with one host, one seed and no incremental effect on the order, a recomputation gives batch PR's values
        NodeLabels labels = NodeLabels.singleHost(5);
        int[][] g = {{1, 2}, {3}, {3, 4}, {0}, {}};
        NewSiteRecomputedPageRankOrdering nsr = new NewSiteRecomputedPageRankOrdering(labels, 2, D);
        OrderingsTest.crawl(nsr, g, 0);
        List<Integer> order = OrderingsTest.crawl(new NewSiteRecomputedPageRankOrdering(labels, 2, D), g, 0);
        assertThat(order).containsExactlyElementsOf(model(g, new int[5], new int[] {0}, 2, null));
        double sum = 0;
        for (int v = 0; v < 5; v++) {
            sum += nsr.estimate(v);
        }
        assertThat(nsr.recomputations()).isEqualTo(2);
        assertThat(sum).isCloseTo(1.0, within(0.5)); // one iteration from 1/N starts: a rough distribution
    }

    @Test
    void matchesTheExactModelOnRandomGraphs() {
        long base = Long.getLong("ipr.nsr.seed", System.nanoTime());
        int cases = Long.getLong("ipr.nsr.seed") != null ? 1 : 300;
        System.out.println("NewSiteRecomputedPageRankOrderingTest seed " + base + " (rerun: -Dipr.nsr.seed=" + base + ")");
        for (int c = 0; c < cases; c++) {
            long seed = base + c;
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = 1 + rnd.nextInt(60);
            int hostsCount = 1 + rnd.nextInt(8);
            int[] hosts = new int[n];
            for (int v = 0; v < n; v++) {
                hosts[v] = rnd.nextInt(hostsCount);
            }
            int[][] g = new int[n][];
            for (int v = 0; v < n; v++) {
                g[v] = rnd.ints(rnd.nextInt(7), 0, n).toArray(); // duplicates and self-links included
            }
            int[] seeds = rnd.ints(1 + rnd.nextInt(3), 0, n).toArray();
            int every = 1 + rnd.nextInt(8);
            NodeLabels labels = NodeLabels.of(hosts, new int[n], new int[n]);
            NewSiteRecomputedPageRankOrdering nsr = new NewSiteRecomputedPageRankOrdering(labels, every, D);
            List<Integer> actual = OrderingsTest.crawl(nsr, g, seeds);
            double[] estimates = new double[n];
            assertThat(actual).as("seed " + seed).isEqualTo(model(g, hosts, seeds, every, estimates));
            for (int v = 0; v < n; v++) {
                assertThat(nsr.estimate(v)).as("seed " + seed + " node " + v).isEqualTo(estimates[v]);
            }
        }
    }

    /** The documented order, computed naively; fills {@code estimatesOut} with the final estimates if given. */
    static List<Integer> model(int[][] g, int[] hosts, int[] seeds, int every, double[] estimatesOut) {
        int n = g.length;
        double[] r = new double[n];
        boolean[] valued = new boolean[n];
        long[] seq = new long[n];
        Arrays.fill(seq, -1);
        boolean[] fetched = new boolean[n];
        boolean[] isSeed = new boolean[n];
        boolean[] hostVisited = new boolean[Arrays.stream(hosts).max().orElse(0) + 1];
        List<Integer> knownInOrder = new ArrayList<>();
        List<Integer> fetchedInOrder = new ArrayList<>();
        int[][] distinct = new int[n][];
        long next = 0;
        for (int s : seeds) {
            if (seq[s] < 0) {
                seq[s] = next++;
                isSeed[s] = true;
                knownInOrder.add(s);
            }
        }
        List<Integer> order = new ArrayList<>();
        int since = 0;
        while (true) {
            int best = -1;
            double bestKey = -1;
            for (int v = 0; v < n; v++) {
                if (seq[v] < 0 || fetched[v]) {
                    continue;
                }
                int tier = isSeed[v] ? 2 : hostVisited[hosts[v]] ? 0 : 1;
                double key = NewSiteIncrementalPageRankOrdering.priority(tier, r[v]);
                if (best < 0 || key > bestKey || (key == bestKey && seq[v] < seq[best])) {
                    best = v;
                    bestKey = key;
                }
            }
            if (best < 0) {
                if (estimatesOut != null) {
                    System.arraycopy(r, 0, estimatesOut, 0, n);
                }
                return order;
            }
            int p = best;
            order.add(p);
            fetched[p] = true;
            isSeed[p] = false;
            hostVisited[hosts[p]] = true;
            for (int pass = 0; pass < 2; pass++) {
                for (int q : g[p]) {
                    if (seq[q] < 0 && (pass == 1 || hosts[q] != hosts[p])) {
                        seq[q] = next++;
                        knownInOrder.add(q);
                    }
                }
            }
            distinct[p] = Arrays.stream(g[p]).distinct().toArray();
            fetchedInOrder.add(p);
            if (distinct[p].length > 0) {
                double base = valued[p] ? r[p] : 1.0 / knownInOrder.size();
                double share = D * base / distinct[p].length;
                for (int q : distinct[p]) {
                    if (!fetched[q]) {
                        r[q] += share;
                    }
                }
            }
            if (++since >= every) {
                since = 0;
                int k = knownInOrder.size();
                double dangling = 0;
                double[] nx = new double[n];
                for (int v : knownInOrder) {
                    if (!valued[v]) {
                        valued[v] = true;
                        r[v] = 1.0 / k;
                    }
                    if (!fetched[v] || distinct[v].length == 0) {
                        dangling += r[v];
                    }
                }
                for (int u : fetchedInOrder) {
                    if (distinct[u].length == 0) {
                        continue;
                    }
                    double share = D * r[u] / distinct[u].length;
                    for (int q : distinct[u]) {
                        nx[q] += share;
                    }
                }
                double b = (1 - D) / k + D * dangling / k;
                for (int v : knownInOrder) {
                    r[v] = b + nx[v];
                }
            }
        }
    }
}
