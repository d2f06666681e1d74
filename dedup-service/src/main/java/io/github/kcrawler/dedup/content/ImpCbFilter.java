package io.github.kcrawler.dedup.content;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Seed 001's IMP-CB Filter ({@code ../shared/seeds/001_27eb44211cbeca99.txt} §2.3, DESIGN §4.2): a
 * {@link CountingBloomFilter} in front of a {@link ContentFingerprintDb} whose records are
 * {@code fingerprint → {format version, refCount, the k counter positions}} ({@link ContentRecord}). Here it detects
 * identical page bodies across URLs: the fingerprint is the 128-bit hash of the normalised body and refCount the
 * number of URLs currently holding it. The paper's point (§3) is I/O: a fingerprint with any counter at 0 was never
 * stored, so a new body — the common case — costs no DB read, only the write that stores it.
 *
 * <p><b>add(fp)</b> (paper, Fig. 2): any of the k counters 0 → certainly new: no DB read, store {fp, 1, positions},
 * increment the non-saturated counters. All non-zero → read the DB: found → refCount + 1, DUPLICATE; not found (a
 * filter false positive) → new as above. The paper prints the increment twice in that branch; we increment once.
 *
 * <p><b>remove(fp)</b> (the paper gives only the saturated case; DESIGN §4.2 completes it): refCount − 1; at 0 delete
 * the record and release its k positions. A counter below 15 is decremented (by the number of times the position
 * occurs among the record's k positions); a counter at 15 has lost its count and is recomputed as
 * min(15, number of stored references to the position, excluding the deleted record). The paper counts those
 * references by scanning the DB; we keep them in {@link SaturatedCounts}, a sparse index holding an exact count for
 * exactly the positions whose counter is 15, and rebuild it from the DB scan (the paper's count) after a restart.
 *
 * <p><b>Invariants</b> (checked by {@link #checkInvariants} in tests, property-tested against an exact model). Let
 * t(p) be the number of references to position p among the stored records, a record whose k positions repeat p
 * counting it once per occurrence — exactly as add increments it.
 * <ol>
 *   <li>counter(p) = min(t(p), 15) for every p. Hence never a false negative: a stored fingerprint has t ≥ 1 at
 *   all its positions, so no counter of it is 0 and add always reaches the DB for it.</li>
 *   <li>The index holds p iff counter(p) = 15, and then its value is t(p). Why exact: below 15 the counter is
 *   exact (every reference added increments it, every reference released decrements it, by induction from 0). The
 *   entry is created at the increment that takes the counter from 14 to 15, when t(p) is therefore exactly 15;
 *   from then on every reference added to or released from p updates the entry while the counter stays 15; the
 *   entry is dropped at the release that takes t(p) below 15, and the counter is set to that t(p), exact again.
 *   Saturation is reached only by increments and left only through the index, so no step is missed.</li>
 *   <li>Every stored record's positions are the positions {@link CountingBloomFilter#positions} computes for its key
 *   (the DB metadata pins m, k and the hashing scheme); a record that is not is corrupt.</li>
 * </ol>
 * The DB is written before the counters change, so a failed write leaves both as they were.
 *
 * <p><b>Parameters</b>: the paper's k = 8, m/N = 20 (false-positive rate ≈ 5.7×10^-4, so about one read in 1,750
 * new items is wasted), 4-bit counters: 10 bytes of memory per expected body, against the ~38-byte records (plus
 * 16-byte keys) of the DB. The index is sparse; at m/N = 20 a counter reaches 15 with probability ≈ 10^-16 per
 * position, so it is normally empty. refCount is an {@code int} saturating at {@link Integer#MAX_VALUE}.
 *
 * <p><b>Restart</b>: {@link #open} checks the DB metadata against (m, k) and rebuilds counters and index from a scan
 * of the records; corrupt records found by the scan are deleted and counted. Not thread-safe: one instance per stream
 * task, like the DB it owns.
 */
public final class ImpCbFilter {
    /** Metadata layout version (see {@link #metadata}). */
    static final byte METADATA_VERSION = 1;
    /** Identifies {@link CountingBloomFilter}'s position scheme in the metadata. */
    static final long HASH_SCHEME = 0x494D50434231L ^ CountingBloomFilter.SEED_HI; // "IMPCB1"

    /** What an {@link #add} found. */
    public enum Outcome {
        /** Not stored before; now stored with refCount 1. */
        NEW,
        /** Already stored; refCount incremented. */
        DUPLICATE
    }

    /**
     * The answer of {@link #add}.
     *
     * @param outcome  NEW or DUPLICATE
     * @param refCount references after the add (1 when NEW)
     * @param dbRead   whether the DB was read (false: the filter proved the fingerprint new)
     */
    public record AddResult(Outcome outcome, int refCount, boolean dbRead) {
        static final AddResult NEW_WITHOUT_READ = new AddResult(Outcome.NEW, 1, false);
        static final AddResult NEW_AFTER_READ = new AddResult(Outcome.NEW, 1, true);

        public boolean isDuplicate() {
            return outcome == Outcome.DUPLICATE;
        }
    }

    /** What a {@link #remove} found. */
    public enum RemoveOutcome {
        /** Not stored: nothing changed. */
        ABSENT,
        /** refCount decremented and still ≥ 1. */
        DECREMENTED,
        /** refCount reached 0 (or the record was corrupt): record deleted, counters released. */
        DELETED
    }

    /**
     * The answer of {@link #remove}.
     *
     * @param outcome  ABSENT, DECREMENTED or DELETED
     * @param refCount references left
     * @param dbRead   whether the DB was read
     */
    public record RemoveResult(RemoveOutcome outcome, int refCount, boolean dbRead) {
        static final RemoveResult ABSENT_WITHOUT_READ = new RemoveResult(RemoveOutcome.ABSENT, 0, false);
        static final RemoveResult ABSENT_AFTER_READ = new RemoveResult(RemoveOutcome.ABSENT, 0, true);
        static final RemoveResult DELETED = new RemoveResult(RemoveOutcome.DELETED, 0, true);
    }

    /**
     * What {@link #rebuild} found.
     *
     * @param records            valid records counted into the filter
     * @param references         sum of their refCounts
     * @param corruptDeleted     records that failed validation and were deleted
     * @param saturatedPositions counters at 15 afterwards (size of the index)
     */
    public record RebuildStats(long records, long references, long corruptDeleted, int saturatedPositions) {
    }

    private final ContentFingerprintDb db;
    private final CountingBloomFilter filter;
    private final SaturatedCounts saturated = new SaturatedCounts();
    private final int k;
    private final int[] pos;
    private final byte[] buf = new byte[ContentRecord.MAX_LENGTH + 1];

    private long adds;
    private long removes;
    private long newItems;
    private long duplicates;
    private long dbReads;
    private long dbReadsAvoided;
    private long falsePositives;
    private long corruptRecords;
    private RebuildStats lastRebuild = new RebuildStats(0, 0, 0, 0);

    private ImpCbFilter(ContentFingerprintDb db, long m, int k) {
        this.db = Objects.requireNonNull(db, "db");
        this.filter = new CountingBloomFilter(m, k);
        this.k = k;
        this.pos = new int[k];
    }

    /**
     * Opens the filter over {@code db}: writes the metadata of (m, k) into an empty DB, or checks it against an
     * existing one, then rebuilds counters and index from the records.
     *
     * @throws IllegalArgumentException when the DB was written with other parameters, or they are out of range
     * @throws IllegalStateException    when the DB's metadata is unreadable
     */
    public static ImpCbFilter open(ContentFingerprintDb db, long m, int k) {
        ImpCbFilter f = new ImpCbFilter(db, m, k);
        byte[] expected = metadata(m, k);
        byte[] stored = db.metadata();
        if (stored == null) {
            db.putMetadata(expected);
        } else if (!Arrays.equals(stored, expected)) {
            throw new IllegalArgumentException(describeMismatch(stored, m, k));
        }
        f.rebuild();
        return f;
    }

    /** {@link #open} with the paper's sizing for {@code expectedItems}: k = 8, m = 20·expectedItems. */
    public static ImpCbFilter openForExpectedItems(ContentFingerprintDb db, long expectedItems) {
        CountingBloomFilter sizing = CountingBloomFilter.forExpectedItems(expectedItems);
        return open(db, sizing.counters(), sizing.hashes());
    }

    static byte[] metadata(long m, int k) {
        return ByteBuffer.allocate(1 + 8 + 1 + 8).put(METADATA_VERSION).putLong(m).put((byte) k).putLong(HASH_SCHEME)
                .array();
    }

    private static String describeMismatch(byte[] stored, long m, int k) {
        if (stored.length != 18 || stored[0] != METADATA_VERSION) {
            throw new IllegalStateException("fingerprint DB metadata is unreadable (version "
                    + (stored.length > 0 ? stored[0] : "none") + ", " + stored.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(stored, 1, 17);
        long dm = b.getLong();
        int dk = b.get() & 0xFF;
        long scheme = b.getLong();
        return String.format("fingerprint DB was written with m=%d, k=%d%s; asked for m=%d, k=%d", dm, dk,
                scheme == HASH_SCHEME ? "" : " and another hashing scheme", m, k);
    }

    /** Adds one reference to the content with fingerprint {@code (hi, lo)}. */
    public AddResult add(long hi, long lo) {
        adds++;
        filter.positions(hi, lo, pos);
        if (anyZero()) {
            dbReadsAvoided++;
            storeNew(hi, lo);
            return AddResult.NEW_WITHOUT_READ;
        }
        dbReads++;
        int len = db.get(hi, lo, buf);
        if (len != ContentFingerprintDb.NOT_FOUND) {
            if (isValidRecord(len)) {
                int rc = ContentRecord.refCount(buf);
                if (rc < Integer.MAX_VALUE) {
                    rc++;
                    ContentRecord.writeRefCount(buf, rc);
                    db.put(hi, lo, buf, len);
                }
                duplicates++;
                return new AddResult(Outcome.DUPLICATE, rc, true);
            }
            // Corrupt record: replaced below. Whatever it contributed to the counters stays counted, which can only
            // cost extra DB reads, never a false negative.
            corruptRecords++;
        } else {
            falsePositives++;
        }
        storeNew(hi, lo);
        return AddResult.NEW_AFTER_READ;
    }

    /** Drops one reference to the content {@code (hi, lo)}; the record and its counters go with the last one. */
    public RemoveResult remove(long hi, long lo) {
        removes++;
        filter.positions(hi, lo, pos);
        if (anyZero()) {
            dbReadsAvoided++;
            return RemoveResult.ABSENT_WITHOUT_READ;
        }
        dbReads++;
        int len = db.get(hi, lo, buf);
        if (len == ContentFingerprintDb.NOT_FOUND) {
            return RemoveResult.ABSENT_AFTER_READ;
        }
        if (!isValidRecord(len)) {
            corruptRecords++;
            db.delete(hi, lo); // counters untouched: an over-count only costs reads
            return RemoveResult.DELETED;
        }
        int rc = ContentRecord.refCount(buf) - 1;
        if (rc > 0) {
            ContentRecord.writeRefCount(buf, rc);
            db.put(hi, lo, buf, len);
            return new RemoveResult(RemoveOutcome.DECREMENTED, rc, true);
        }
        db.delete(hi, lo);
        release();
        return RemoveResult.DELETED;
    }

    /** References to {@code (hi, lo)}, 0 when absent; reads the DB only when the filter cannot rule it out. */
    public int refCount(long hi, long lo) {
        filter.positions(hi, lo, pos);
        if (anyZero()) {
            return 0;
        }
        int len = db.get(hi, lo, buf);
        return len != ContentFingerprintDb.NOT_FOUND && isValidRecord(len) ? ContentRecord.refCount(buf) : 0;
    }

    /** True unless the filter proves {@code (hi, lo)} absent (no DB access). */
    public boolean mightContain(long hi, long lo) {
        return filter.mightContain(hi, lo);
    }

    /**
     * Recomputes counters and index from a scan of the DB — what {@link #open} does after a restart. Records that
     * fail validation are deleted afterwards and counted.
     */
    public RebuildStats rebuild() {
        filter.clear();
        saturated.clear();
        long[] records = {0, 0};
        long[][] corrupt = {new long[16]};
        int[] corruptCount = {0};
        int[] expected = new int[k];
        long m = filter.counters();
        db.forEach((hi, lo, value, length) -> {
            boolean ok = ContentRecord.isValid(value, length, k, m);
            if (ok) {
                filter.positions(hi, lo, expected);
                for (int i = 0; i < k && ok; i++) {
                    ok = ContentRecord.position(value, i) == expected[i];
                }
            }
            if (!ok) {
                int c = corruptCount[0]++;
                if (2 * c + 2 > corrupt[0].length) {
                    corrupt[0] = Arrays.copyOf(corrupt[0], corrupt[0].length * 2);
                }
                corrupt[0][2 * c] = hi;
                corrupt[0][2 * c + 1] = lo;
                return;
            }
            for (int i = 0; i < k; i++) {
                reference(ContentRecord.position(value, i));
            }
            records[0]++;
            records[1] += ContentRecord.refCount(value);
        });
        for (int c = 0; c < corruptCount[0]; c++) {
            db.delete(corrupt[0][2 * c], corrupt[0][2 * c + 1]);
        }
        corruptRecords += corruptCount[0];
        lastRebuild = new RebuildStats(records[0], records[1], corruptCount[0], saturated.size());
        return lastRebuild;
    }

    private boolean anyZero() {
        for (int i = 0; i < k; i++) {
            if (filter.get(pos[i]) == 0) {
                return true;
            }
        }
        return false;
    }

    private boolean isValidRecord(int len) {
        if (!ContentRecord.isValid(buf, len, k, filter.counters())) {
            return false;
        }
        for (int i = 0; i < k; i++) {
            if (ContentRecord.position(buf, i) != pos[i]) {
                return false;
            }
        }
        return true;
    }

    /** Stores {fp, 1, positions} (DB first), then adds its references to the counters. */
    private void storeNew(long hi, long lo) {
        int len = ContentRecord.encode(buf, 1, pos, k);
        db.put(hi, lo, buf, len);
        for (int i = 0; i < k; i++) {
            reference(pos[i]);
        }
        newItems++;
    }

    /** One more stored reference to position p: increment, or count it in the index once saturated. */
    private void reference(int p) {
        int c = filter.get(p);
        if (c == CountingBloomFilter.MAX) {
            saturated.increment(p);
        } else if (filter.increment(p) == CountingBloomFilter.MAX) {
            saturated.put(p, CountingBloomFilter.MAX); // t(p) is exactly 15 at this moment
        }
    }

    /** Releases the references of the record whose positions are in {@code pos}, one distinct position at a time. */
    private void release() {
        for (int i = 0; i < k; i++) {
            int p = pos[i];
            boolean seen = false;
            for (int j = 0; j < i && !seen; j++) {
                seen = pos[j] == p;
            }
            if (seen) {
                continue;
            }
            int occurrences = 1;
            for (int j = i + 1; j < k; j++) {
                if (pos[j] == p) {
                    occurrences++;
                }
            }
            int c = filter.get(p);
            if (c < CountingBloomFilter.MAX) {
                assert c >= occurrences : "counter " + p + " = " + c + " below its references " + occurrences;
                filter.set(p, Math.max(0, c - occurrences));
            } else {
                int left = saturated.get(p) - occurrences;
                assert left >= 0 : "index count of " + p + " below its references";
                if (left >= CountingBloomFilter.MAX) {
                    saturated.put(p, left);
                } else {
                    saturated.remove(p);
                    filter.set(p, Math.max(0, left));
                }
            }
        }
    }

    /**
     * Debug check of invariant 2 (index ⇔ saturated counter, index values ≥ 15); throws {@link AssertionError}.
     * Invariant 1 needs the DB contents and is checked by the tests' model.
     */
    void checkInvariants() {
        long m = filter.counters();
        int saturatedCounters = 0;
        for (int p = 0; p < m; p++) {
            boolean sat = filter.get(p) == CountingBloomFilter.MAX;
            if (sat) {
                saturatedCounters++;
                if (saturated.get(p) < CountingBloomFilter.MAX) {
                    throw new AssertionError("saturated counter " + p + " has index count " + saturated.get(p));
                }
            } else if (saturated.contains(p)) {
                throw new AssertionError("index holds unsaturated counter " + p);
            }
        }
        if (saturatedCounters != saturated.size()) {
            throw new AssertionError("index size " + saturated.size() + " != saturated counters " + saturatedCounters);
        }
    }

    /** What the last {@link #rebuild} (the one {@link #open} ran, unless called since) found. */
    public RebuildStats lastRebuild() {
        return lastRebuild;
    }

    /** The counter at {@code position} (tests, diagnostics). */
    public int counter(int position) {
        return filter.get(position);
    }

    /** Exact reference count of a saturated position, 0 for an unsaturated one (tests, diagnostics). */
    int saturatedCount(int position) {
        return saturated.get(position);
    }

    /** The k positions of {@code (hi, lo)} (allocates; tests and diagnostics). */
    public int[] positions(long hi, long lo) {
        int[] out = new int[k];
        filter.positions(hi, lo, out);
        return out;
    }

    /** True when both filters have identical counters (rebuild checks). */
    public boolean sameCounters(ImpCbFilter other) {
        return filter.sameCounters(other.filter);
    }

    public long counters() {
        return filter.counters();
    }

    public int hashes() {
        return k;
    }

    /** Counter array plus the saturation index, in bytes. */
    public long memoryBytes() {
        return filter.memoryBytes() + saturated.memoryBytes();
    }

    public int saturatedPositions() {
        return saturated.size();
    }

    public long adds() {
        return adds;
    }

    public long removes() {
        return removes;
    }

    /** Adds that stored a new fingerprint. */
    public long newItems() {
        return newItems;
    }

    /** Adds that found the fingerprint stored. */
    public long duplicates() {
        return duplicates;
    }

    /** DB reads made by add and remove. */
    public long dbReads() {
        return dbReads;
    }

    /** Adds and removes the filter answered without reading the DB. */
    public long dbReadsAvoided() {
        return dbReadsAvoided;
    }

    /** Adds whose counters were all non-zero but whose fingerprint was not stored. */
    public long falsePositives() {
        return falsePositives;
    }

    /** Corrupt records met by add, remove or rebuild (each replaced or deleted). */
    public long corruptRecords() {
        return corruptRecords;
    }
}
