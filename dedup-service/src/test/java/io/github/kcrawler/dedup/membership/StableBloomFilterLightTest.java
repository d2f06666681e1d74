package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.membership.StableBloomFilterLight.Decrement;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SBFL mechanics: SWAR equals scalar, exact fractional p, forget, double hashing, snapshots. */
class StableBloomFilterLightTest {

    /** Per-lane reference: saturating decrement of each {@code bits}-wide counter, one at a time. */
    private static long scalarDecrementWord(long word, int bits) {
        long max = (1L << bits) - 1;
        long out = 0;
        for (int shift = 0; shift < 64; shift += bits) {
            long c = (word >>> shift) & max;
            out |= (c == 0 ? 0 : c - 1) << shift;
        }
        return out;
    }

    @Test
    void swarDecrement_equalsScalar_on2BitCounters() {
        forAll(2_000, g -> swarDecrement_equalsScalar_on2BitCounters(g.anyLong()));
    }

    void swarDecrement_equalsScalar_on2BitCounters(long word) {
        assertThat(StableBloomFilterLight.swarDecrement(word, 2)).isEqualTo(scalarDecrementWord(word, 2));
        // the paper's form, literally
        assertThat(word - ((word | (word >>> 1)) & 0x5555555555555555L)).isEqualTo(scalarDecrementWord(word, 2));
    }

    @Test
    void swarDecrement_equalsScalar_on4BitCounters() {
        forAll(2_000, g -> swarDecrement_equalsScalar_on4BitCounters(g.anyLong()));
    }

    void swarDecrement_equalsScalar_on4BitCounters(long word) {
        assertThat(StableBloomFilterLight.swarDecrement(word, 4)).isEqualTo(scalarDecrementWord(word, 4));
    }

    @Test
    void swarDecrement_equalsScalar_on1And8BitCounters() {
        forAll(500, g -> swarDecrement_equalsScalar_on1And8BitCounters(g.anyLong()));
    }

    void swarDecrement_equalsScalar_on1And8BitCounters(long word) {
        assertThat(StableBloomFilterLight.swarDecrement(word, 1)).isEqualTo(scalarDecrementWord(word, 1));
        assertThat(StableBloomFilterLight.swarDecrement(word, 8)).isEqualTo(scalarDecrementWord(word, 8));
    }

    @Test
    void swarDecrement_edgeWords() {
        for (int bits : new int[] {1, 2, 4, 8}) {
            for (long w : new long[] {0L, -1L, 0x5555555555555555L, 0xAAAAAAAAAAAAAAAAL, 1L, Long.MIN_VALUE}) {
                assertThat(StableBloomFilterLight.swarDecrement(w, bits)).as("bits %d word %x", bits, w)
                        .isEqualTo(scalarDecrementWord(w, bits));
            }
        }
    }

    /** Whole filters: random counters, a run of decrements from a random cursor, SWAR vs scalar. */
    @Test
    void swarRun_equalsScalarRun_fromAnyCursor() {
        forAll(200, g -> swarRun_equalsScalarRun_fromAnyCursor(
                bitsChoice(g),
                g.anyLong(),
                g.intIn(0, 5_000),
                g.intIn(0, 5_000)));
    }

