package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;

import java.nio.charset.StandardCharsets;

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
 * {@code length}; a truncated, over-long or otherwise impossible value is refused with a {@link Problem}. Invariant
 * (held by {@code RevisitStateCodecTest}): {@code decode(encode(s)) == s} for every state whose strings are valid
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
    private static final int RAW_HASH_BYTES = 16;

    /** Why a value was refused. */
    public enum Problem {
        /** Ends before its last field. */
        TRUNCATED,
        /** The first byte is not {@link #FORMAT}. */
        UNKNOWN_FORMAT,
        /** A varint longer than 10 bytes, an unknown flag, a length or count out of range. */
        MALFORMED,
        /** Bytes left over after the last field. */
        TRAILING_BYTES
    }

    /** A decoded state, or the reason there is none (exactly one of the two is null). */
    public record Decoded(RevisitState state, Problem problem) {
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
        byte[] url = utf8(s.url());
        byte[] ip = utf8(s.ip());
        byte[] etag = s.etag() == null ? null : utf8(s.etag());
        byte[] lastModified = s.lastModified() == null ? null : utf8(s.lastModified());
        String hash = s.contentHash();
        boolean rawHash = hash != null && isLowerHex32(hash);
        byte[] hashText = hash == null || rawHash ? null : utf8(hash);
        long[] intervals = s.changedIntervals() == null ? null : s.changedIntervals().toArray();
        int flags = (etag != null ? ETAG : 0) | (lastModified != null ? LAST_MODIFIED : 0)
                | (rawHash ? HASH_RAW : 0) | (hashText != null ? HASH_TEXT : 0) | (intervals != null ? INTERVALS : 0);
        // upper bound of the size: fixed fields at their widest, strings with a 5-byte length
        int max = 1 + 10 + 8 + 5 + 5 + 1 + 7 * 10 + 5 + url.length + 5 + ip.length
                + (etag == null ? 0 : 5 + etag.length) + (lastModified == null ? 0 : 5 + lastModified.length)
                + (rawHash ? RAW_HASH_BYTES : 0) + (hashText == null ? 0 : 5 + hashText.length)
                + (intervals == null ? 0 : 5 + 10 * intervals.length);
        Writer w = new Writer(new byte[max]);
        w.u8(FORMAT);
        w.varlong(s.dueUnit());
        w.i64(s.fingerprint());
        w.varlong(s.v());
        w.varlong(s.depth());
        w.u8(flags);
        w.varlong(s.visits());
        w.varlong(s.changes());
        w.varlong(s.observedUnits());
        w.varlong(s.intervalUnits());
        w.varlong(s.changedUnits());
        w.varlong(s.lastFetchedMs());
        w.varlong(s.firstFetchedMs());
        w.bytes(url);
        w.bytes(ip);
        if (etag != null) {
            w.bytes(etag);
        }
        if (lastModified != null) {
            w.bytes(lastModified);
        }
        if (rawHash) {
            for (int i = 0; i < 32; i += 2) {
                w.u8((Character.digit(hash.charAt(i), 16) << 4) | Character.digit(hash.charAt(i + 1), 16));
            }
        } else if (hashText != null) {
            w.bytes(hashText);
        }
        if (intervals != null) {
            w.varlong(intervals.length);
            for (long c : intervals) {
                w.varlong(c);
            }
        }
        return java.util.Arrays.copyOf(w.buf, w.pos);
    }

    /** The due unit of a value of this layout, or {@link Long#MIN_VALUE} when it does not start with one. */
    public static long due(byte[] record, int length) {
        if (!isBinary(record, length)) {
            return Long.MIN_VALUE;
        }
        Reader r = new Reader(record, 1, Math.min(length, record.length));
        long due = r.varlong();
        return r.problem == null ? due : Long.MIN_VALUE;
    }

    /** Decodes {@code record[0, length)}; never throws. */
    public static Decoded decode(byte[] record, int length) {
        if (record == null || length < 1 || length > record.length) {
            return new Decoded(null, Problem.TRUNCATED);
        }
        if (record[0] != FORMAT) {
            return new Decoded(null, Problem.UNKNOWN_FORMAT);
        }
        Reader r = new Reader(record, 1, length);
        long due = r.varlong();
        long fingerprint = r.i64();
        long v = r.varlong();
        long depth = r.varlong();
        int flags = r.u8();
        long visits = r.varlong();
        long changes = r.varlong();
        long observed = r.varlong();
        long interval = r.varlong();
        long changedUnits = r.varlong();
        long last = r.varlong();
        long first = r.varlong();
        String url = r.string();
        String ip = r.string();
        if (r.problem == null && ((flags & ~KNOWN_FLAGS) != 0 || (flags & (HASH_RAW | HASH_TEXT)) == (HASH_RAW | HASH_TEXT)
                || v != (int) v || depth != (int) depth)) {
            r.fail(Problem.MALFORMED);
        }
        String etag = (flags & ETAG) != 0 ? r.string() : null;
        String lastModified = (flags & LAST_MODIFIED) != 0 ? r.string() : null;
        String hash = null;
        if ((flags & HASH_RAW) != 0) {
            hash = r.hex(RAW_HASH_BYTES);
        } else if ((flags & HASH_TEXT) != 0) {
            hash = r.string();
        }
        ChangeIntervals intervals = null;
        if ((flags & INTERVALS) != 0 && r.problem == null) {
            long n = r.varlong();
            if (r.problem == null && (n < 0 || n > ChangeIntervals.BUCKETS)) {
                r.fail(Problem.MALFORMED);
            }
            long[] counts = new long[r.problem == null ? (int) n : 0];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.varlong();
            }
            intervals = ChangeIntervals.of(counts); // out-of-range counts read as an invalid summary, never throw
        }
        if (r.problem == null && r.pos != length) {
            r.fail(Problem.TRAILING_BYTES);
        }
        if (r.problem != null) {
            return new Decoded(null, r.problem);
        }
        return new Decoded(new RevisitState((int) v, url, fingerprint, ip, (int) depth, etag, lastModified, hash,
                visits, changes, observed, interval, last, due, first, changedUnits, intervals), null);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isLowerHex32(String s) {
        if (s.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    private static final class Writer {
        final byte[] buf;
        int pos;

        Writer(byte[] buf) {
            this.buf = buf;
        }

        void u8(int b) {
            buf[pos++] = (byte) b;
        }

        void i64(long v) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (v >>> shift);
            }
        }

        void varlong(long v) {
            long z = (v << 1) ^ (v >> 63); // zig-zag
            while ((z & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((z & 0x7F) | 0x80);
                z >>>= 7;
            }
            buf[pos++] = (byte) z;
        }

        void bytes(byte[] b) {
            varlong(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }
    }

    /** Reads within [pos, end); after the first problem every read returns 0 or null and the problem stays. */
    private static final class Reader {
        private static final char[] HEX = "0123456789abcdef".toCharArray();
        final byte[] buf;
        final int end;
        int pos;
        Problem problem;

        Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        void fail(Problem p) {
            if (problem == null) {
                problem = p;
            }
        }

        int u8() {
            if (problem != null || pos >= end) {
                fail(Problem.TRUNCATED);
                return 0;
            }
            return buf[pos++] & 0xFF;
        }

        long i64() {
            if (problem != null || end - pos < Long.BYTES) {
                fail(Problem.TRUNCATED);
                return 0;
            }
            long v = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                v = (v << 8) | (buf[pos++] & 0xFF);
            }
            return v;
        }

        long varlong() {
            long z = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (problem != null) {
                    return 0;
                }
                if (pos >= end) {
                    fail(Problem.TRUNCATED);
                    return 0;
                }
                int b = buf[pos++] & 0xFF;
                z |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return (z >>> 1) ^ -(z & 1);
                }
            }
            fail(Problem.MALFORMED); // more than 10 bytes
            return 0;
        }

        String string() {
            long n = varlong();
            if (problem != null) {
                return null;
            }
            if (n < 0 || n > end - pos) {
                fail(n < 0 ? Problem.MALFORMED : Problem.TRUNCATED);
                return null;
            }
            String s = new String(buf, pos, (int) n, StandardCharsets.UTF_8);
            pos += (int) n;
            return s;
        }

        String hex(int bytes) {
            if (problem != null || end - pos < bytes) {
                fail(Problem.TRUNCATED);
                return null;
            }
            char[] c = new char[2 * bytes];
            for (int i = 0; i < bytes; i++) {
                int b = buf[pos++] & 0xFF;
                c[2 * i] = HEX[b >>> 4];
                c[2 * i + 1] = HEX[b & 0xF];
            }
            return new String(c);
        }
    }
}
