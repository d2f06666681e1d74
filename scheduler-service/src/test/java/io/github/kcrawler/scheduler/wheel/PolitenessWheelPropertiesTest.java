package io.github.kcrawler.scheduler.wheel;

import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random interleavings of Enqueue and Next against {@link WheelModel} (DESIGN §4.5's pseudo-code with unbounded
 * per-step lists) and against the paper's guarantees stated independently of the rule: one residue never in two
 * consecutive steps nor twice in one, at most B/2 items per residue, at most B·H/2 in total, FIFO per queue, O(1)
 * work, and a restore by re-enqueue that reproduces every future batch.
 */
class PolitenessWheelPropertiesTest {

    /** An op is an IP key (enqueue) or -1 (next). */
    static List<Long> ops(Gen g) {
        return g.list(0, 400, x -> x.weighted(3, 1) == 0 ? x.longIn(-40, 40) : -1000L);
    }

    @Test
    void matchesTheModelAndKeepsThePapersGuarantees() {
        forAll(300, g -> matchesTheModelAndKeepsThePapersGuarantees(g.intIn(2, 12), g.intIn(1, 8), ops(g)));
    }

    void matchesTheModelAndKeepsThePapersGuarantees(int b, int halfH, List<Long> ops) {
        int h = 2 * halfH;
        PolitenessWheel w = new PolitenessWheel(b, h);
        WheelModel model = new WheelModel(b, h);
        Map<Long, Long> ipOf = new HashMap<>();
        Map<Long, Long> lastStepOfResidue = new HashMap<>();
        Map<Long, Long> stepOf = new HashMap<>();
        long[] out = new long[w.maxBatch()];
        long handle = 0;
        long calls = 0;
        long accepted = 0;
        long handedOut = 0;
        for (long op : ops) {
            calls++;
            if (op == -1000L) {
                List<Long> expected = model.next();
                int c = w.next(out);
                handedOut += c;
                List<Long> got = new ArrayList<>();
                Set<Integer> residues = new HashSet<>();
                for (int i = 0; i < c; i++) {
                    got.add(out[i]);
                    long r = w.residueOf(ipOf.get(out[i]));
                    assertThat(residues.add((int) r)).as("residue %d twice in step %d", r, w.step()).isTrue();
                    Long last = lastStepOfResidue.put(r, w.step());
                    if (last != null) {
                        assertThat(w.step() - last).as("residue %d in consecutive steps", r).isGreaterThanOrEqualTo(2);
                    }
                    assertThat(stepOf.remove(out[i])).isEqualTo(w.step());
                }
                assertThat(got).as("FIFO batch of step %d", w.step()).isEqualTo(expected);
            } else {
                long hd = handle++;
                ipOf.put(hd, op);
                long step = w.schedule(op, hd);
                assertThat(step).isEqualTo(model.enqueue(op, hd));
                if (step != PolitenessWheel.DROPPED) {
                    accepted++;
                    stepOf.put(hd, step);
                    assertThat(step).isBetween(w.step() + 1, w.step() + b);
                }
            }
            w.checkInvariants();
            assertThat(w.size()).isEqualTo(model.size()).isLessThanOrEqualTo((int) w.capacity());
            Map<Long, Integer> perResidue = new HashMap<>();
            stepOf.keySet().forEach(hd -> perResidue.merge((long) w.residueOf(ipOf.get(hd)), 1, Integer::sum));
            perResidue.values().forEach(n -> assertThat(n).isLessThanOrEqualTo(w.queues() / 2));
        }
        assertThat(w.dropped()).isEqualTo(handle - accepted);
        // O(1): one unit per call plus one per item moved (accepted, handed out, or copied by an amortised growth)
        assertThat(w.work()).isLessThanOrEqualTo(calls + 3 * accepted + handedOut);
    }

    @Test
    void restoreByReEnqueueInStepOrder_reproducesFutureBatches() {
        forAll(200, g -> restoreByReEnqueueInStepOrder_reproducesFutureBatches(
                g.intIn(3, 12),
                g.intIn(1, 6),
                ops(g),
                ops(g)));
    }

    void restoreByReEnqueueInStepOrder_reproducesFutureBatches(int b, int halfH, List<Long> before, List<Long> after) {
        int h = 2 * halfH;
        PolitenessWheel w = new PolitenessWheel(b, h);
        LinkedHashMap<Long, long[]> pending = new LinkedHashMap<>(); // handle -> {ip, step}, in enqueue order
        long[] out = new long[w.maxBatch()];
        long handle = 0;
        for (long op : before) {
            if (op == -1000L) {
                int c = w.next(out);
                for (int i = 0; i < c; i++) {
                    pending.remove(out[i]);
                }
            } else {
                long step = w.schedule(op, handle);
                if (step != PolitenessWheel.DROPPED) {
                    pending.put(handle, new long[] {op, step});
                }
                handle++;
            }
        }
        PolitenessWheel restored = PolitenessWheel.startingAt(b, h, w.step());
        List<Map.Entry<Long, long[]>> items = new ArrayList<>(pending.entrySet());
        items.sort(Comparator.comparingLong(e -> e.getValue()[1])); // stable: FIFO within a step
        for (Map.Entry<Long, long[]> e : items) {
            assertThat(restored.schedule(e.getValue()[0], e.getKey())).as("restored step").isEqualTo(e.getValue()[1]);
        }
        assertThat(restored.dropped()).isZero();
        assertThat(restored.size()).isEqualTo(w.size());
        long[] out2 = new long[w.maxBatch()];
        for (long op : after) {
            if (op == -1000L) {
                int c = w.next(out);
                assertThat(restored.next(out2)).isEqualTo(c);
                for (int i = 0; i < c; i++) {
                    assertThat(out2[i]).isEqualTo(out[i]);
                }
            } else {
                assertThat(restored.schedule(op, handle)).isEqualTo(w.schedule(op, handle));
                handle++;
            }
        }
    }
}
