package io.github.kcrawler.ranker.processor;

import org.apache.kafka.common.utils.Bytes;

/**
 * Store keys for URL fingerprints: the 64-bit fingerprint as 8 big-endian bytes, no boxing and no serde lookup on
 * the hot path.
 */
public final class FingerprintKeys {
    private FingerprintKeys() {
    }

    public static Bytes key(long fingerprint) {
        byte[] b = new byte[Long.BYTES];
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            b[i] = (byte) fingerprint;
            fingerprint >>>= 8;
        }
        return Bytes.wrap(b);
    }

    public static long fingerprint(Bytes key) {
        byte[] b = key.get();
        if (b.length != Long.BYTES) {
            throw new IllegalArgumentException("a fingerprint key has 8 bytes, was " + b.length);
        }
        long fp = 0;
        for (byte x : b) {
            fp = fp << 8 | (x & 0xff);
        }
        return fp;
    }
}
