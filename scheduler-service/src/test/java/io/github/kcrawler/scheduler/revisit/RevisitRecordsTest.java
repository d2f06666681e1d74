package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.RevisitMemo;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RevisitRecords#fit}: a state fits a SAT/L record, loses only what it must, or is refused — never thrown. */
class RevisitRecordsTest {

    private static RevisitState state(String url, String etag, String lastModified, String hash) {
        return new RevisitState(RevisitState.VERSION, url, 42, "10.0.0.1", 1, etag, lastModified, hash, 3, 1, 30,
                10, 1_700_000_000_000L, 99, 1_600_000_000_000L);
    }

    @Test
    void aStateThatFitsIsKeptAsItIs() {
        RevisitState s = state("http://a.test/", "\"v1\"", "Tue, 01 Dec 2026 00:00:00 GMT", "ab");
        RevisitRecords.Fitted f = RevisitRecords.fit(s);
        assertThat(f.fit()).isEqualTo(RevisitRecords.Fit.AS_IS);
        assertThat(f.state()).isSameAs(s);
        assertThat(RevisitStateCodec.decode(f.bytes(), f.bytes().length).state()).isEqualTo(s);
    }

    @Test
    void theChangeIntervalFields_addAFixedBound_andKeepTheHistoryThroughFitting() {
        // issue 21: changedUnits and 21 length classes, every one at its largest, add at most ~350 bytes
        RevisitState bare = state("http://a.test/", "\"v1\"", null, "ab");
        long[] full = new long[ChangeIntervals.BUCKETS];
        java.util.Arrays.fill(full, RevisitMemo.MAX_COUNT);
        RevisitState largest = new RevisitState(bare.v(), bare.url(), bare.fingerprint(), bare.ip(), bare.depth(),
                bare.etag(), bare.lastModified(), bare.contentHash(), RevisitMemo.MAX_COUNT, RevisitMemo.MAX_COUNT,
                RevisitMemo.MAX_COUNT, 10, bare.lastFetchedMs(), bare.dueUnit(), bare.firstFetchedMs(),
                RevisitMemo.MAX_COUNT, ChangeIntervals.of(full));
        RevisitState barePlusMax = new RevisitState(bare.v(), bare.url(), bare.fingerprint(), bare.ip(), bare.depth(),
                bare.etag(), bare.lastModified(), bare.contentHash(), RevisitMemo.MAX_COUNT, RevisitMemo.MAX_COUNT,
                RevisitMemo.MAX_COUNT, 10, bare.lastFetchedMs(), bare.dueUnit(), bare.firstFetchedMs());
        int added = RevisitRecords.fit(largest).bytes().length - RevisitRecords.fit(barePlusMax).bytes().length;
        assertThat(added).isPositive().isLessThanOrEqualTo(350);
        assertThat(ChangeIntervals.of(full).toArray().length).isEqualTo(ChangeIntervals.BUCKETS);
        // fitting away the validators keeps the change history
        RevisitState oversized = new RevisitState(bare.v(), bare.url(), bare.fingerprint(), bare.ip(), bare.depth(),
                "e".repeat(6000), null, "ab", 3, 1, 30, 10, bare.lastFetchedMs(), bare.dueUnit(),
                bare.firstFetchedMs(), 7, ChangeIntervals.EMPTY.plus(7));
        RevisitRecords.Fitted f = RevisitRecords.fit(oversized);
        assertThat(f.fit()).isEqualTo(RevisitRecords.Fit.VALIDATORS_DROPPED);
        assertThat(f.state().changedUnits()).isEqualTo(7);
        assertThat(f.state().changedIntervals()).isEqualTo(ChangeIntervals.EMPTY.plus(7));
        assertThat(RevisitRecords.state(RevisitRecords.record(f), RevisitRecords.record(f).length))
                .isEqualTo(f.state());
    }

    @Test
    void oversizedValidatorsAreDroppedAndTheHistoryKept() {
        RevisitState s = state("http://a.test/", "e".repeat(6000), "Tue, 01 Dec 2026 00:00:00 GMT", "ab");
        RevisitRecords.Fitted f = RevisitRecords.fit(s);
        assertThat(f.fit()).isEqualTo(RevisitRecords.Fit.VALIDATORS_DROPPED);
        assertThat(f.state().etag()).isNull();
        assertThat(f.state().lastModified()).as("a valid validator is kept").isEqualTo("Tue, 01 Dec 2026 00:00:00 GMT");
        assertThat(f.state().contentHash()).isEqualTo("ab");
        assertThat(f.state().visits()).isEqualTo(3);
        assertThat(f.state().dueUnit()).isEqualTo(99);
        assertThat(f.bytes().length).isLessThanOrEqualTo(BucketFileStore.MAX_RECORD_BYTES);
    }

