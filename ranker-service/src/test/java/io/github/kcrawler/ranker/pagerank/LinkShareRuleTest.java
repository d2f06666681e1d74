package io.github.kcrawler.ranker.pagerank;

import io.github.kcrawler.common.model.LinkShare;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LinkShare} (crawler-common: the first score the scheduler gives a newly admitted URL) against the paper's
 * rule as {@link IncrementalPageRank} applies it, on seeded random graphs and fetch orders, under every cut-off:
 * <ol>
 *   <li>a URL first reached by the fetch of p gets, as its first score, exactly {@code LinkShare.of(s_p, outdeg(p))}
 *   with s_p p's score just before the fetch;</li>
 *   <li>the share computed from any score p had earlier (what a scheduler that has not yet heard p's latest score
 *   holds) is at most every score the URL has afterwards: unfetched scores only grow.</li>
 * </ol>
 * {@link PropertyCheck}: 200 tries, each a random cut-off, graph and fetch order; a failure prints the seed that
 * reruns it.
 */
class LinkShareRuleTest {
    @Test
    void theShareIsThePapersFirstReceipt_andNeverAboveALaterScore() {
        PropertyCheck.forAll(200, gen -> check(gen.of(IprParams.CutOff.values()), gen.random(),
                "seed " + gen.seed() + ", cut-off"));
    }

    private static void check(IprParams.CutOff cutOff, SplittableRandom random, String seed) {
        String context = seed + " " + cutOff;
        int n = 2 + random.nextInt(60);
        int[][] out = new int[n][];
        for (int p = 0; p < n; p++) { // distinct outlinks, no self-link
            int degree = random.nextInt(Math.min(n - 1, 8) + 1);
            int[] links = random.ints(0, n).distinct().limit(n).toArray();
            int[] kept = new int[degree];
            int k = 0;
            for (int i = 0; i < links.length && k < degree; i++) {
                if (links[i] != p) {
                    kept[k++] = links[i];
                }
            }
            out[p] = java.util.Arrays.copyOf(kept, k);
        }
        IncrementalPageRank ipr = new IncrementalPageRank(IprParams.defaults(cutOff), n);
        double[] earlier = new double[n]; // a score each page had at some earlier moment: what a scheduler may hold
        double[] floor = new double[n]; // the largest share a URL was given at its first discovery, else 0
        boolean[] reached = new boolean[n];
        double[] lastReported = new double[n];
        int[] order = random.ints(0, n).distinct().limit(n).toArray();
        for (int p : order) {
            if (random.nextInt(3) == 0) {
                earlier[p] = ipr.score(p); // the scheduler hears p's current score
            }
            double before = ipr.score(p);
            int degree = out[p].length;
            boolean[] firstReport = new boolean[n];
            boolean[] newHere = new boolean[n];
            for (int q : out[p]) {
                newHere[q] = !reached[q] && !ipr.isFetched(q) && ipr.score(q) == 0.0;
            }
            ipr.fetch(p, out[p], (node, score) -> {
                if (newHere[node] && !firstReport[node]) {
                    firstReport[node] = true;
                    assertThat(score).as(context + ": first score of " + node).isEqualTo(LinkShare.of(before, degree));
                }
                assertThat(score).as(context + ": " + node + " only grows").isGreaterThanOrEqualTo(lastReported[node]);
                assertThat(score).as(context + ": " + node + " at or above its share")
                        .isGreaterThanOrEqualTo(floor[node]);
                lastReported[node] = score;
            });
            if (degree > 0) {
                double share = LinkShare.of(earlier[p], degree);
                assertThat(share).as(context).isLessThanOrEqualTo(LinkShare.of(before, degree));
                for (int q : out[p]) {
                    if (newHere[q]) {
                        assertThat(firstReport[q]).as(context + ": " + q + " reported").isTrue();
                        floor[q] = share; // admitted with it, first discovered here
                    }
                    reached[q] = true;
                }
            }
        }
        for (int q = 0; q < n; q++) {
            if (!ipr.isFetched(q)) {
                assertThat(ipr.score(q)).as(context + ": final score of " + q).isGreaterThanOrEqualTo(floor[q]);
            }
        }
    }
}
