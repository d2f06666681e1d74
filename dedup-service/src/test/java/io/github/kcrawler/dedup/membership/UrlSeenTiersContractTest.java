package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.HashFingerprintSet;

/**
 * The shared URL-seen contract on the tiered test, with a small LRU so that the filter and the store are exercised
 * on every path. Its filter may answer a false positive, so the contract holds it to "never admits twice" only.
 */
class UrlSeenTiersContractTest extends UrlSeenContract {
    @Override
    protected UrlSeen newSeenTest() {
        return new UrlSeenTiers(64, StableBloomFilterLight.forTargetFpr(1L << 14, 8, 1e-5, 2),
                new HashFingerprintSet());
    }

    @Override
    protected boolean exact() {
        return false;
    }
}
