package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.serde.BinaryCodec;
import io.github.kcrawler.common.model.RevisitMemo;


/**
 * The binary form of a page's revisit record (issue 22 follow-up; ours): the value of a SAT/L bucket entry and of the
 * page's record on the {@code scheduler-revisit-satl} changelog, both internal to the scheduler. It replaces the
 * earlier form (8-byte due unit, then the state's JSON, ~420 bytes) with ~100–150 bytes, most of them the URL, and
 * with no JSON parse on {@code poll} nor JSON write per result. No Kafka, no I/O.
 *
 * <p>Layout, format {@link #FORMAT} (one byte, high bit set, so it can never be the first byte of the older form,
 * whose first byte is the high byte of a non-negative due unit, 0x00–0x7f):
 * <pre>
 *   u8      format (0x82)
 *   varlong dueUnit            (zig-zag, as every number below, so a negative value round-trips)
 *   i64     fingerprint        (big-endian, 8 bytes: random bits do not shrink)
 *   varint  v, depth
 *   u8      flags              1 etag, 2 lastModified, 4 contentHash as 16 raw bytes, 8 contentHash as text,
 *                              16 changedIntervals present
 *   varlong visits, changes, observedUnits, intervalUnits, changedUnits, lastFetchedMs, firstFetchedMs
 *   string  url, ip            (varint byte length, then UTF-8)
 *   string  etag?, lastModified? (when flagged)
 *   16 B | string contentHash? (32 lowercase hex digits are stored as their 16 bytes)
 *   varint n ≤ 21, then n varlongs: the changed-interval classes up to the last non-zero one (when flagged)
 * </pre>
 *
 * <p>Decoding is for untrusted bytes (a changelog may hold anything): it never throws and never reads past
 * {@code length}; a truncated, over-long or otherwise impossible value is refused with a
 * {@link BinaryCodec.Problem}. Invariant (held by {@code RevisitStateCodecTest}): {@code decode(encode(s)) == s} for every state whose strings are valid
 * UTF-16 (an unpaired surrogate is written as '?', as {@link String#getBytes} does).
 */
public final class RevisitStateCodec {
    /** The format byte of this layout. */
    public static final byte FORMAT = (byte) 0x82;

    private static final int ETAG = 1;
    private static final int LAST_MODIFIED = 2;
    private static final int HASH_RAW = 4;
    private static final int HASH_TEXT = 8;
    private static final int INTERVALS = 16;
    private static final int KNOWN_FLAGS = 31;

    /** A decoded state, or the reason there is none (exactly one of the two is null). */
    public record Decoded(RevisitState state, BinaryCodec.Problem problem) {
        public Decoded {
            assert (state == null) != (problem == null);
        }
    }

    private RevisitStateCodec() {
    }

    /** Whether {@code record} starts like a value of this layout (the first byte only). */
    public static boolean isBinary(byte[] record, int length) {
        return record != null && length >= 1 && record[0] == FORMAT;
    }

    /** The value of {@code s} (never null; its size is checked by {@link RevisitRecords#fit}). */
    public static byte[] encode(RevisitState s) {
        BinaryCodec.Writer w = new BinaryCodec.Writer(96 + s.url().length());
        w.u8(FORMAT);
        w.varlong(s.dueUnit());
        w.i64(s.fingerprint());
        w.varlong(s.v());
        w.varlong(s.depth());
        writeHistory(w, s.etag(), s.lastModified(), s.contentHash(), s.visits(), s.changes(), s.observedUnits(),
                s.intervalUnits(), s.changedUnits(), s.lastFetchedMs(), s.firstFetchedMs(), s.changedIntervals(),
                s.url(), s.ip());
        return w.toByteArray();
    }

    /**
     * The part of a state that a memo shares (flags, the seven numbers, the strings named, the validators, the hash,
     * the change-interval classes), written in that order; {@code head} strings (URL and IP for a state, none for a
     * memo) come right after the numbers.
     */
    static void writeHistory(BinaryCodec.Writer w, String etag, String lastModified, String hash, long visits,
                             long changes, long observed, long interval, long changedUnits, long last, long first,
                             ChangeIntervals intervals, String... head) {
        boolean rawHash = BinaryCodec.isLowerHex32(hash);
        long[] counts = intervals == null ? null : intervals.toArray();
        int flags = (etag != null ? ETAG : 0) | (lastModified != null ? LAST_MODIFIED : 0)
                | (rawHash ? HASH_RAW : 0) | (hash != null && !rawHash ? HASH_TEXT : 0)
                | (counts != null ? INTERVALS : 0);
        w.u8(flags);
        w.varlong(visits);
        w.varlong(changes);
        w.varlong(observed);
        w.varlong(interval);
        w.varlong(changedUnits);
        w.varlong(last);
        w.varlong(first);
        for (String h : head) {
            w.string(h);
        }
        if (etag != null) {
            w.string(etag);
        }
        if (lastModified != null) {
            w.string(lastModified);
        }
        if (rawHash) {
            w.hex32(hash);
        } else if (hash != null) {
            w.string(hash);
        }
        if (counts != null) {
            w.varlong(counts.length);
            for (long c : counts) {
                w.varlong(c);
            }
        }
    }

