package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link LinkLatency}: the time a link takes, from websim's log of a crawl and the link graph. */
class LinkLatencyTest {

    @Test
    void latencyRunsFromTheFirstFetchedPageLinkingToTheTarget() {
        // 0 → 1, 0 → 2, 1 → 2, 2 → 2 (self), 3 → 0; fetched 0 @ 100, 1 @ 250, 2 @ 400, 3 never
        int[] offsets = {0, 2, 3, 4, 5};
        int[] targets = {1, 2, 2, 2, 0};
        LinkLatency.Summary s = LinkLatency.of(offsets, targets, new int[] {0, 1, 2}, new double[] {100, 250, 400});
        // 1: 250 − 100; 2: 400 − 100 (0 links to it before 1 does, and its self-link does not count); 0: no in-link
        // fetched (3 never was), so no latency
        assertThat(s.pages()).isEqualTo(2);
        assertThat(s.p1Ms()).isEqualTo(150.0);
        assertThat(s.p10Ms()).isEqualTo(150.0);
        assertThat(s.p50Ms()).isEqualTo(150.0);
        assertThat(LinkLatency.of(offsets, targets, new int[0], new double[0]).p50Ms()).isNaN();
        assertThatThrownBy(() -> LinkLatency.of(offsets, targets, new int[] {0}, new double[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void percentilesAreNearestRank() {
        double[] sorted = new double[200];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(LinkLatency.percentile(sorted, 200, 1)).isEqualTo(2.0);
        assertThat(LinkLatency.percentile(sorted, 200, 10)).isEqualTo(20.0);
        assertThat(LinkLatency.percentile(sorted, 200, 50)).isEqualTo(100.0);
        assertThat(LinkLatency.percentile(sorted, 1, 50)).isEqualTo(1.0);
    }

    /** The model: every pair (u, v) with an arc u → v, u ≠ v, both fetched and u no later than v. */
    @Test
    void matchesThePairwiseModel_onRandomGraphsAndFetchOrders() {
        forAll(200, g -> {
            int n = g.intIn(1, 40);
            List<List<Integer>> out = new ArrayList<>();
            int arcs = 0;
            for (int u = 0; u < n; u++) {
                List<Integer> l = new ArrayList<>();
                int d = g.intIn(0, 5);
                for (int i = 0; i < d; i++) {
                    l.add(g.intIn(0, n - 1)); // repeats and self-links included
                }
                out.add(l);
                arcs += d;
            }
            int[] offsets = new int[n + 1];
            int[] targets = new int[arcs];
            for (int u = 0, k = 0; u < n; u++) {
                for (int v : out.get(u)) {
                    targets[k++] = v;
                }
                offsets[u + 1] = k;
            }
            int[] perm = g.random().ints(0, 1 << 30).limit(n).toArray();
            Integer[] ids = new Integer[n];
            for (int i = 0; i < n; i++) {
                ids[i] = i;
            }
            Arrays.sort(ids, (a, b) -> Integer.compare(perm[a], perm[b]));
            int fetched = g.intIn(0, n);
            int[] order = new int[fetched];
            double[] at = new double[fetched];
            double t = 0;
            for (int i = 0; i < fetched; i++) {
                order[i] = ids[i];
                t += g.intIn(0, 3) * 10; // ties included
                at[i] = t;
            }
            double[] when = new double[n];
            Arrays.fill(when, Double.NaN);
            for (int i = 0; i < fetched; i++) {
                when[order[i]] = at[i];
            }
            List<Double> model = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                double best = Double.NaN;
                for (int u = 0; u < n; u++) {
                    if (u != v && out.get(u).contains(v) && !Double.isNaN(when[u]) && !Double.isNaN(when[v])
                            && when[u] <= when[v] && (Double.isNaN(best) || when[u] < best)) {
                        best = when[u];
                    }
                }
                if (!Double.isNaN(best)) {
                    model.add(when[v] - best);
                }
            }
            model.sort(null);
            LinkLatency.Summary s = LinkLatency.of(offsets, targets, order, at);
            assertThat(s.pages()).as("seed %d", g.seed()).isEqualTo(model.size());
            if (model.isEmpty()) {
                assertThat(s.p50Ms()).isNaN();
                return;
            }
            assertThat(s.p1Ms()).isEqualTo(model.get((int) Math.ceil(0.01 * model.size()) - 1));
            assertThat(s.p10Ms()).isEqualTo(model.get((int) Math.ceil(0.10 * model.size()) - 1));
            assertThat(s.p50Ms()).as("seed %d", g.seed()).isEqualTo(model.get((int) Math.ceil(0.5 * model.size()) - 1));
        });
    }
}