    void swarRun_equalsScalarRun_fromAnyCursor(int bits, long seed, int firstRun, int run) {
        long m = 1L << 10;
        StableBloomFilterLight swar = new StableBloomFilterLight(m, 3, 1.0, bits, Decrement.SWAR);
        StableBloomFilterLight scalar = new StableBloomFilterLight(m, 3, 1.0, bits, Decrement.SCALAR);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < swar.words.length; i++) {
            long w = random.nextLong();
            swar.words[i] = w;
            scalar.words[i] = w;
        }
        swar.decrement(firstRun); // moves the cursor to an arbitrary lane
        scalar.decrement(firstRun);
        assertThat(swar.cursor()).isEqualTo(scalar.cursor()).isEqualTo(firstRun % m);
        swar.decrement(run);
        scalar.decrement(run);
        assertThat(swar.words).isEqualTo(scalar.words);
        assertThat(swar.cursor()).isEqualTo(scalar.cursor());
    }

    static int bitsChoice(io.github.kcrawler.testing.Gen g) {
        return g.ofInts(1, 2, 4, 8);
    }

    @Test
    void fractionalP_isCarriedExactly() {
        forAll(100, g -> fractionalP_isCarriedExactly(g.longIn(1, 1L << 40), g.intIn(1, 3_000)));
    }

    void fractionalP_isCarriedExactly(long pTimes2to32, int insertions) {
        double p = pTimes2to32 / (double) (1L << 32); // exactly representable: (0, 256]
        StableBloomFilterLight f = new StableBloomFilterLight(1L << 12, 2, p, 2, Decrement.SWAR);
        long total = 0;
        for (int i = 0; i < insertions; i++) {
            total += f.nextDecrementCount();
        }
        // exactly floor(n * p) counters after n insertions: the fraction is never lost nor rounded up
        java.math.BigInteger exact = java.math.BigInteger.valueOf(pTimes2to32)
                .multiply(java.math.BigInteger.valueOf(insertions)).shiftRight(32);
        assertThat(total).isEqualTo(exact.longValueExact());
    }

    @Test
    void cursor_advancesByP_perInsertion_andWraps() {
        StableBloomFilterLight f = new StableBloomFilterLight(1L << 8, 4, 2.5, 2, Decrement.SWAR);
        f.put(1);
        assertThat(f.cursor()).isEqualTo(2);
        f.put(2);
        assertThat(f.cursor()).isEqualTo(5);
        for (int i = 0; i < 200; i++) {
            f.put(i);
        }
        assertThat(f.cursor()).isEqualTo((5 + 500) % 256);
    }

    @Test
    void put_thenMightContain_untilDecayed() {
        // p = 1 on m = 64: every counter is decremented once every 64 insertions, so an element lasts
        // at least (Max - 1) * 64 insertions after its put and at most Max * 64
        StableBloomFilterLight f = new StableBloomFilterLight(64, 1, 1.0, 2, Decrement.SWAR);
        f.put(42L);
        int survived = 0;
        while (f.mightContain(42L) && survived < 1_000) {
            f.decrement(1);
            survived++;
        }
        assertThat(survived).isBetween(2 * 64, 3 * 64);
    }

    @Test
    void kPositions_areDistinct_andForgetZeroesExactlyThem() {
        StableBloomFilterLight f = new StableBloomFilterLight(1L << 6, 8, 0.0, 4, Decrement.SWAR);
        for (long fp = 0; fp < 1_000; fp++) {
            f.clearCounters();
            f.put(fp * 31 + 7);
            assertThat(f.counters() - f.zeroCounters()).as("fp %d", fp).isEqualTo(8);
            assertThat(f.mightContain(fp * 31 + 7)).isTrue();
            f.forget(fp * 31 + 7);
            assertThat(f.zeroCounters()).isEqualTo(f.counters());
            assertThat(f.mightContain(fp * 31 + 7)).isFalse();
        }
    }

    @Test
    void put_setsItsCountersToMax_andReportsWhetherItWasNew() {
        StableBloomFilterLight f = new StableBloomFilterLight(1L << 16, 4, 0.0, 4, Decrement.SWAR);
        assertThat(f.put(5L)).isTrue();
        assertThat(f.put(5L)).isFalse();
        long set = 0;
        for (long i = 0; i < f.counters(); i++) {
            int c = f.counter(i);
            assertThat(c).isIn(0, 15);
            set += c == 15 ? 1 : 0;
        }
        assertThat(set).isEqualTo(4);
    }

    @Test
    void snapshot_roundTrips_andRefusesAnotherGeometry() throws IOException {
        StableBloomFilterLight f = StableBloomFilterLight.forTargetFpr(1L << 12, 4, 0.01, 2);
        for (long i = 0; i < 777; i++) {
            f.put(i * 0x9E3779B97F4A7C15L);
        }
        byte[] bytes = snapshot(f);
        StableBloomFilterLight copy = StableBloomFilterLight.forTargetFpr(1L << 12, 4, 0.01, 2);
        copy.readFrom(new DataInputStream(new ByteArrayInputStream(bytes)));
        assertThat(copy.words).isEqualTo(f.words);
        assertThat(copy.cursor()).isEqualTo(f.cursor());
        f.put(1L);
        copy.put(1L);
        assertThat(copy.words).isEqualTo(f.words); // the carried fraction was restored too

        StableBloomFilterLight other = StableBloomFilterLight.forTargetFpr(1L << 12, 8, 0.01, 2);
        other.put(3L);
        assertThatThrownBy(() -> other.readFrom(new DataInputStream(new ByteArrayInputStream(bytes))))
                .isInstanceOf(IOException.class).hasMessageContaining("k=4").hasMessageContaining("k=8");
        assertThat(other.zeroCounters()).isEqualTo(other.counters());
    }

    @Test
    void badParameters_areRejectedByName() {
        assertThatThrownBy(() -> new StableBloomFilterLight(1000, 4, 1.0, 2, Decrement.SWAR))
                .hasMessageContaining("power of two").hasMessageContaining("1000");
        assertThatThrownBy(() -> new StableBloomFilterLight(1 << 10, 4, 1.0, 3, Decrement.SWAR))
                .hasMessageContaining("was 3");
        assertThatThrownBy(() -> new StableBloomFilterLight(1 << 10, 0, 1.0, 2, Decrement.SWAR))
                .hasMessageContaining("(k)");
        assertThatThrownBy(() -> new StableBloomFilterLight(1 << 10, 4, Double.NaN, 2, Decrement.SWAR))
                .hasMessageContaining("(p)");
    }

    private static byte[] snapshot(StableCounterFilter f) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        f.writeTo(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }
}
