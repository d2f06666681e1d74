package io.github.kcrawler.common.fingerprint;

/**
 * {@link Fingerprints#contentHash} of a text body as it was defined and written before the branch-free form (commit
 * 5dd7e34): fold whitespace with a branch per byte into a copy, hash the copy, format with {@code String.format}. The
 * model {@code FingerprintsTest} checks the product against, and the {@code before} variant of {@code ContentHashJmh}.
 */
public final class ContentHashModel {
    private ContentHashModel() {
    }

    public static String contentHash(byte[] body, int length) {
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
        long[] h = Fingerprints.fingerprint128(normalised, 0, n);
        return String.format("%016x%016x", h[0], h[1]);
    }
}
