package io.github.kcrawler.ranker.pagerank;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The reference PageRank against closed-form solutions of small graphs. */
class PageRankTest {

    @Test
    void cycleIsUniform() {
        PageRank.Result r = PageRank.compute(new int[] {0, 1, 2, 3}, new int[] {1, 2, 0});
        assertThat(r.scores()).containsExactly(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-12));
    }

    /**
     * k leaves link to a dangling centre. With N = k + 1 and damping d the fixed point is
     * {@code leaf = (1 - d) / (N - d - d²k)} and {@code centre = leaf · (1 + dk)} (the centre's mass is spread
     * uniformly as dangling mass).
     */
    @Test
    void starIntoDanglingCentreMatchesClosedForm() {
        int k = 5;
        int n = k + 1;
        int[] offsets = new int[n + 1];
        int[] targets = new int[k];
        for (int leaf = 1; leaf <= k; leaf++) {
            targets[leaf - 1] = 0;
        }
        for (int v = 1; v <= n; v++) {
            offsets[v] = v == 1 ? 0 : offsets[v - 1] + 1; // node 0 has no outlinks, nodes 1..k one each
        }
        offsets[n] = k;
        double d = 0.85;
        PageRank.Result r = PageRank.compute(offsets, targets, d, 1e-13, 10_000);
        double leaf = (1 - d) / (n - d - d * d * k);
        double centre = leaf * (1 + d * k);
        assertThat(r.scores()[0]).isCloseTo(centre, within(1e-12));
        for (int v = 1; v <= k; v++) {
            assertThat(r.scores()[v]).isCloseTo(leaf, within(1e-12));
        }
        assertThat(Arrays.stream(r.scores()).sum()).isCloseTo(1.0, within(1e-12));
        assertThat(r.lastChange()).isLessThan(1e-13);
    }

    @Test
    void selfLoopKeepsRank() {
        // 0 -> {0, 1}, 1 -> {0}: p0 = 0.15/2 + 0.85 (p0/2 + p1), p1 = 0.15/2 + 0.85 p0/2, p0 + p1 = 1
        PageRank.Result r = PageRank.compute(new int[] {0, 2, 3}, new int[] {0, 1, 0});
        double p1 = (0.075 + 0.425) / (1 + 0.425);   // from p1 = 0.075 + 0.425 (1 - p1)
        assertThat(r.scores()[1]).isCloseTo(p1, within(1e-10));
        assertThat(r.scores()[0]).isCloseTo(1 - p1, within(1e-10));
    }

    @Test
    void failsLoudlyWhenNotConvergedOrMisconfigured() {
        assertThatThrownBy(() -> PageRank.compute(new int[] {0, 1, 3, 3}, new int[] {1, 0, 2}, 0.85, 1e-15, 3))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("did not converge");
        assertThatThrownBy(() -> PageRank.compute(new int[] {0}, new int[0], 1.0, 1e-10, 10))
                .hasMessageContaining("damping");
        assertThat(PageRank.compute(new int[] {0}, new int[0]).scores()).isEmpty();
    }
}
