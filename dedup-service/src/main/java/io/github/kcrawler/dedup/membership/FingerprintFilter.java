package io.github.kcrawler.dedup.membership;

/**
 * An approximate membership filter over 64-bit URL fingerprints: the middle tier of the URL-seen test (DESIGN
 * §4.1). Primitive and allocation-free, like Caffeine's membership interface, because it is asked once per
 * discovered link. A positive answer may be false (the filter's documented false-positive rate); a negative answer
 * may also be false for the stable filters, which forget old elements on purpose — the caller then falls through to
 * the exact fingerprint set, so a false negative costs a storage lookup and never a duplicate admission.
 */
public interface FingerprintFilter {
    /** True if the fingerprint may have been put (recently); false if it was certainly not, or has decayed. */
    boolean mightContain(long fingerprint);

    /**
     * Records the fingerprint.
     *
     * @return true if the filter's answer for it changed (at least one of its counters was zero before)
     */
    boolean put(long fingerprint);

    /** Makes the filter answer false for the fingerprint (and possibly for others sharing a counter). */
    void forget(long fingerprint);

    /** Bytes of memory held by the filter's arrays. */
    long memoryBytes();

    /** A filter that holds nothing and answers false: the URL-seen test without its middle tier (LRU only). */
    static FingerprintFilter disabled() {
        return Disabled.INSTANCE;
    }

    /** The no-op filter of {@link #disabled()}. */
    enum Disabled implements FingerprintFilter {
        INSTANCE;

        @Override
        public boolean mightContain(long fingerprint) {
            return false;
        }

        @Override
        public boolean put(long fingerprint) {
            return false;
        }

        @Override
        public void forget(long fingerprint) {
        }

        @Override
        public long memoryBytes() {
            return 0;
        }
    }
}
