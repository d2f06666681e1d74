package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.HashFingerprintSet;

/** The URL-seen contract for the exact set over an in-memory fingerprint set. */
class ExactUrlSeenTestOnHashSetTest extends UrlSeenTestContract {
    @Override
    protected UrlSeenTest newSeenTest() {
        return new ExactUrlSeenTest(new HashFingerprintSet());
    }
}
