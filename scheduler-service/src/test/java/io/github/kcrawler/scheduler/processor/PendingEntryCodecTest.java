package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.github.kcrawler.scheduler.revisit.RevisitStateCodecTest.count;
import static io.github.kcrawler.scheduler.revisit.RevisitStateCodecTest.text;
import static io.github.kcrawler.scheduler.revisit.RevisitStateCodecTest.validator;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PendingEntryCodec}: the pending store's binary value round-trips every entry (new URLs, revisits with and
 * without a memo, validators at their bound, MAX_COUNT histories), reads the earlier JSON form, and reads anything
 * else as null — never an exception. Seeded (PropertyCheck; rerun one try with -Dkc.seed).
 */
class PendingEntryCodecTest {
    // strings, validators and counts as the SAT/L record's own codec test draws them

    static RevisitMemo memo(Gen g) {
        long[] counts = new long[g.intIn(0, ChangeIntervals.BUCKETS)];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = count(g);
        }
        String hash = g.of(null, "0123456789abcdef0123456789abcdef", "ab", "");
        return new RevisitMemo(g.intIn(0, 3), validator(g), validator(g), hash, count(g), count(g), count(g),
                g.anyLong(), g.anyLong(), g.anyLong(), count(g), g.bool() ? null : ChangeIntervals.of(counts));
    }

    static PendingEntry entry(Gen g) {
        boolean revisit = g.bool();
        return new PendingEntry(g.intIn(0, 3), text(g, 1, 40), "http://" + text(g, 0, 200),
                g.intIn(Integer.MIN_VALUE, Integer.MAX_VALUE), g.anyLong(), g.anyLong(),
                g.of(0.0, -1.5, Double.NaN, Double.POSITIVE_INFINITY, g.doubleIn(-1e9, 1e9)), g.anyLong(),
                revisit ? FetchKind.REVISIT : FetchKind.NEW, validator(g), validator(g), revisit && g.bool() ? memo(g)
                : null);
    }

    @Test
    void everyEntryRoundTrips() {
        PropertyCheck.forAll(2_000, g -> {
            PendingEntry e = entry(g);
            byte[] b = PendingEntryCodec.encode(e);
            assertThat(b[0]).isEqualTo(PendingEntryCodec.FORMAT);
            PendingEntry back = PendingEntryCodec.decode(b);
            assertThat(back).isEqualTo(e);
        });
    }

    @Test
    void theEarlierJsonFormStillReads_andTheBinaryIsSmaller() {
        RevisitMemo m = new RevisitMemo(RevisitMemo.VERSION, "\"e1\"", "Tue, 01 Dec 2026 10:00:00 GMT",
                "0123456789abcdef0123456789abcdef", 5, 2, 7_200, 1_440, 1_795_000_000_000L, 1_795_100_000_000L, 300,
                ChangeIntervals.EMPTY.plus(100).plus(200));
        PendingEntry e = PendingEntry.revisit("127.1.2.3", "http://h1.sim.test/p/17", 2, 77L, 12_345L, 0.25,
                1_795_100_000_000L, null, null, m);
        byte[] json = JsonSerde.of(PendingEntry.class).serialize("t", e);
        assertThat(PendingEntryCodec.decode(json)).isEqualTo(e);
        byte[] binary = PendingEntryCodec.encode(e);
        assertThat(binary.length).isLessThan(json.length / 3);
        String v1 = "{\"v\":1,\"ip\":\"10.0.0.1\",\"url\":\"http://a.test/\",\"depth\":0,\"fingerprint\":5,\"seq\":3,"
                + "\"score\":0.5,\"admittedAt\":9}";
        PendingEntry old = PendingEntryCodec.decode(v1.getBytes(StandardCharsets.UTF_8));
        assertThat(old).isEqualTo(new PendingEntry(1, "10.0.0.1", "http://a.test/", 0, 5L, 3L, 0.5, 9L,
                FetchKind.NEW, null, null, null));
    }

    @Test
    void anythingElseReadsAsNull() {
        assertThat(PendingEntryCodec.decode(null)).isNull();
        assertThat(PendingEntryCodec.decode(new byte[0])).isNull();
        assertThat(PendingEntryCodec.decode("not json".getBytes(StandardCharsets.UTF_8))).isNull();
        PropertyCheck.forAll(300, g -> {
            byte[] b = PendingEntryCodec.encode(entry(g));
            for (int len = 1; len < b.length; len++) {
                assertThat(PendingEntryCodec.decode(Arrays.copyOf(b, len))).as("%d of %d bytes", len, b.length)
                        .isNull();
            }
            byte[] c = b.clone();
            for (int i = 0; i < g.intIn(1, 6); i++) {
                c[g.intIn(0, c.length - 1)] = g.anyByte();
            }
            PendingEntryCodec.decode(c); // null or an entry; never throws
            assertThat(PendingEntryCodec.decode(Arrays.copyOf(b, b.length + 1))).as("a trailing byte").isNull();
        });
    }
}
