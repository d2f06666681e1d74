package io.github.kcrawler.common.fingerprint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Fingerprints used across the crawler: 64 bits for URLs (the URL-seen test keys on them; at 10^9 URLs the
 * chance of any collision is ~2.7%, of a given URL colliding ~5×10^-11) and 128 bits for page bodies.
 * MurmurHash3 x64_128 (Appleby, public domain), written out here so that every service, the simulator and the
 * benchmarks hash identically without a dependency; a fingerprint is persisted, so this function must never change.
 */
public final class Fingerprints {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final int SEED = 0x9747b28c;

    private Fingerprints() {
    }

    /** 64-bit fingerprint of a (normalised) URL. */
    public static long url(String url) {
        byte[] b = url.getBytes(StandardCharsets.UTF_8);
        long[] h = murmur3(b, 0, b.length);
        return h[0];
    }

    /** 128-bit fingerprint as {high, low}. */
    public static long[] fingerprint128(byte[] data, int offset, int length) {
        return murmur3(data, offset, length);
    }

    /** 128-bit fingerprint as 32 lowercase hex digits. */
    public static String hex128(byte[] data, int offset, int length) {
        long[] h = murmur3(data, offset, length);
        return hex(h[0], h[1]);
    }

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** {@code String.format("%016x%016x", hi, lo)} without the formatter. */
    private static String hex(long hi, long lo) {
        byte[] out = new byte[32];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX_DIGITS[(int) (hi & 15)];
            out[16 + i] = HEX_DIGITS[(int) (lo & 15)];
            hi >>>= 4;
            lo >>>= 4;
        }
        return new String(out, StandardCharsets.US_ASCII);
    }

    /**
     * Fingerprint of a page body for content-duplicate detection (paper 001), as 32 hex digits. Text bodies are
     * normalised first — every run of ASCII whitespace becomes one space, leading and trailing whitespace is dropped
     * — so that pages differing only in indentation or line endings count as identical; other bodies are hashed as
     * they are.
     */
    public static String contentHash(byte[] body, int length, boolean text) {
        if (!text) {
            return hex128(body, 0, length);
        }
        // Branch-free: whitespace in text comes every few bytes, so a branch per byte is mispredicted about once a
        // word. Every byte is written (whitespace as ' ') at n; n moves on unless the byte is whitespace after
        // whitespace (or at the start), and a trailing space is dropped at the end. Same bytes as the branching
        // form, with eight-byte loads in MurmurHash3: 0.79-0.82x the CPU of before on a 16 KiB page (ContentHashJmh's
        // page, thread CPU time under load; FingerprintsTest checks the result against the branching form).
        byte[] normalised = new byte[length];
        int n = 0;
        int lastWhitespace = 1;
        for (int i = 0; i < length; i++) {
            int c = body[i] & 0xff;
            int whitespace = WHITESPACE[c];
            normalised[n] = FOLDED[c];
            n += 1 - (whitespace & lastWhitespace);
            lastWhitespace = whitespace;
        }
        if (lastWhitespace == 1 && n > 0) {
            n--;
        }
        return hex128(normalised, 0, n);
    }

    /** 1 for the bytes {@link #contentHash} folds: space, tab, LF, FF, CR. */
    private static final byte[] WHITESPACE = new byte[256];
    /** Each byte as itself, the whitespace bytes as a space. */
    private static final byte[] FOLDED = new byte[256];

    static {
        for (int c = 0; c < 256; c++) {
            FOLDED[c] = (byte) c;
        }
        for (char c : new char[] {' ', '\t', '\n', '\f', '\r'}) {
            WHITESPACE[c] = 1;
            FOLDED[c] = ' ';
        }
    }

    private static long[] murmur3(byte[] data, int offset, int length) {
        long h1 = SEED;
        long h2 = SEED;
        int nblocks = length >>> 4;
        for (int i = 0; i < nblocks; i++) {
            int p = offset + (i << 4);
            long k1 = getLong(data, p);
            long k2 = getLong(data, p + 8);
            k1 *= C1; k1 = Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
            k2 *= C2; k2 = Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = offset + (nblocks << 4);
        switch (length & 15) {
            case 15: k2 ^= (long) (data[tail + 14] & 0xff) << 48;
            case 14: k2 ^= (long) (data[tail + 13] & 0xff) << 40;
            case 13: k2 ^= (long) (data[tail + 12] & 0xff) << 32;
            case 12: k2 ^= (long) (data[tail + 11] & 0xff) << 24;
            case 11: k2 ^= (long) (data[tail + 10] & 0xff) << 16;
            case 10: k2 ^= (long) (data[tail + 9] & 0xff) << 8;
            case 9:
                k2 ^= data[tail + 8] & 0xff;
                k2 *= C2; k2 = Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2;
            case 8: k1 ^= (long) (data[tail + 7] & 0xff) << 56;
            case 7: k1 ^= (long) (data[tail + 6] & 0xff) << 48;
            case 6: k1 ^= (long) (data[tail + 5] & 0xff) << 40;
            case 5: k1 ^= (long) (data[tail + 4] & 0xff) << 32;
            case 4: k1 ^= (long) (data[tail + 3] & 0xff) << 24;
            case 3: k1 ^= (long) (data[tail + 2] & 0xff) << 16;
            case 2: k1 ^= (long) (data[tail + 1] & 0xff) << 8;
            case 1:
                k1 ^= data[tail] & 0xff;
                k1 *= C1; k1 = Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1;
            default:
                break;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    /** Eight bytes at {@code p}, little-endian, in one load (half of MurmurHash3's time when assembled byte by byte). */
    private static long getLong(byte[] b, int p) {
        return (long) LITTLE_ENDIAN_LONG.get(b, p);
    }

    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** MurmurHash3's 64-bit finaliser: a good bit mixer, also used to derive hash positions from a fingerprint. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
