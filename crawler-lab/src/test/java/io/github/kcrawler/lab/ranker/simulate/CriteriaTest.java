package io.github.kcrawler.lab.ranker.simulate;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Criteria A, B and C on orders whose values are known. */
class CriteriaTest {

    private static final int N = 2000;

    /** Node v has PageRank proportional to a shuffled weight, so the best order is not the id order. */
    private static double[] truth() {
        double[] t = new double[N];
        double sum = 0;
        for (int v = 0; v < N; v++) {
            t[v] = 1.0 / (1 + (v * 7919L) % N);
            sum += t[v];
        }
        for (int v = 0; v < N; v++) {
            t[v] /= sum;
        }
        return t;
    }

    private static int[] byTruth(double[] t, boolean descending) {
        return IntStream.range(0, N).boxed()
                .sorted((a, b) -> descending ? Double.compare(t[b], t[a]) : Double.compare(t[a], t[b]))
                .mapToInt(Integer::intValue).toArray();
    }

    @Test
    void perfectOrder_isOptimalOnAAndBAndHasZeroC() {
        double[] t = truth();
        Criteria criteria = new Criteria(t, IntStream.range(0, N).toArray(), 1.0);
        int[] best = byTruth(t, true);
        Criteria.Curves cv = criteria.evaluate(best);
        int[] checkpoints = criteria.checkpoints();
        int[] tops = criteria.topSizes();
        assertThat(tops).containsExactly(2, 20, 200);
        double prefix = 0;
        int k = 0;
        for (int j = 0; j < Criteria.POINTS; j++) {
            while (k < checkpoints[j]) {
                prefix += t[best[k++]];
            }
            for (int f = 0; f < tops.length; f++) {
                assertThat(cv.topShare()[f][j]).isEqualTo(Math.min(1.0, (double) checkpoints[j] / tops[f]));
            }
            assertThat(cv.pageRankShare()[j]).isCloseTo(prefix, within(1e-12));
            assertThat(cv.orderError()[j]).isZero();
        }
        assertThat(cv.pageRankShare()[Criteria.POINTS - 1]).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void ascendingOrder_hasCOneEverywhereAndNoTopPagesEarly() {
        double[] t = truth();
        Criteria criteria = new Criteria(t, IntStream.range(0, N).toArray(), 1.0);
        Criteria.Curves cv = criteria.evaluate(byTruth(t, false));
        for (int j = 0; j < Criteria.POINTS; j++) {
            assertThat(cv.orderError()[j]).isCloseTo(1.0, within(1e-12));
        }
        assertThat(cv.topShare()[2][Criteria.POINTS / 2]).isZero(); // top 10% not before the last 10%
        assertThat(cv.topShare()[2][Criteria.POINTS - 1]).isEqualTo(1.0);
    }

    @Test
    void orderError_matchesAHandComputedValue() {
        // truth ranks: node 0 first … node 3 last; crawl 1, 0, 2, 3 with c = 0
        double[] t = {0.4, 0.3, 0.2, 0.1};
        Criteria criteria = new Criteria(t, new int[] {0, 1, 2, 3}, 0.0);
        double error = 1 / Math.sqrt(1) + 1 / Math.sqrt(2);                  // |1-2|/√1 + |2-1|/√2
        double worst = 3 / Math.sqrt(1) + 1 / Math.sqrt(2) + 1 / Math.sqrt(3) + 3 / Math.sqrt(4);
        Criteria.Curves cv = criteria.evaluate(new int[] {1, 0, 2, 3});
        assertThat(cv.orderError()[Criteria.POINTS - 1]).isCloseTo(error / worst, within(1e-12));
        assertThat(cv.pageRankShare()[Criteria.POINTS - 1]).isCloseTo(1.0, within(1e-12));
        assertThat(Criteria.tenths(cv.pageRankShare())).hasSize(10);
        // 1% of 4 pages is one page: the first crawled page holds 0.3 of the PageRank
        assertThat(cv.pageRankShare()[0]).isCloseTo(0.3, within(1e-12));
    }

    @Test
    void populationMayBeAPartOfTheGraph() {
        double[] t = {0.5, 0.1, 0.3, 0.1};
        Criteria criteria = new Criteria(t, new int[] {2, 1}, 1.0); // nodes 0 and 3 not reachable
        Criteria.Curves cv = criteria.evaluate(new int[] {2, 1});
        assertThat(criteria.rank(2)).isEqualTo(1);
        assertThat(cv.orderError()[Criteria.POINTS - 1]).isZero();
        assertThat(cv.pageRankShare()[Criteria.POINTS / 2 - 1]).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void rejectsOrdersThatAreNotPermutationsOfThePopulation() {
        Criteria criteria = new Criteria(new double[] {0.5, 0.5, 0}, new int[] {0, 1}, 1.0);
        assertThatThrownBy(() -> criteria.evaluate(new int[] {0, 0})).hasMessageContaining("permutation");
        assertThatThrownBy(() -> criteria.evaluate(new int[] {0, 2})).hasMessageContaining("node 2");
        assertThatThrownBy(() -> criteria.evaluate(new int[] {0})).hasMessageContaining("1 pages");
        assertThatThrownBy(() -> new Criteria(new double[] {1}, new int[] {0}, -1)).hasMessageContaining("-1");
    }
}
