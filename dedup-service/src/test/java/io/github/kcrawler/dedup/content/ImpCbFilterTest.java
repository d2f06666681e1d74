package io.github.kcrawler.dedup.content;

import io.github.kcrawler.dedup.content.ImpCbFilter.AddResult;
import io.github.kcrawler.dedup.content.ImpCbFilter.Outcome;
import io.github.kcrawler.dedup.content.ImpCbFilter.RemoveOutcome;
import io.github.kcrawler.dedup.store.RocksDbContentFingerprintDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ImpCbFilterTest {
    @TempDir
    Path dir;

    @Test
    void add_newFingerprint_skipsTheDbRead() throws IOException {
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
            AddResult r = f.add(1, 2);
            assertThat(r).isEqualTo(new AddResult(Outcome.NEW, 1, false));
            assertThat(f.dbReadsAvoided()).isEqualTo(1);
            assertThat(f.dbReads()).isZero();
            for (int p : f.positions(1, 2)) {
                assertThat(f.counter(p)).isPositive();
            }
        }
    }

    @Test
    void add_duplicate_readsTheDbAndCountsReferences() throws IOException {
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
            f.add(1, 2);
            assertThat(f.add(1, 2)).isEqualTo(new AddResult(Outcome.DUPLICATE, 2, true));
            assertThat(f.add(1, 2)).isEqualTo(new AddResult(Outcome.DUPLICATE, 3, true));
            assertThat(f.refCount(1, 2)).isEqualTo(3);
            assertThat(f.duplicates()).isEqualTo(2);
            assertThat(f.newItems()).isEqualTo(1);
        }
    }

    @Test
    void add_duplicateDoesNotIncrementCounters() throws IOException {
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
            f.add(1, 2);
            int[] before = counters(f, f.positions(1, 2));
            f.add(1, 2);
            assertThat(counters(f, f.positions(1, 2))).isEqualTo(before);
        }
    }

    @Test
    void remove_lastReference_deletesRecordAndZeroesItsCounters() throws IOException {
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
            f.add(1, 2);
            f.add(1, 2);
            assertThat(f.remove(1, 2).outcome()).isEqualTo(RemoveOutcome.DECREMENTED);
            assertThat(f.remove(1, 2).outcome()).isEqualTo(RemoveOutcome.DELETED);
            assertThat(counters(f, f.positions(1, 2))).containsOnly(0);
            assertThat(db.get(1, 2, new byte[64])).isEqualTo(ContentFingerprintDb.NOT_FOUND);
            assertThat(f.remove(1, 2)).isEqualTo(ImpCbFilter.RemoveResult.ABSENT_WITHOUT_READ);
            assertThat(f.add(1, 2).outcome()).isEqualTo(Outcome.NEW);
        }
    }

    @Test
    void remove_saturatedCounter_recountsFromIndex() {
        // 9 counters, k = 8: every fingerprint hits almost every counter, so they saturate after ~15 adds
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, 9, 8);
        Model model = new Model(9);
        for (long i = 0; i < 40; i++) {
            f.add(i, ~i);
            model.add(f, i, ~i);
        }
        assertThat(f.saturatedPositions()).isPositive();
        model.check(f);
        for (long i = 0; i < 40; i++) {
            f.remove(i, ~i);
            model.remove(f, i, ~i);
            model.check(f);
        }
        assertThat(f.saturatedPositions()).isZero();
        for (int p = 0; p < 9; p++) {
            assertThat(f.counter(p)).isZero();
        }
    }

    @Test
    void repeatedPositionWithinOneRecord_isCountedPerOccurrence() {
        // m = 16: h2 shares a factor with m for most fingerprints, so positions repeat within a record
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, 16, 8);
        long hi = 0;
        int[] pos = null;
        for (; hi < 1000; hi++) {
            pos = f.positions(hi, 7);
            if (java.util.Arrays.stream(pos).distinct().count() < 8) {
                break;
            }
        }
        assertThat(java.util.Arrays.stream(pos).distinct().count()).isLessThan(8);
        f.add(hi, 7);
        Model model = new Model(16);
        model.add(f, hi, 7);
        model.check(f);
        f.remove(hi, 7);
        model.remove(f, hi, 7);
        model.check(f);
    }

    @Test
    void reopen_rebuildsIdenticalCountersFromTheDb() throws IOException {
        ImpCbFilter before;
        int[] refs = new int[300];
        SplittableRandom r = new SplittableRandom(3);
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            before = ImpCbFilter.open(db, 200, 8);
            for (int i = 0; i < 2000; i++) {
                long fp = r.nextInt(300);
                if (r.nextInt(3) == 0) {
                    before.remove(fp, fp * 31);
                } else {
                    before.add(fp, fp * 31);
                }
            }
            assertThat(before.saturatedPositions()).isPositive();
            for (int fp = 0; fp < 300; fp++) {
                refs[fp] = before.refCount(fp, fp * 31L);
            }
        }
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter after = ImpCbFilter.open(db, 200, 8);
            assertThat(after.lastRebuild().records()).isEqualTo(java.util.Arrays.stream(refs).filter(c -> c > 0).count());
            assertThat(after.lastRebuild().saturatedPositions()).isEqualTo(before.saturatedPositions());
            assertThat(after.sameCounters(before)).isTrue();
            for (int p = 0; p < 200; p++) {
                assertThat(after.saturatedCount(p)).isEqualTo(before.saturatedCount(p));
            }
            for (long fp = 0; fp < 300; fp++) {
                assertThat(after.refCount(fp, fp * 31)).isEqualTo(refs[(int) fp]);
            }
        }
    }

    @Test
    void open_withOtherParameters_isRejected() throws IOException {
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            ImpCbFilter.open(db, 1000, 8).add(1, 1);
        }
        try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir)) {
            assertThatThrownBy(() -> ImpCbFilter.open(db, 2000, 8)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("m=1000").hasMessageContaining("m=2000");
        }
    }

    @Test
    void open_withUnreadableMetadata_failsNamingIt() {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        db.putMetadata(new byte[] {9, 9});
        assertThatThrownBy(() -> ImpCbFilter.open(db, 1000, 8)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unreadable");
    }

    @Test
    void rebuild_deletesCorruptRecordsAndKeepsValidOnes() {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
        f.add(1, 1);
        f.add(2, 2);
        db.put(3, 3, new byte[] {7, 0, 0}, 3);                                   // unknown version, short
        byte[] wrongPositions = new byte[ContentRecord.length(8)];
        ContentRecord.encode(wrongPositions, 1, new int[8], 8);                  // positions not the key's
        db.put(4, 4, wrongPositions, wrongPositions.length);
        byte[] zeroRefs = new byte[ContentRecord.length(8)];
        ContentRecord.encode(zeroRefs, 0, f.positions(5, 5), 8);               // refCount 0
        db.put(5, 5, zeroRefs, zeroRefs.length);
        ImpCbFilter.RebuildStats s = f.rebuild();
        assertThat(s.records()).isEqualTo(2);
        assertThat(s.corruptDeleted()).isEqualTo(3);
        assertThat(db.size()).isEqualTo(2);
        assertThat(f.refCount(1, 1)).isEqualTo(1);
    }

    @Test
    void add_overCorruptRecord_replacesIt() {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
        f.add(1, 1);
        db.put(1, 1, new byte[300], 300); // longer than any record
        assertThat(f.add(1, 1)).isEqualTo(new AddResult(Outcome.NEW, 1, true));
        assertThat(f.corruptRecords()).isEqualTo(1);
        assertThat(f.refCount(1, 1)).isEqualTo(1);
    }

    @Test
    void extremeFingerprints_areOrdinaryInput() {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, 64, 8);
        long[] values = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1};
        Model model = new Model(64);
        for (long hi : values) {
            for (long lo : values) {
                f.add(hi, lo);
                model.add(f, hi, lo);
            }
        }
        model.check(f);
    }

    @Test
    void closedDb_throwsInsteadOfCrashing() throws IOException {
        RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir);
        ImpCbFilter f = ImpCbFilter.open(db, 1000, 8);
        f.add(1, 1);
        db.close();
        db.close();
        assertThatThrownBy(() -> f.add(1, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void fromEmpty_rejectsOutOfRangeParameters() {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        assertThatThrownBy(() -> ImpCbFilter.open(db, 5, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ImpCbFilter.openForExpectedItems(db, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int[] counters(ImpCbFilter f, int[] positions) {
        int[] c = new int[positions.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = f.counter(positions[i]);
        }
        return c;
    }

    /** The exact model: refCounts per fingerprint and true reference counts per position. */
    static final class Model {
        final Map<FpKey, Integer> refs = new HashMap<>();
        final int[] trueCounts;

        record FpKey(long hi, long lo) {
        }

        Model(int m) {
            trueCounts = new int[m];
        }

        /** Applies an add; returns whether the fingerprint was a duplicate. */
        boolean add(ImpCbFilter f, long hi, long lo) {
            Integer rc = refs.merge(new FpKey(hi, lo), 1, Integer::sum);
            if (rc == 1) {
                for (int p : f.positions(hi, lo)) {
                    trueCounts[p]++;
                }
                return false;
            }
            return true;
        }

        /** Applies a remove; returns the references left, −1 when absent. */
        int remove(ImpCbFilter f, long hi, long lo) {
            FpKey key = new FpKey(hi, lo);
            Integer rc = refs.get(key);
            if (rc == null) {
                return -1;
            }
            if (rc == 1) {
                refs.remove(key);
                for (int p : f.positions(hi, lo)) {
                    trueCounts[p]--;
                }
                return 0;
            }
            refs.put(key, rc - 1);
            return rc - 1;
        }

        void check(ImpCbFilter f) {
            for (int p = 0; p < trueCounts.length; p++) {
                assertThat(f.counter(p)).as("counter %d", p).isEqualTo(Math.min(trueCounts[p], 15));
                assertThat(f.saturatedCount(p)).as("index %d", p).isEqualTo(trueCounts[p] >= 15 ? trueCounts[p] : 0);
            }
            for (Map.Entry<FpKey, Integer> e : refs.entrySet()) {
                assertThat(f.mightContain(e.getKey().hi(), e.getKey().lo())).as("false negative").isTrue();
                assertThat(f.refCount(e.getKey().hi(), e.getKey().lo())).isEqualTo(e.getValue());
            }
            f.checkInvariants();
        }
    }
}
