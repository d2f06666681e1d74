package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.StableBloomFilter;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight.Decrement;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The check behind {@code bench sbfl-decrement}: counter sums read from a filter against the sweep's exact sum. */
class CounterSumTest {
    @Test
    void laneSum_addsEveryLane() {
        assertThat(CounterSum.laneSum(-1L, 2)).isEqualTo(32 * 3);
        assertThat(CounterSum.laneSum(-1L, 4)).isEqualTo(16 * 15);
        assertThat(CounterSum.laneSum(0b10_01_11L, 2)).isEqualTo(2 + 1 + 3);
        assertThat(CounterSum.laneSum(0x0F_01L, 8)).isEqualTo(16);
    }

    @Test
    void sweptFilter_holdsExactlyTheSumOfItsDecrements() {
        PropertyCheck.forAll(200, gen -> {
            long done = gen.longIn(0, 6L << 10);
            for (int bits : new int[] {2, 4}) {
                for (Decrement mode : Decrement.values()) {
                    StableBloomFilterLight f = new StableBloomFilterLight(1 << 10, 8, 1.0, bits, mode);
                    f.fill(f.counterMax());
                    for (long left = done; left > 0; left -= 100) {
                        f.decrement(Math.min(100, left));
                    }
                    assertThat(CounterSum.of(f)).as("%s, %d bits, %d decrements", mode, bits, done)
                            .isEqualTo(CounterSum.afterSweep(1 << 10, f.counterMax(), done));
                }
            }
        });
    }

    @Test
    void shortenedSweep_isCaught() {
        StableBloomFilterLight f = new StableBloomFilterLight(1 << 10, 8, 1.0, 2, Decrement.SWAR);
        f.fill(3);
        f.decrement(1_000);
        assertThat(CounterSum.of(f)).isNotEqualTo(CounterSum.afterSweep(1 << 10, 3, 1_001));
        StableBloomFilter sbf = new StableBloomFilter(1 << 10, 8, 1.0, 2, 1L);
        sbf.fill(3);
        sbf.decrement(500);
        long lowered = 3L * (1 << 10) - CounterSum.of(sbf);
        assertThat(lowered).isPositive().isLessThanOrEqualTo(500);
    }
}
