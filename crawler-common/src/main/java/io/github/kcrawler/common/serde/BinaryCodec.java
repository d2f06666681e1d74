package io.github.kcrawler.common.serde;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The primitives of the services' binary store values (the scheduler's {@code RevisitStateCodec} and
 * {@code PendingEntryCodec}, the ranker's {@code RankPageCodec}): zig-zag varints, fixed 8-byte longs, length-prefixed UTF-8 strings, and a 32-hex-digit
 * content hash as its 16 bytes. No Kafka, no I/O. The {@link Reader} is for untrusted bytes: it never reads past its
 * end and never throws; the first problem is kept ({@link Reader#problem}) and every later read returns 0 or null.
 */
public final class BinaryCodec {
    /** Why a value was refused. */
    public enum Problem {
        /** Ends before its last field. */
        TRUNCATED,
        /** The first byte is not the expected format. */
        UNKNOWN_FORMAT,
        /** A varint longer than 10 bytes, an unknown flag, a length or count out of range. */
        MALFORMED,
        /** Bytes left over after the last field. */
        TRAILING_BYTES
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** Bytes of a content hash stored raw. */
    public static final int RAW_HASH_BYTES = 16;

    private BinaryCodec() {
    }

    /** Whether {@code s} is 32 lowercase hex digits (a content hash that can be stored as 16 bytes). */
    public static boolean isLowerHex32(String s) {
        if (s == null || s.length() != 32) {
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

    /** A growable output buffer. */
    public static final class Writer {
        private byte[] buf;
        private int pos;

        public Writer(int initialCapacity) {
            buf = new byte[Math.max(16, initialCapacity)];
        }

        private void ensure(int more) {
            if (pos + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
            }
        }

        public Writer u8(int b) {
            ensure(1);
            buf[pos++] = (byte) b;
            return this;
        }

        public Writer i64(long v) {
            ensure(Long.BYTES);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (v >>> shift);
            }
            return this;
        }

        public Writer varlong(long v) {
            ensure(10);
            long z = (v << 1) ^ (v >> 63); // zig-zag
            while ((z & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((z & 0x7F) | 0x80);
                z >>>= 7;
            }
            buf[pos++] = (byte) z;
            return this;
        }

        public Writer bytes(byte[] b) {
            varlong(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
            return this;
        }

        public Writer string(String s) {
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        /** 32 lowercase hex digits ({@link #isLowerHex32}) as their 16 bytes. */
        public Writer hex32(String hash) {
            ensure(RAW_HASH_BYTES);
            for (int i = 0; i < 32; i += 2) {
                buf[pos++] = (byte) ((Character.digit(hash.charAt(i), 16) << 4) | Character.digit(hash.charAt(i + 1),
                        16));
            }
            return this;
        }

        public int size() {
            return pos;
        }

        public byte[] toByteArray() {
            return Arrays.copyOf(buf, pos);
        }
    }

    /** Reads within [pos, end); after the first problem every read returns 0 or null and the problem stays. */
    public static final class Reader {
        private final byte[] buf;
        private final int end;
        private int pos;
        private Problem problem;

        public Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        public Problem problem() {
            return problem;
        }

        public int position() {
            return pos;
        }

        public void fail(Problem p) {
            if (problem == null) {
                problem = p;
            }
        }

        /** Fails with {@link Problem#TRAILING_BYTES} if anything is left; returns the problem, if any. */
        public Problem finish() {
            if (problem == null && pos != end) {
                fail(Problem.TRAILING_BYTES);
            }
            return problem;
        }

        public int u8() {
            if (problem != null || pos >= end) {
                fail(Problem.TRUNCATED);
                return 0;
            }
            return buf[pos++] & 0xFF;
        }

        public long i64() {
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

        public long varlong() {
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

        /** A varint that must fit an int; fails MALFORMED otherwise. */
        public int varint() {
            long v = varlong();
            if (v != (int) v) {
                fail(Problem.MALFORMED);
                return 0;
            }
            return (int) v;
        }

        public String string() {
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

        /** 16 bytes as 32 lowercase hex digits. */
        public String hex32() {
            if (problem != null || end - pos < RAW_HASH_BYTES) {
                fail(Problem.TRUNCATED);
                return null;
            }
            char[] c = new char[2 * RAW_HASH_BYTES];
            for (int i = 0; i < RAW_HASH_BYTES; i++) {
                int b = buf[pos++] & 0xFF;
                c[2 * i] = HEX[b >>> 4];
                c[2 * i + 1] = HEX[b & 0xF];
            }
            return new String(c);
        }
    }
}
