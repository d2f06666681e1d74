package io.github.kcrawler.dedup.content;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountingBloomFilterTest {
    @Test
    void increment_saturatesAtFifteen() {
        CountingBloomFilter f = new CountingBloomFilter(100, 8);
        for (int i = 1; i <= 15; i++) {
            assertThat(f.increment(37)).isEqualTo(i);
        }
        assertThat(f.increment(37)).isEqualTo(15);
        assertThat(f.get(37)).isEqualTo(15);
    }

    @Test
    void decrement_leavesZeroAndSaturatedUnchanged() {
        CountingBloomFilter f = new CountingBloomFilter(100, 8);
        assertThat(f.decrement(5)).isZero();
        f.set(6, 15);
        assertThat(f.decrement(6)).isEqualTo(15);
        f.set(7, 3);
        assertThat(f.decrement(7)).isEqualTo(2);
    }

    @Test
    void counters_areIndependentAcrossLanesAndWords() {
        CountingBloomFilter f = new CountingBloomFilter(64, 8);
        for (int p = 0; p < 64; p++) {
            f.set(p, p % 16);
        }
        for (int p = 0; p < 64; p++) {
            assertThat(f.get(p)).as("position %d", p).isEqualTo(p % 16);
        }
        f.increment(15); // lane 15 of word 0 is already 15
        f.increment(16); // lane 0 of word 1
        assertThat(f.get(15)).isEqualTo(15);
        assertThat(f.get(16)).isEqualTo(1);
        assertThat(f.get(17)).isEqualTo(1);
    }

    @Test
    void memory_isHalfAByteACounter() {
        assertThat(new CountingBloomFilter(40_000_000, 8).memoryBytes()).isEqualTo(20_000_000);
        assertThat(CountingBloomFilter.forExpectedItems(2_000_000).counters()).isEqualTo(40_000_000);
        assertThat(CountingBloomFilter.forExpectedItems(2_000_000).hashes()).isEqualTo(8);
    }

    @Test
    void constructor_rejectsBadParametersByName() {
        assertThatThrownBy(() -> new CountingBloomFilter(8, 8)).hasMessageContaining("(m)").hasMessageContaining("8");
        assertThatThrownBy(() -> new CountingBloomFilter(1L << 31, 8)).hasMessageContaining("(m)");
        assertThatThrownBy(() -> new CountingBloomFilter(100, 0)).hasMessageContaining("(k)");
        assertThatThrownBy(() -> new CountingBloomFilter(100, 33)).hasMessageContaining("(k)");
        assertThatThrownBy(() -> new CountingBloomFilter(100, 8).set(1, 16)).hasMessageContaining("16");
        assertThatThrownBy(() -> CountingBloomFilter.forExpectedItems(0)).hasMessageContaining("0");
    }

    /** jqwik's default of 1,000 tries, as before. */
    @Test
    void positions_areInRangeAndDeterministic() {
        forAll(1_000, g -> positions_areInRangeAndDeterministic(
                g.anyLong(),
                g.anyLong(),
                g.intIn(9, 100_000),
                g.intIn(1, 8)));
    }

    void positions_areInRangeAndDeterministic(long hi, long lo, int m, int k) {
        CountingBloomFilter f = new CountingBloomFilter(m, k);
        int[] a = new int[k];
        int[] b = new int[k];
        f.positions(hi, lo, a);
        f.positions(hi, lo, b);
        assertThat(a).isEqualTo(b);
        for (int p : a) {
            assertThat(p).isBetween(0, m - 1);
        }
    }

    @Test
    void mightContain_isTrueAfterIncrementingAllPositions() {
        forAll(1_000, g -> mightContain_isTrueAfterIncrementingAllPositions(g.anyLong(), g.anyLong()));
    }

    void mightContain_isTrueAfterIncrementingAllPositions(long hi, long lo) {
        CountingBloomFilter f = new CountingBloomFilter(1000, 8);
        int[] pos = new int[8];
        f.positions(hi, lo, pos);
        assertThat(f.mightContain(hi, lo)).isFalse();
        for (int p : pos) {
            f.increment(p);
        }
        assertThat(f.mightContain(hi, lo)).isTrue();
    }

    @Test
    void falsePositiveRate_matchesTheoryAtPaperParameters() {
        int n = 100_000;
        CountingBloomFilter f = CountingBloomFilter.forExpectedItems(n);
        SplittableRandom r = new SplittableRandom(1);
        int[] pos = new int[8];
        for (int i = 0; i < n; i++) {
            f.positions(r.nextLong(), r.nextLong(), pos);
            for (int p : pos) {
                f.increment(p);
            }
        }
        int probes = 1_000_000;
        int fp = 0;
        for (int i = 0; i < probes; i++) {
            if (f.mightContain(r.nextLong(), r.nextLong())) {
                fp++;
            }
        }
        double theory = Math.pow(1 - Math.exp(-8.0 / 20), 8); // 5.7e-4
        assertThat(fp / (double) probes).isBetween(theory / 2, theory * 2);
    }
}
