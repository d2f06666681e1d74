package io.github.kcrawler.scheduler.wheel;

import org.junit.jupiter.api.Test;

import static io.github.kcrawler.scheduler.wheel.ScoreBucketPool.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScoreBucketPoolTest {

    @Test
    void buckets_areMonotoneInTheScore_andSpanAtMostNineEighths() {
        assertThat(ScoreBucketPool.bucket(0)).isZero();
        assertThat(ScoreBucketPool.bucket(-3)).isZero();
        assertThat(ScoreBucketPool.bucket(Double.NaN)).isZero();
        assertThat(ScoreBucketPool.bucket(Double.MIN_VALUE)).isEqualTo(1);
        assertThat(ScoreBucketPool.bucket(Double.POSITIVE_INFINITY)).isEqualTo(ScoreBucketPool.BUCKETS - 1);
        int prev = 0;
        for (double s = 1e-15; s < 1e15; s *= 1.01) {
            int b = ScoreBucketPool.bucket(s);
            assertThat(b).isGreaterThanOrEqualTo(prev).isLessThan(ScoreBucketPool.BUCKETS);
            prev = b;
            assertThat(ScoreBucketPool.bucket(s * 1.126)).as("ratio 1.126 always changes bucket").isGreaterThan(b);
        }
        assertThat(ScoreBucketPool.bucket(1.0)).isEqualTo(ScoreBucketPool.bucket(1.12));
    }

    @Test
    void pollBest_takesBestBucketFirst_fifoInside() {
        ScoreBucketPool pool = new ScoreBucketPool(10);
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
        ScoreBucketPool pool = new ScoreBucketPool(3);
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
        ScoreBucketPool pool = new ScoreBucketPool(4);
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
        ScoreBucketPool pool = new ScoreBucketPool(1);
        assertThatThrownBy(() -> pool.offer(NONE, 1)).hasMessageContaining(String.valueOf(NONE));
        assertThatThrownBy(() -> new ScoreBucketPool(0)).hasMessageContaining("0");
        assertThat(pool.contains(NONE)).isFalse();
    }

    @Test
    void manyKeys_collidingInTheTable_surviveRemovals() {
        ScoreBucketPool pool = new ScoreBucketPool(1000);
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