    @Test
    void aValidatorOverItsBoundIsDroppedEvenWhenTheRecordWouldFit() {
        RevisitState s = state("http://a.test/", "e".repeat(257), "Tue, 01 Dec 2026 00:00:00 GMT", "ab");
        RevisitRecords.Fitted f = RevisitRecords.fit(s);
        assertThat(f.fit()).isEqualTo(RevisitRecords.Fit.VALIDATORS_DROPPED);
        assertThat(f.state().etag()).isNull();
        assertThat(f.state().lastModified()).isEqualTo("Tue, 01 Dec 2026 00:00:00 GMT");
        RevisitState ok = state("http://a.test/", "e".repeat(256), null, "ab");
        assertThat(RevisitRecords.fit(ok).fit()).isEqualTo(RevisitRecords.Fit.AS_IS);
        RevisitState control = state("http://a.test/", "\"x\u0001\"", null, "ab");
        assertThat(RevisitRecords.fit(control).state().etag()).isNull();
    }

    @Test
    void junkRecordsReadAsNull() {
        assertThat(RevisitRecords.state(new byte[3], 3)).isNull();
        assertThat(RevisitRecords.state(new byte[20], 20)).isNull();
        assertThat(RevisitRecords.state(new byte[RevisitRecords.MAX_RECORD_BYTES + 1],
                RevisitRecords.MAX_RECORD_BYTES + 1)).isNull();
    }

    /** Property over arbitrary field lengths; seeded, the seed prints ({@code -Dkcrawler.seed=S} reruns it). */
    @Test
    void everyStateFitsOrIsRefusedOnlyWhenItsUrlAloneIsTooLong() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("RevisitRecordsTest seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int t = 0; t < 2_000; t++) {
            String url = "http://a.test/" + "u".repeat(rnd.nextInt(0, 5_000));
            String etag = rnd.nextBoolean() ? null : "\u00e9".repeat(rnd.nextInt(0, 5_000));
            String lm = rnd.nextBoolean() ? null : "m".repeat(rnd.nextInt(0, 3_000));
            String hash = rnd.nextBoolean() ? null : "h".repeat(rnd.nextInt(0, 3_000));
            RevisitState s = state(url, etag, lm, hash);
            RevisitRecords.Fitted f = RevisitRecords.fit(s);
            String where = "seed " + seed + " try " + t;
            int bare = RevisitStateCodec.encode(state(url, null, null, null)).length;
            if (f.fit() == RevisitRecords.Fit.TOO_LARGE) {
                assertThat(bare).as(where).isGreaterThan(RevisitRecords.MAX_RECORD_BYTES);
                assertThat(f.bytes()).as(where).isNull();
            } else {
                assertThat(f.bytes().length).as(where).isLessThanOrEqualTo(RevisitRecords.MAX_RECORD_BYTES);
                assertThat(RevisitRecords.validator(f.state().etag())).as(where).isTrue();
                assertThat(RevisitRecords.validator(f.state().lastModified())).as(where).isTrue();
                boolean keepable = (etag == null || etag.isEmpty()) && (lm == null || lm.length() <= 256);
                if (f.fit() == RevisitRecords.Fit.AS_IS) {
                    assertThat(keepable).as(where).isTrue();
                    assertThat(f.state()).as(where).isSameAs(s);
                }
                byte[] record = RevisitRecords.record(f);
                assertThat(record.length).as(where).isLessThanOrEqualTo(RevisitRecords.MAX_RECORD_BYTES);
                assertThat(RevisitRecords.due(record)).as(where).isEqualTo(99);
                assertThat(RevisitRecords.state(record, record.length)).as(where).isEqualTo(f.state());
                assertThat(RevisitStateCodec.decode(f.bytes(), f.bytes().length).state()).as(where)
                        .isEqualTo(f.state());
                assertThat(f.state().url()).as(where).isEqualTo(url);
                assertThat(f.state().visits()).as(where).isEqualTo(3);
            }
        }
    }
}
