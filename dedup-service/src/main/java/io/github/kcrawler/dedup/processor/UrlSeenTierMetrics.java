package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.ToLongFunction;

/**
 * Per-tier counters of the URL-seen tests of all tasks in this instance (LRU hits, SBFL positives, store lookups and
 * hits), registered once. Each task's {@link UrlSeenTiers} counts on plain longs on its own thread; the meters
 * read them when scraped, and a task that closes (rebalance) hands its totals to {@code retired} so the counters
 * never go backwards.
 */
final class UrlSeenTierMetrics {
    private static final String[] NAMES = {MetricNames.DEDUP_LRU_HITS, MetricNames.DEDUP_SBFL_POSITIVES,
            MetricNames.DEDUP_STORAGE_LOOKUPS, MetricNames.DEDUP_STORAGE_HITS};
    private static final String[] DESCRIPTIONS = {"URL-seen tests answered by the LRU of fingerprints",
            "URL-seen tests answered 'seen' by the Stable Bloom Filter Light (may be false positives)",
            "URL-seen tests that reached the fingerprint store", "fingerprint store lookups that found the URL"};
    @SuppressWarnings("unchecked")
    private static final ToLongFunction<UrlSeenTiers>[] READERS = new ToLongFunction[] {
            (ToLongFunction<UrlSeenTiers>) UrlSeenTiers::lruHits,
            (ToLongFunction<UrlSeenTiers>) UrlSeenTiers::sbflPositives,
            (ToLongFunction<UrlSeenTiers>) UrlSeenTiers::storageLookups,
            (ToLongFunction<UrlSeenTiers>) UrlSeenTiers::storageHits};

    private final Set<UrlSeenTiers> live = ConcurrentHashMap.newKeySet();
    private final AtomicLongArray retired = new AtomicLongArray(NAMES.length);

    UrlSeenTierMetrics(MeterRegistry registry) {
        for (int i = 0; i < NAMES.length; i++) {
            int tier = i;
            FunctionCounter.builder(NAMES[i], this, m -> m.total(tier)).description(DESCRIPTIONS[i])
                    .register(registry);
        }
    }

    void attach(UrlSeenTiers test) {
        live.add(test);
    }

    void detach(UrlSeenTiers test) {
        if (live.remove(test)) {
            for (int i = 0; i < NAMES.length; i++) {
                retired.addAndGet(i, READERS[i].applyAsLong(test));
            }
        }
    }

    private double total(int tier) {
        long sum = retired.get(tier);
        for (UrlSeenTiers t : live) {
            sum += READERS[tier].applyAsLong(t);
        }
        return sum;
    }
}
