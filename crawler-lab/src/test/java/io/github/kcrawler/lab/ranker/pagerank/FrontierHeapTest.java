package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** The indexed heap fuzzed against a brute-force model (scan for the best entry), removals of any node included. */
class FrontierHeapTest {

    private static final int NODES = 40;

    @Test
    void behavesLikeTheModel() {
        forAll(300, g -> behavesLikeTheModel(ops(g)));
    }

    void behavesLikeTheModel(List<int[]> ops) {
        FrontierHeap heap = new FrontierHeap(NODES);
        Map<Integer, double[]> model = new HashMap<>(); // node -> {priority, order}
        long order = 0;
        for (int[] op : ops) {
            int node = op[1];
            double prio = op[2] / 4.0; // coarse values: many ties
            switch (op[0]) {
                case 0 -> {
                    if (!model.containsKey(node)) {
                        heap.insert(node, prio, order);
                        model.put(node, new double[] {prio, order});
                        order++;
                    }
                }
                case 1 -> {
                    if (model.containsKey(node)) {
                        heap.update(node, prio);
                        model.get(node)[0] = prio;
                    }
                }
                case 3 -> {
                    if (model.containsKey(node)) {
                        assertThat(heap.orderKey(node)).isEqualTo((long) model.get(node)[1]);
                        heap.remove(node);
                        model.remove(node);
                    }
                    assertThat(heap.contains(node)).isFalse();
                }
                default -> {
                    int expected = best(model);
                    assertThat(heap.peek()).isEqualTo(expected);
                    assertThat(heap.pollMax()).isEqualTo(expected);
                    model.remove(expected);
                }
            }
            heap.checkInvariants();
            assertThat(heap.size()).isEqualTo(model.size());
        }
        while (!model.isEmpty()) {
            int expected = best(model);
            assertThat(heap.pollMax()).isEqualTo(expected);
            model.remove(expected);
        }
        assertThat(heap.pollMax()).isEqualTo(-1);
    }

    @Test
    void reprioritizeRestoresOrder() {
        forAll(100, g -> reprioritizeRestoresOrder(ops(g)));
    }

    void reprioritizeRestoresOrder(List<int[]> ops) {
        FrontierHeap heap = new FrontierHeap(NODES);
        double[] prio = new double[NODES];
        Map<Integer, double[]> model = new HashMap<>();
        long order = 0;
        for (int[] op : ops) {
            if (!model.containsKey(op[1])) {
                heap.insert(op[1], 0.0, order);
                model.put(op[1], new double[] {0.0, order++});
            }
            prio[op[1]] = op[2];
        }
        heap.reprioritize(prio);
        model.forEach((node, v) -> v[0] = prio[node]);
        heap.checkInvariants();
        while (!model.isEmpty()) {
            int expected = best(model);
            assertThat(heap.pollMax()).isEqualTo(expected);
            model.remove(expected);
        }
    }

    private static int best(Map<Integer, double[]> model) {
        int best = -1;
        for (Map.Entry<Integer, double[]> e : model.entrySet()) {
            if (best < 0) {
                best = e.getKey();
                continue;
            }
            double[] b = model.get(best);
            double[] v = e.getValue();
            if (v[0] > b[0] || (v[0] == b[0] && v[1] < b[1])) {
                best = e.getKey();
            }
        }
        return best;
    }

    /** Up to 120 ops {kind 0..3 (insert, update, poll, remove), node, priority 0..12}. */
    static List<int[]> ops(Gen g) {
        return g.list(0, 120, x -> new int[] {x.intIn(0, 3), x.intIn(0, NODES - 1), x.intIn(0, 12)});
    }
}
