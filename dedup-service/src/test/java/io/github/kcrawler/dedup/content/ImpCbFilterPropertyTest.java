package io.github.kcrawler.dedup.content;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.dedup.content.ImpCbFilter.AddResult;
import io.github.kcrawler.dedup.content.ImpCbFilter.Outcome;
import io.github.kcrawler.dedup.content.ImpCbFilter.RemoveOutcome;
import io.github.kcrawler.dedup.content.ImpCbFilter.RemoveResult;
import io.github.kcrawler.dedup.content.ImpCbFilterTest.Model;
import io.github.kcrawler.dedup.store.RocksDbContentFingerprintDb;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * IMP-CB against an exact model (a map fingerprint → refCount and the true reference count of every position), over
 * random sequences of adds and removes on a small pool of fingerprints and small m, so counters collide, saturate,
 * come back down and positions repeat within a record (m = 16, 24).
 */
class ImpCbFilterPropertyTest {
    /** One operation: add (true) or remove (false) of pool fingerprint {@code index}. */
    record Op(boolean add, int index) {
    }

    /** 1 to 400 operations, each an add (65 %) or a remove of one of 60 pool fingerprints. */
    static List<Op> ops(Gen g) {
        return g.list(1, 400, x -> new Op(x.intIn(0, 99) < 65, x.intIn(0, 59)));
    }

    static int counters(Gen g) {
        return g.ofInts(9, 16, 24, 61, 1000);
    }

    static long hi(int index) {
        return index * 0x9E3779B97F4A7C15L;
    }

    static long lo(int index) {
        return ~index;
    }

    @Test
    void matchesExactModel_afterEveryOperation() {
        forAll(300, g -> matchesExactModel_afterEveryOperation(ops(g), counters(g), g.intIn(1, 8)));
    }

    void matchesExactModel_afterEveryOperation(List<Op> ops, int m, int k) {
        ImpCbFilter f = ImpCbFilter.open(new InMemoryContentFingerprintDb(), m, k);
        Model model = new Model(m);
        for (Op op : ops) {
            apply(f, model, op);
            model.check(f);
        }
    }

    @Test
    void onRocksDb_matchesModel_andRebuildGivesIdenticalCounters() {
        forAll(40, g -> onRocksDb_matchesModel_andRebuildGivesIdenticalCounters(ops(g), counters(g)));
    }

    void onRocksDb_matchesModel_andRebuildGivesIdenticalCounters(List<Op> ops, int m) throws IOException {
        Path dir = Files.createTempDirectory("impcb-prop");
        try {
            ImpCbFilter f;
            Model model = new Model(m);
            try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir, false)) {
                f = ImpCbFilter.open(db, m, 8);
                for (Op op : ops) {
                    apply(f, model, op);
                }
                model.check(f);
            }
            try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir, false)) {
                ImpCbFilter rebuilt = ImpCbFilter.open(db, m, 8);
                assertThat(rebuilt.sameCounters(f)).isTrue();
                model.check(rebuilt);
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void rebuild_inPlace_isIdentity() {
        forAll(200, g -> rebuild_inPlace_isIdentity(ops(g), counters(g)));
    }

    void rebuild_inPlace_isIdentity(List<Op> ops, int m) {
        InMemoryContentFingerprintDb db = new InMemoryContentFingerprintDb();
        ImpCbFilter f = ImpCbFilter.open(db, m, 8);
        Model model = new Model(m);
        for (Op op : ops) {
            apply(f, model, op);
        }
        ImpCbFilter other = ImpCbFilter.open(db, m, 8);
        assertThat(other.sameCounters(f)).isTrue();
        ImpCbFilter.RebuildStats s = f.rebuild();
        assertThat(s.records()).isEqualTo(model.refs.size());
        assertThat(s.references()).isEqualTo(model.refs.values().stream().mapToLong(Integer::longValue).sum());
        model.check(f);
    }

    @Test
    void neverAFalseNegative_atPaperParameters() {
        forAll(200, g -> neverAFalseNegative_atPaperParameters(g.list(1, 2000, x -> x.intIn(0, 999))));
    }

    void neverAFalseNegative_atPaperParameters(List<Integer> stream) {
        ImpCbFilter f = ImpCbFilter.openForExpectedItems(new InMemoryContentFingerprintDb(), 100);
        Model model = new Model((int) f.counters());
        for (int i : stream) {
            boolean duplicate = model.add(f, hi(i), lo(i));
            AddResult r = f.add(hi(i), lo(i));
            assertThat(r.isDuplicate()).isEqualTo(duplicate);
            if (!r.dbRead()) {
                assertThat(duplicate).as("skipped the DB read for a stored fingerprint").isFalse();
            }
        }
        assertThat(f.adds()).isEqualTo(f.dbReads() + f.dbReadsAvoided());
        model.check(f);
    }

    private static void apply(ImpCbFilter f, Model model, Op op) {
        long hi = hi(op.index());
        long lo = lo(op.index());
        if (op.add()) {
            boolean duplicate = model.add(f, hi, lo);
            AddResult r = f.add(hi, lo);
            assertThat(r.outcome()).isEqualTo(duplicate ? Outcome.DUPLICATE : Outcome.NEW);
            assertThat(r.refCount()).isEqualTo(model.refs.get(new Model.FpKey(hi, lo)));
            if (duplicate) {
                assertThat(r.dbRead()).isTrue();
            }
        } else {
            int left = model.remove(f, hi, lo);
            RemoveResult r = f.remove(hi, lo);
            RemoveOutcome expected = left < 0 ? RemoveOutcome.ABSENT
                    : left == 0 ? RemoveOutcome.DELETED : RemoveOutcome.DECREMENTED;
            assertThat(r.outcome()).isEqualTo(expected);
            assertThat(r.refCount()).isEqualTo(Math.max(0, left));
        }
    }
}
