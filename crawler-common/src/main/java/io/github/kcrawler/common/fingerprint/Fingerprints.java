package io.github.kcrawler.common.fingerprint;

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
        return String.format("%016x%016x", h[0], h[1]);
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
        byte[] normalised = new byte[length];
        int n = 0;
        boolean space = false;
        for (int i = 0; i < length; i++) {
            byte b = body[i];
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f') {
                space = n > 0;
            } else {
                if (space) {
                    normalised[n++] = ' ';
                    space = false;
                }
                normalised[n++] = b;
            }
        }
        return hex128(normalised, 0, n);
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

    private static long getLong(byte[] b, int p) {
        return (b[p] & 0xffL) | (b[p + 1] & 0xffL) << 8 | (b[p + 2] & 0xffL) << 16 | (b[p + 3] & 0xffL) << 24
                | (b[p + 4] & 0xffL) << 32 | (b[p + 5] & 0xffL) << 40 | (b[p + 6] & 0xffL) << 48
                | (b[p + 7] & 0xffL) << 56;
    }

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
