package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.HashFingerprintSet;

/** The URL-seen contract for the in-memory exact fingerprint set alone. */
class HashFingerprintSetContractTest extends UrlSeenContract {
    @Override
    protected UrlSeen newSeenTest() {
        return exactOver(new HashFingerprintSet());
    }
}
