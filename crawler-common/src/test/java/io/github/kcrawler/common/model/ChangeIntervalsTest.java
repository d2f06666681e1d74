package io.github.kcrawler.common.model;

import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 21: the bounded summary of a page's changed intervals, and the memo fields that carry it. */
class ChangeIntervalsTest {
    private static final JsonSerde<RevisitMemo> SERDE = JsonSerde.of(RevisitMemo.class);

    @Test
    void lengthClassesArePowersOfTwo_cappedAtTheLast() {
        assertThat(ChangeIntervals.bucket(0)).isZero();
        assertThat(ChangeIntervals.bucket(1)).isZero();
        assertThat(ChangeIntervals.bucket(2)).isEqualTo(1);
        assertThat(ChangeIntervals.bucket(3)).isEqualTo(1);
        assertThat(ChangeIntervals.bucket(1_440)).isEqualTo(10); // [1,024, 2,048)
        assertThat(ChangeIntervals.bucket(576_000)).isEqualTo(19); // 400 days of minutes: [524,288, 1,048,576)
        assertThat(ChangeIntervals.bucket(1L << 20)).isEqualTo(20);
        assertThat(ChangeIntervals.bucket(Long.MAX_VALUE)).isEqualTo(20);
    }

    @Test
    void plusCounts_andTheJsonIsTheCountsWithoutTrailingZeros() {
        ChangeIntervals c = ChangeIntervals.EMPTY.plus(1).plus(5).plus(6).plus(1_440);
        assertThat(c.total()).isEqualTo(4);
        assertThat(c.count(0)).isEqualTo(1);
        assertThat(c.count(2)).isEqualTo(2);
        assertThat(c.count(10)).isEqualTo(1);
        assertThat(ChangeIntervals.EMPTY.total()).as("immutable").isZero();
        RevisitMemo m = new RevisitMemo(RevisitMemo.VERSION, null, null, "ab", 5, 4, 2_000, 100, 1, 2, 1_452, c);
        String json = new String(SERDE.serialize("t", m), StandardCharsets.UTF_8);
        assertThat(json).contains("\"changedUnits\":1452", "\"changedIntervals\":[1,0,2,0,0,0,0,0,0,0,1]");
        assertThat(SERDE.deserialize("t", json.getBytes(StandardCharsets.UTF_8))).isEqualTo(m);
    }

    @Test
    void untrustedArrays_neverThrow_andReadAsInvalid() {
        assertThat(ChangeIntervals.of(null)).isEqualTo(ChangeIntervals.EMPTY);
        assertThat(ChangeIntervals.of(new long[0])).isEqualTo(ChangeIntervals.EMPTY);
        assertThat(ChangeIntervals.of(new long[ChangeIntervals.BUCKETS + 1]).valid()).isFalse();
        assertThat(ChangeIntervals.of(new long[] {1, -1}).valid()).isFalse();
        assertThat(ChangeIntervals.of(new long[] {RevisitMemo.MAX_COUNT + 1}).valid()).isFalse();
        assertThat(ChangeIntervals.of(new long[] {RevisitMemo.MAX_COUNT}).valid()).isTrue();
        ChangeIntervals invalid = ChangeIntervals.of(new long[] {-5});
        assertThat(invalid.plus(3)).isSameAs(invalid);
        assertThat(invalid.toArray()).isEmpty();
        String forged = "{\"v\":1,\"visits\":3,\"changes\":1,\"observedUnits\":30,\"intervalUnits\":10,"
                + "\"firstFetchedMs\":1,\"lastFetchedMs\":2,\"changedUnits\":5,\"changedIntervals\":"
                + "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}";
        RevisitMemo m = SERDE.deserialize("t", forged.getBytes(StandardCharsets.UTF_8));
        assertThat(m.changedIntervals().valid()).isFalse();
        assertThat(m.isUsable()).as("the memo stays usable; the scheduler reads it as a regular history").isTrue();
    }

    @Test
    void memosWithoutTheFields_stillDecode_andAChangedSpanBeyondTheObservedOneIsRefused() {
        String old = "{\"v\":1,\"etag\":null,\"lastModified\":null,\"contentHash\":\"ab\",\"visits\":3,\"changes\":1,"
                + "\"observedUnits\":30,\"intervalUnits\":10,\"firstFetchedMs\":1,\"lastFetchedMs\":2}";
        RevisitMemo m = SERDE.deserialize("t", old.getBytes(StandardCharsets.UTF_8));
        assertThat(m.changedUnits()).isZero();
        assertThat(m.changedIntervals()).isNull();
        assertThat(m.isUsable()).isTrue();
        assertThat(new RevisitMemo(1, null, null, null, 3, 1, 30, 10, 1, 2, 31, null).isUsable()).isFalse();
        assertThat(new RevisitMemo(1, null, null, null, 3, 1, 30, 10, 1, 2, -1, null).isUsable()).isFalse();
    }
}
