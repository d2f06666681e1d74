package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.FingerprintSet;

import java.util.Objects;

/**
 * The foundation URL-seen test: an exact set of every admitted fingerprint, no cache and no filter in front. It
 * never admits a URL twice and never rejects a new one (the only error is a 64-bit fingerprint collision, ~5×10^-11
 * per URL at 10^9 URLs, see {@code Fingerprints}). Its cost is one store lookup per test, which the paper's cascade
 * (DESIGN §4.1) later cuts by answering most tests from an LRU and a Stable Bloom Filter Light before reaching the
 * set; this class stays as the baseline that cascade is measured and contract-tested against.
 */
public final class ExactUrlSeenTest implements UrlSeenTest {
    private final FingerprintSet seen;

    public ExactUrlSeenTest(FingerprintSet seen) {
        this.seen = Objects.requireNonNull(seen, "seen");
    }

    @Override
    public boolean testAndAdd(long fingerprint) {
        return seen.add(fingerprint);
    }

    @Override
    public void forget(long fingerprint) {
        seen.remove(fingerprint);
    }
}
