package io.github.kcrawler.scheduler.politeness;

import org.junit.jupiter.api.Test;

import static io.github.kcrawler.scheduler.politeness.PriorityFront.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PriorityFrontTest {

    @Test
    void buckets_areMonotoneInTheScore_andSpanAtMostNineEighths() {
        assertThat(PriorityFront.bucket(0)).isZero();
        assertThat(PriorityFront.bucket(-3)).isZero();
        assertThat(PriorityFront.bucket(Double.NaN)).isZero();
        assertThat(PriorityFront.bucket(Double.MIN_VALUE)).isEqualTo(1);
        assertThat(PriorityFront.bucket(Double.POSITIVE_INFINITY)).isEqualTo(PriorityFront.BUCKETS - 1);
        int prev = 0;
        for (double s = 1e-15; s < 1e15; s *= 1.01) {
            int b = PriorityFront.bucket(s);
            assertThat(b).isGreaterThanOrEqualTo(prev).isLessThan(PriorityFront.BUCKETS);
            prev = b;
            assertThat(PriorityFront.bucket(s * 1.126)).as("ratio 1.126 always changes bucket").isGreaterThan(b);
        }
        assertThat(PriorityFront.bucket(1.0)).isEqualTo(PriorityFront.bucket(1.12));
    }

    @Test
    void pollBest_takesBestBucketFirst_fifoInside() {
        PriorityFront pool = new PriorityFront(10);
        pool.offer(1, 1.0);
        pool.offer(2, 100.0);
        pool.offer(3, 1.01);
        pool.offer(4, 100.5);
        assertThat(pool.pollBest()).isEqualTo(2);
        assertThat(pool.pollBest()).isEqualTo(4);
        assertThat(pool.pollBest()).isEqualTo(1);
        assertThat(pool.pollBest()).isEqualTo(3);
        assertThat(pool.pollBest()).isEqualTo(NONE);
    }

    @Test
    void offerWhenFull_evictsTheWorst_orRejectsTheNewcomer() {
        PriorityFront pool = new PriorityFront(3);
        assertThat(pool.offer(1, 5)).isEqualTo(NONE);
        assertThat(pool.offer(2, 1)).isEqualTo(NONE);
        assertThat(pool.offer(3, 1)).isEqualTo(NONE);
        assertThat(pool.offer(4, 1)).as("same bucket as the worst: the newcomer is last").isEqualTo(4);
        assertThat(pool.offer(5, 0.1)).isEqualTo(5);
        assertThat(pool.offer(6, 9)).as("newest of the lowest bucket").isEqualTo(3);
        assertThat(pool.size()).isEqualTo(3);
        assertThat(pool.contains(3)).isFalse();
        assertThat(pool.contains(6)).isTrue();
    }

    @Test
    void rescoreAndRemove_changeOnlyPresentEntries() {
        PriorityFront pool = new PriorityFront(4);
        pool.offer(1, 1);
        pool.offer(2, 2);
        assertThat(pool.rescore(9, 5)).isFalse();
        assertThat(pool.rescore(1, 50)).isTrue();
        assertThat(pool.scoreOf(1)).isEqualTo(50);
        assertThat(pool.peekBest()).isEqualTo(1);
        assertThat(pool.remove(1)).isTrue();
        assertThat(pool.remove(1)).isFalse();
        assertThat(pool.scoreOf(1)).isNaN();
        assertThat(pool.offer(2, 70)).as("offer of a present key rescores").isEqualTo(NONE);
        assertThat(pool.size()).isEqualTo(1);
        assertThat(pool.scoreOf(2)).isEqualTo(70);
    }

    @Test
    void reservedFingerprintAndBadCapacity_areRejected() {
        PriorityFront pool = new PriorityFront(1);
        assertThatThrownBy(() -> pool.offer(NONE, 1)).hasMessageContaining(String.valueOf(NONE));
        assertThatThrownBy(() -> new PriorityFront(0)).hasMessageContaining("0");
        assertThat(pool.contains(NONE)).isFalse();
    }

    @Test
    void manyKeys_collidingInTheTable_surviveRemovals() {
        PriorityFront pool = new PriorityFront(1000);
        for (long k = 0; k < 1000; k++) {
            pool.offer(k << 40, k); // keys differing only in high bits
        }
        for (long k = 0; k < 1000; k += 2) {
            assertThat(pool.remove(k << 40)).isTrue();
        }
        pool.checkInvariants();
        for (long k = 0; k < 1000; k++) {
            assertThat(pool.contains(k << 40)).isEqualTo(k % 2 == 1);
        }
    }
}
