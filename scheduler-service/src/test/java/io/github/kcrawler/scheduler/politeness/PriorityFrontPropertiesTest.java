package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool against an exact model: a list of (fp, bucket, arrival) sorted by bucket descending then arrival, where
 * an arrival is renewed only when an entry changes bucket. pollBest is the model's first, eviction its last; the
 * capacity is never exceeded. Held entries (holdBest, add held) are out of the order: never polled or evicted, still
 * counted and found; a requeued entry arrives anew at its score's bucket; a full pool of held entries refuses.
 */
class PriorityFrontPropertiesTest {

    record Op(int kind, long fp, double score) {
    }

    static final class Entry {
        final long fp;
        int bucket;
        long arrival;
        double score;
        boolean held;

        Entry(long fp, double score, long arrival) {
            this.fp = fp;
            this.score = score;
            this.bucket = PriorityFront.bucket(score);
            this.arrival = arrival;
        }
    }

    /** Up to 300 ops: kind 0..12, fingerprint -30..30, a score in [0, 1000] or one of the special scores (even odds). */
    static List<Op> ops(Gen g) {
        return g.list(0, 300, x -> new Op(x.intIn(0, 12), x.longIn(-30, 30), x.bool() ? x.doubleIn(0, 1000)
                : x.ofDoubles(0.0, 1.0, 1.05, 2.0, 1e-9, 1e12, -1.0)));
    }

    @Test
    void behavesLikeTheExactBucketModel() {
        forAll(400, g -> behavesLikeTheExactBucketModel(g.intIn(1, 12), ops(g)));
    }

    void behavesLikeTheExactBucketModel(int capacity, List<Op> ops) {
        PriorityFront pool = new PriorityFront(capacity);
        Map<Long, Entry> model = new HashMap<>();
        long clock = 0;
        Comparator<Entry> order = Comparator.<Entry>comparingInt(e -> -e.bucket).thenComparingLong(e -> e.arrival);
        for (Op op : ops) {
            if (op.kind() <= 4) { // offer
                Entry present = model.get(op.fp());
                long expected;
                if (present != null) {
                    rescore(present, op.score(), clock++);
                    expected = PriorityFront.NONE;
                } else if (model.size() == capacity && model.values().stream().allMatch(x -> x.held)) {
                    expected = op.fp(); // nothing waits, nothing can make room
                } else {
                    Entry e = new Entry(op.fp(), op.score(), clock++);
                    model.put(op.fp(), e);
                    expected = PriorityFront.NONE;
                    if (model.size() > capacity) {
                        Entry worst = model.values().stream().filter(x -> !x.held).max(order).orElseThrow();
                        model.remove(worst.fp);
                        expected = worst.fp;
                    }
                }
                assertThat(pool.offer(op.fp(), op.score())).isEqualTo(expected);
            } else if (op.kind() <= 6) {
                Entry present = model.get(op.fp());
                if (present != null) {
                    rescore(present, op.score(), clock++);
                }
                assertThat(pool.rescore(op.fp(), op.score())).isEqualTo(present != null);
            } else if (op.kind() == 7) {
                assertThat(pool.remove(op.fp())).isEqualTo(model.remove(op.fp()) != null);
            } else if (op.kind() <= 9) {
                Entry best = model.values().stream().filter(x -> !x.held).min(order).orElse(null);
                if (best != null) {
                    model.remove(best.fp);
                }
                assertThat(pool.pollBest()).isEqualTo(best == null ? PriorityFront.NONE : best.fp);
            } else if (op.kind() == 10) { // hold the best
                Entry best = model.values().stream().filter(x -> !x.held).min(order).orElse(null);
                int slot = pool.holdBest();
                if (best == null) {
                    assertThat(slot).isEqualTo(-1);
                } else {
                    best.held = true;
                    assertThat(pool.keyAt(slot)).isEqualTo(best.fp);
                    assertThat(pool.isHeld(slot)).isTrue();
                }
            } else if (op.kind() == 11) { // requeue a held entry, if that fp is one
                Entry e = model.get(op.fp());
                if (e != null && e.held) {
                    pool.requeue(pool.slotOf(op.fp()));
                    e.held = false;
                    e.bucket = PriorityFront.bucket(e.score);
                    e.arrival = clock++;
                }
            } else if (model.get(op.fp()) == null && model.size() < capacity) { // add held
                int slot = pool.add(op.fp(), op.score(), true);
                Entry e = new Entry(op.fp(), op.score(), clock++);
                e.held = true;
                model.put(op.fp(), e);
                assertThat(pool.slotOf(op.fp())).isEqualTo(slot);
            }
            pool.checkInvariants();
            assertThat(pool.size()).isEqualTo(model.size()).isLessThanOrEqualTo(capacity);
            assertThat(pool.held()).isEqualTo(model.values().stream().filter(x -> x.held).count());
            Entry worst = model.values().stream().filter(x -> !x.held).max(order).orElse(null);
            assertThat(pool.worstSlot() < 0 ? null : pool.keyAt(pool.worstSlot()))
                    .isEqualTo(worst == null ? null : worst.fp);
            for (Entry e : new ArrayList<>(model.values())) {
                assertThat(pool.contains(e.fp)).isTrue();
                assertThat(pool.scoreOf(e.fp)).isEqualTo(e.score);
            }
        }
    }

    private static void rescore(Entry e, double score, long clock) {
        int b = PriorityFront.bucket(score);
        e.score = score;
        if (!e.held && b != e.bucket) {
            e.bucket = b;
            e.arrival = clock;
        }
    }
}