    /** Writes {@code m} (its version, then its history) for a store value that carries a memo. */
    public static void writeMemo(BinaryCodec.Writer w, RevisitMemo m) {
        w.varlong(m.v());
        writeHistory(w, m.etag(), m.lastModified(), m.contentHash(), m.visits(), m.changes(), m.observedUnits(),
                m.intervalUnits(), m.changedUnits(), m.lastFetchedMs(), m.firstFetchedMs(), m.changedIntervals());
    }

    /** Reads what {@link #writeMemo} wrote, or null with {@code r.problem()} set; never throws. */
    public static RevisitMemo readMemo(BinaryCodec.Reader r) {
        int v = r.varint();
        History h = readHistory(r, 0);
        if (r.problem() != null) {
            return null;
        }
        return new RevisitMemo(v, h.etag(), h.lastModified(), h.hash(), h.visits(), h.changes(), h.observed(),
                h.interval(), h.first(), h.last(), h.changedUnits(), h.intervals());
    }

    /** What {@link #readHistory} read. */
    record History(String etag, String lastModified, String hash, long visits, long changes, long observed,
                   long interval, long changedUnits, long last, long first, ChangeIntervals intervals,
                   String[] head) {
    }

    /** Reads what {@link #writeHistory} wrote with {@code heads} head strings; check {@code r.problem()} after. */
    static History readHistory(BinaryCodec.Reader r, int heads) {
        int flags = r.u8();
        long visits = r.varlong();
        long changes = r.varlong();
        long observed = r.varlong();
        long interval = r.varlong();
        long changedUnits = r.varlong();
        long last = r.varlong();
        long first = r.varlong();
        String[] head = new String[heads];
        for (int i = 0; i < heads; i++) {
            head[i] = r.string();
        }
        if (r.problem() == null && ((flags & ~KNOWN_FLAGS) != 0
                || (flags & (HASH_RAW | HASH_TEXT)) == (HASH_RAW | HASH_TEXT))) {
            r.fail(BinaryCodec.Problem.MALFORMED);
        }
        String etag = (flags & ETAG) != 0 ? r.string() : null;
        String lastModified = (flags & LAST_MODIFIED) != 0 ? r.string() : null;
        String hash = null;
        if ((flags & HASH_RAW) != 0) {
            hash = r.hex32();
        } else if ((flags & HASH_TEXT) != 0) {
            hash = r.string();
        }
        ChangeIntervals intervals = null;
        if ((flags & INTERVALS) != 0 && r.problem() == null) {
            long n = r.varlong();
            if (r.problem() == null && (n < 0 || n > ChangeIntervals.BUCKETS)) {
                r.fail(BinaryCodec.Problem.MALFORMED);
            }
            long[] counts = new long[r.problem() == null ? (int) n : 0];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.varlong();
            }
            intervals = ChangeIntervals.of(counts); // out-of-range counts read as an invalid summary, never throw
        }
        return new History(etag, lastModified, hash, visits, changes, observed, interval, changedUnits, last, first,
                intervals, head);
    }

    /** The due unit of a value of this layout, or {@link Long#MIN_VALUE} when it does not start with one. */
    public static long due(byte[] record, int length) {
        if (!isBinary(record, length)) {
            return Long.MIN_VALUE;
        }
        BinaryCodec.Reader r = new BinaryCodec.Reader(record, 1, Math.min(length, record.length));
        long due = r.varlong();
        return r.problem() == null ? due : Long.MIN_VALUE;
    }

    /** Decodes {@code record[0, length)}; never throws. */
    public static Decoded decode(byte[] record, int length) {
        if (record == null || length < 1 || length > record.length) {
            return new Decoded(null, BinaryCodec.Problem.TRUNCATED);
        }
        if (record[0] != FORMAT) {
            return new Decoded(null, BinaryCodec.Problem.UNKNOWN_FORMAT);
        }
        BinaryCodec.Reader r = new BinaryCodec.Reader(record, 1, length);
        long due = r.varlong();
        long fingerprint = r.i64();
        int v = r.varint();
        int depth = r.varint();
        History h = readHistory(r, 2);
        if (r.finish() != null) {
            return new Decoded(null, r.problem());
        }
        return new Decoded(new RevisitState(v, h.head()[0], fingerprint, h.head()[1], depth, h.etag(),
                h.lastModified(), h.hash(), h.visits(), h.changes(), h.observed(), h.interval(), h.last(), due,
                h.first(), h.changedUnits(), h.intervals()), null);
    }
}
