package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IprParams;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * IPR-NS ({@link NewSiteIncrementalPageRankOrdering}) against an exact model: a naive crawler that, at every step,
 * scans all known unfetched nodes and takes the best by (tier, DL1 score, discovery number), recomputing tiers from
 * scratch. Random graphs use out-degrees 0, 1, 2 or 4 distinct links (plus repeats of them, which collapse), so every
 * DL1 score is a dyadic rational computed exactly in doubles and the comparison is exact. Rerun one case with
 * {@code -Dipr.ns.seed=N}.
 */
class NewSiteIncrementalPageRankOrderingTest {


    @Test
    void seedsFirstThenNewSitesThenScore() {
        // hosts: 0,1,2,3 on host 0; 4 on host 1; 5 on host 2; 6 on host 3 (a second seed)
        NodeLabels labels = NodeLabels.of(new int[] {0, 0, 0, 0, 1, 2, 3}, new int[7], new int[7]);
        int[][] g = {{1, 2, 4}, {3, 3}, {3}, {}, {5}, {}, {0}};
        NewSiteIncrementalPageRankOrdering ns = new NewSiteIncrementalPageRankOrdering(labels,
                IprParams.defaults(IprParams.CutOff.VR)); // the cut-off is ignored: DL1
        // seeds 0 and 6 first (6 although 0's links outscore it); then 4, the only URL on an unvisited host, although
        // it has score 1/3 like 1 and 2; 5 (new host, linked from 4); then host 0's 1 and 2 by score and discovery
        assertThat(OrderingsTest.crawl(ns, g, 0, 6)).containsExactly(0, 6, 4, 5, 1, 3, 2);
        assertThat(ns.name()).isEqualTo("IPR-NS");
        // DL1 exactly: 0 holds 1 from its fetch + 1 from 6; 4 holds 1/3 from 0 + 1 from its fetch
        assertThat(ns.rank().score(0)).isEqualTo(1.0 + 1.0);
        assertThat(ns.rank().score(4)).isEqualTo(1.0 / 3 + 1);
        assertThat(ns.rank().receipts()).isEqualTo(3 + 1 + 1 + 1 + 1); // links of 0, 6, 4, 1 (distinct), 2
    }

    @Test
    void plainIprOrderingAlsoFetchesEverySeedFirst() {
        NodeLabels labels = NodeLabels.singleHost(5);
        int[][] g = {{1}, {2}, {}, {4}, {}};
        // without the seed rule, seed 3 (score 0) would wait behind 1 and 2, which received score from 0: 0,1,2,3,4
        IncrementalPageRankOrdering ipr = new IncrementalPageRankOrdering(labels,
                IprParams.defaults(IprParams.CutOff.DL1));
        assertThat(OrderingsTest.crawl(ipr, g, 0, 3)).containsExactly(0, 3, 1, 2, 4); // 1 and 4 tie at 1: 1 was discovered first
        assertThat(ipr.rank().score(3)).isEqualTo(1.0); // the seed's score is the paper's: 0 + 1 at its fetch
        assertThat(ipr.rank().score(4)).isEqualTo(2.0); // 3's 1 + its own fetch
    }

    @Test
    void matchesTheExactModelOnRandomGraphs() {
        long base = Long.getLong("ipr.ns.seed", System.nanoTime());
        int cases = Long.getLong("ipr.ns.seed") != null ? 1 : 300;
        System.out.println("NewSiteIncrementalPageRankOrderingTest seed " + base + " (rerun: -Dipr.ns.seed=" + base + ")");
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
                int d = new int[] {0, 1, 2, 4}[rnd.nextInt(4)];
                int[] distinct = rnd.ints(0, n).distinct().limit(Math.min(d, n)).toArray();
                if (Integer.bitCount(distinct.length) > 1) { // n = 3: keep the degree a power of two
                    distinct = Arrays.copyOf(distinct, 2);
                }
                int repeats = distinct.length == 0 ? 0 : rnd.nextInt(3);
                int[] links = Arrays.copyOf(distinct, distinct.length + repeats);
                for (int i = distinct.length; i < links.length; i++) {
                    links[i] = distinct[rnd.nextInt(distinct.length)];
                }
                g[v] = links;
            }
            int[] seeds = rnd.ints(1 + rnd.nextInt(3), 0, n).toArray();
            NodeLabels labels = NodeLabels.of(hosts, new int[n], new int[n]);
            List<Integer> actual = OrderingsTest.crawl(new NewSiteIncrementalPageRankOrdering(labels,
                    IprParams.defaults(IprParams.CutOff.DL1)), g, seeds);
            assertThat(actual).as("seed " + seed).isEqualTo(model(g, hosts, seeds));
        }
    }

    /** The documented order computed naively: O(n) scan per fetch, tiers and scores from their definitions. */
    static List<Integer> model(int[][] g, int[] hosts, int[] seeds) {
        int n = g.length;
        double[] score = new double[n];
        long[] seq = new long[n];
        Arrays.fill(seq, -1);
        boolean[] fetched = new boolean[n];
        boolean[] isSeed = new boolean[n];
        boolean[] hostVisited = new boolean[Arrays.stream(hosts).max().orElse(0) + 1];
        long next = 0;
        for (int s : seeds) {
            if (seq[s] < 0) {
                seq[s] = next++;
                isSeed[s] = true;
            }
        }
        List<Integer> order = new ArrayList<>();
        while (true) {
            int best = -1;
            int bestTier = -1;
            for (int v = 0; v < n; v++) {
                if (seq[v] < 0 || fetched[v]) {
                    continue;
                }
                int tier = isSeed[v] ? 2 : hostVisited[hosts[v]] ? 0 : 1;
                if (best < 0 || tier > bestTier
                        || (tier == bestTier && (score[v] > score[best]
                        || (score[v] == score[best] && seq[v] < seq[best])))) {
                    best = v;
                    bestTier = tier;
                }
            }
            if (best < 0) {
                return order;
            }
            int p = best;
            order.add(p);
            fetched[p] = true;
            hostVisited[hosts[p]] = true;
            for (int pass = 0; pass < 2; pass++) { // off-site links first, then same-site, each in document order
                for (int q : g[p]) {
                    boolean offSite = hosts[q] != hosts[p];
                    if (seq[q] < 0 && (pass == 1 || offSite)) {
                        seq[q] = next++;
                    }
                }
            }
            int[] distinct = Arrays.stream(g[p]).distinct().toArray();
            score[p] += 1.0;
            double share = score[p] / distinct.length; // taken before a self-link adds to score[p]
            for (int q : distinct) {
                score[q] += share;
            }
        }
    }
}
