package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The crawled graph's PageRank shared by the batch-PR baseline and IPR-NSR, against a model that keeps the known
 * URLs, the fetched pages' distinct links and the values in maps and computes each power iteration straight from
 * its definition; and the mass identity its Javadoc states.
 */
class CrawledGraphPageRankTest {

    private static final double D = 0.85;

    /** The crawl of one generated graph: breadth-first from the seeds, some values raised between fetches. */
    @Test
    void everyRecomputationEqualsTheDefinition_andMapsTheMassAsStated() {
        forAll(200, g -> crawlAndCompare(g, CrawlOrderingPropertiesTest.cases(g)));
    }

    private static void crawlAndCompare(Gen g, CrawlOrderingPropertiesTest.Case c) {
        int n = c.adjacency().length;
        CrawledGraphPageRank graph = new CrawledGraphPageRank(n, c.recomputeEvery(), D);
        Model model = new Model();
        BitSet seen = new BitSet(n);
        BitSet fetched = new BitSet(n);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s : c.seeds()) {
            if (!seen.get(s)) {
                seen.set(s);
                queue.add(s);
                graph.discovered(s);
                model.known.add(s);
            }
        }
        int fetches = 0;
        while (!queue.isEmpty()) {
            int p = queue.poll();
            int[] links = c.adjacency()[p];
            for (int q : links) {
                if (!seen.get(q)) {
                    seen.set(q);
                    queue.add(q);
                    graph.discovered(q);
                    model.known.add(q);
                }
            }
            fetched.set(p);
            boolean due = graph.fetched(p, links, 0, links.length);
            model.fetched(p, links);
            assertThat(due).as("due after fetch %d of every %d", fetches + 1, c.recomputeEvery())
                    .isEqualTo(++fetches % c.recomputeEvery() == 0);
            if (g.bool()) { // IPR-NSR raises URLs between recomputations
                int probe = links.length == 0 ? p : links[0];
                assertThat(graph.valueOrInitial(probe)).isCloseTo(model.start(probe), within(1e-12));
                int q = links.length == 0 ? p : links[g.intIn(0, links.length - 1)];
                double amount = g.doubleIn(0, 0.1);
                graph.raise(q, amount);
                model.values.merge(q, amount, Double::sum);
            }
            if (due) {
                double before = model.massWithFirstValues();
                graph.recompute(fetched::get);
                model.recompute(fetched::get);
                for (int v : model.known) {
                    assertThat(graph.values()[v]).as("value of %d", v).isCloseTo(model.values.get(v), within(1e-12));
                    assertThat(graph.valueOrInitial(v)).isEqualTo(graph.values()[v]);
                }
                assertThat(model.massWithFirstValues()).isCloseTo((1 - D) + D * before, within(1e-12));
            }
        }
        assertThat(graph.recomputations()).isEqualTo(fetches / c.recomputeEvery());
        assertThat(graph.knownCount()).isEqualTo(seen.cardinality());
    }

    @Test
    void aUrlNeverValuedStartsAtOneOverTheKnownUrls() {
        CrawledGraphPageRank graph = new CrawledGraphPageRank(4, 10, D);
        graph.discovered(0);
        graph.discovered(3);
        assertThat(graph.valueOrInitial(3)).isEqualTo(0.5);
        graph.discovered(1);
        assertThat(graph.valueOrInitial(3)).isEqualTo(1.0 / 3);
    }

    @Test
    void rejectsASchedulePaper002DoesNotHave() {
        assertThatThrownBy(() -> new CrawledGraphPageRank(4, 0, D)).hasMessageContaining("recomputeEvery");
        assertThatThrownBy(() -> new CrawledGraphPageRank(4, 1, 1.0)).hasMessageContaining("damping");
        assertThatThrownBy(() -> new CrawledGraphPageRank(4, 1, 0.0)).hasMessageContaining("damping");
    }

    /**
     * Known URLs in discovery order, each fetched page's distinct links, values by URL (absent: 0) and the URLs a
     * recomputation has valued. A raise before a URL's first recomputation is overwritten by its start value 1/N.
     */
    private static final class Model {
        final List<Integer> known = new ArrayList<>();
        final Map<Integer, Set<Integer>> links = new HashMap<>();
        final Map<Integer, Double> values = new HashMap<>();
        final Set<Integer> valued = new java.util.HashSet<>();

        double start(int v) {
            return valued.contains(v) ? values.getOrDefault(v, 0.0) : 1.0 / known.size();
        }

        void fetched(int page, int[] pageLinks) {
            Set<Integer> distinct = new LinkedHashSet<>();
            for (int q : pageLinks) {
                distinct.add(q);
            }
            links.put(page, distinct);
        }

        /** The sum of the known URLs' values, a URL never valued counted at 1/N. */
        double massWithFirstValues() {
            double sum = 0;
            for (int v : known) {
                sum += start(v);
            }
            return sum;
        }

        /** PR(v) = (1 − d)/N + d · (Σ dangling PR)/N + d · Σ_{u → v} PR(u)/outdeg(u), over the known URLs. */
        void recompute(java.util.function.IntPredicate isFetched) {
            int size = known.size();
            Map<Integer, Double> old = new HashMap<>();
            for (int v : known) {
                old.put(v, start(v));
            }
            double dangling = 0;
            for (int v : known) {
                if (!isFetched.test(v) || links.get(v).isEmpty()) {
                    dangling += old.get(v);
                }
            }
            for (int v : known) {
                double in = 0;
                for (int u : known) {
                    if (isFetched.test(u) && links.get(u).contains(v)) {
                        in += D * old.get(u) / links.get(u).size();
                    }
                }
                values.put(v, (1 - D) / size + D * dangling / size + in);
            }
            valued.addAll(known);
        }
    }
}
