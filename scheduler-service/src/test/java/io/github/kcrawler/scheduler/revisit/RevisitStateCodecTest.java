package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.serde.BinaryCodec;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RevisitStateCodec}: the binary revisit record round-trips every state (nulls, validators at their 256-byte
 * bound, counts at {@link RevisitMemo#MAX_COUNT}, any time), and a truncated or corrupted value is refused with a
 * reason — never an exception. Seeded properties (PropertyCheck: the seed prints; rerun one try with -Dkc.seed).
 */
public class RevisitStateCodecTest {

    /** A string of valid UTF-16 (no unpaired surrogate), so its UTF-8 form round-trips exactly. */
    public static String text(Gen g, int min, int max) {
        return g.utf8Safe(min, max);
    }

    public static String validator(Gen g) {
        return switch (g.intIn(0, 3)) {
            case 0 -> null;
            case 1 -> "\"" + "v".repeat(RevisitMemo.MAX_VALIDATOR_BYTES - 2) + "\""; // at the bound
            case 2 -> "";
            default -> text(g, 0, 40);
        };
    }

    public static long count(Gen g) {
        return g.bool() ? g.longIn(0, RevisitMemo.MAX_COUNT) : g.of(0L, RevisitMemo.MAX_COUNT, 1L);
    }

    static RevisitState randomState(Gen g) {
        String hash = switch (g.intIn(0, 3)) {
            case 0 -> null;
            case 1 -> "0123456789abcdef0123456789abcdef".substring(0, 32); // stored as 16 raw bytes
            case 2 -> String.format("%016x%016x", g.anyLong(), g.anyLong());
            default -> text(g, 0, 40); // anything else is stored as text
        };
        ChangeIntervals intervals;
        switch (g.intIn(0, 3)) {
            case 0 -> intervals = null;
            case 1 -> intervals = ChangeIntervals.EMPTY;
            case 2 -> {
                long[] full = new long[ChangeIntervals.BUCKETS];
                Arrays.fill(full, RevisitMemo.MAX_COUNT);
                intervals = ChangeIntervals.of(full);
            }
            default -> {
                long[] some = new long[g.intIn(0, ChangeIntervals.BUCKETS)];
                for (int i = 0; i < some.length; i++) {
                    some[i] = count(g);
                }
                intervals = ChangeIntervals.of(some);
            }
        }
        return new RevisitState(g.intIn(0, RevisitState.VERSION + 1), "http://" + text(g, 1, 200),
                g.anyLong(), text(g, 1, 64), g.intIn(Integer.MIN_VALUE, Integer.MAX_VALUE), validator(g),
                validator(g), hash, count(g), count(g), count(g), g.bool() ? g.anyLong() : g.longIn(1, 400),
                g.anyLong(), g.anyLong(), g.anyLong(), count(g), intervals);
    }

    @Test
    void everyStateRoundTrips() {
        PropertyCheck.forAll(2_000, g -> {
            RevisitState s = randomState(g);
            byte[] b = RevisitStateCodec.encode(s);
            RevisitStateCodec.Decoded d = RevisitStateCodec.decode(b, b.length);
            assertThat(d.problem()).isNull();
            assertThat(d.state()).isEqualTo(s);
            assertThat(RevisitStateCodec.due(b, b.length)).isEqualTo(s.dueUnit());
            // a value inside a larger (reused) array reads the same
            byte[] padded = Arrays.copyOf(b, b.length + g.intIn(0, 50));
            assertThat(RevisitStateCodec.decode(padded, b.length).state()).isEqualTo(s);
        });
    }

    @Test
    void aTypicalRecordIsAFractionOfItsJson() {
        RevisitState s = new RevisitState(RevisitState.VERSION, "http://h123.sim.test/p/4567", 0x1234_5678_9abc_def0L,
                "127.1.2.3", 3, "\"5e1f-3a\"", "Tue, 01 Dec 2026 10:00:00 GMT", "0123456789abcdef0123456789abcdef", 12,
                4, 300, 30, 1_795_000_000_000L, 1_795_000_030L, 1_794_000_000_000L, 120, ChangeIntervals.EMPTY.plus(30));
        byte[] binary = RevisitStateCodec.encode(s);
        byte[] json = RevisitRecords.jsonRecord(s);
        assertThat(binary.length).isLessThan(json.length / 2);
        assertThat(RevisitRecords.state(binary, binary.length)).isEqualTo(s);
        assertThat(RevisitRecords.state(json, json.length)).as("the earlier form still reads").isEqualTo(s);
        assertThat(RevisitRecords.due(json)).isEqualTo(s.dueUnit());
        assertThat(RevisitRecords.due(binary)).isEqualTo(s.dueUnit());
    }

    @Test
    void everyTruncationIsRefusedWithAReason() {
        PropertyCheck.forAll(300, g -> {
            RevisitState s = randomState(g);
            byte[] b = RevisitStateCodec.encode(s);
            for (int len = 0; len < b.length; len++) {
                RevisitStateCodec.Decoded d = RevisitStateCodec.decode(b, len);
                assertThat(d.state()).as("length %d of %d", len, b.length).isNull();
                assertThat(d.problem()).as("length %d of %d", len, b.length).isIn(BinaryCodec.Problem.TRUNCATED,
                        BinaryCodec.Problem.MALFORMED);
                assertThat(RevisitRecords.state(b, len)).isNull();
            }
            byte[] longer = Arrays.copyOf(b, b.length + 1);
            assertThat(RevisitStateCodec.decode(longer, longer.length).problem())
                    .isEqualTo(BinaryCodec.Problem.TRAILING_BYTES);
        });
    }

    @Test
    void corruptValuesNeverThrow() {
        PropertyCheck.forAll(2_000, g -> {
            byte[] b = g.bool() ? RevisitStateCodec.encode(randomState(g)) : g.bytes(0, 300);
            int flips = g.intIn(1, 8);
            for (int i = 0; i < flips && b.length > 0; i++) {
                b[g.intIn(0, b.length - 1)] = g.anyByte();
            }
            if (g.bool() && b.length > 0) {
                b[0] = RevisitStateCodec.FORMAT;
            }
            RevisitStateCodec.Decoded d = RevisitStateCodec.decode(b, b.length);
            assertThat(d.state() == null).isEqualTo(d.problem() != null);
            RevisitRecords.wellFormed(b, b.length);
            RevisitRecords.state(b, b.length); // either form, never throws
        });
    }

    @Test
    void knownBadValues() {
        assertThat(RevisitStateCodec.decode(null, 0).problem()).isEqualTo(BinaryCodec.Problem.TRUNCATED);
        assertThat(RevisitStateCodec.decode(new byte[0], 0).problem()).isEqualTo(BinaryCodec.Problem.TRUNCATED);
        assertThat(RevisitStateCodec.decode(new byte[] {'{'}, 1).problem())
                .isEqualTo(BinaryCodec.Problem.UNKNOWN_FORMAT);
        byte[] b = RevisitStateCodec.encode(RevisitStateCodecTest.randomState(new Gen(1)));
        assertThat(RevisitStateCodec.decode(b, b.length + 1).problem()).as("a length past the array")
                .isEqualTo(BinaryCodec.Problem.TRUNCATED);
        byte[] endless = new byte[20];
        Arrays.fill(endless, (byte) 0xFF);
        endless[0] = RevisitStateCodec.FORMAT;
        assertThat(RevisitStateCodec.decode(endless, endless.length).problem()).as("an 11-byte varint")
                .isEqualTo(BinaryCodec.Problem.MALFORMED);
        assertThat(RevisitStateCodec.due(endless, endless.length)).isEqualTo(Long.MIN_VALUE);
        assertThat(RevisitRecords.wellFormed(endless, endless.length)).isFalse();
        // a lone surrogate is written as '?', never thrown
        RevisitState odd = new RevisitState(1, "http://a.test/\uD800", 1, "ip", 0, null, null, null, 0, 0, 0, 1, 1, 1,
                1, 0, null);
        byte[] e = RevisitStateCodec.encode(odd);
        assertThat(RevisitStateCodec.decode(e, e.length).state().url()).isEqualTo("http://a.test/?");
    }
}
