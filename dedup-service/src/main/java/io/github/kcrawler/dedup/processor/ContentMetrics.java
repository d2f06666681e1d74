package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.metrics.BadRecordCounters;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.serde.BadRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/** Meters of content-duplicate detection, registered once per service and shared by its stream threads. */
public final class ContentMetrics {
    private final Counter duplicates;
    private final Counter adds;
    private final Counter removes;
    private final Counter readsAvoided;
    private final BadRecordCounters bad;

    public ContentMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        duplicates = Counter.builder(MetricNames.DEDUP_CONTENT_DUPLICATES)
                .description("fetched URLs whose body other URLs already hold").register(registry);
        adds = Counter.builder(MetricNames.DEDUP_CONTENT_REFS).tag("op", "add")
                .description("URLs starting to hold a body").register(registry);
        removes = Counter.builder(MetricNames.DEDUP_CONTENT_REFS).tag("op", "remove")
                .description("URLs no longer holding a body (changed or gone)").register(registry);
        readsAvoided = Counter.builder(MetricNames.DEDUP_CONTENT_DB_READS_AVOIDED)
                .description("new bodies recognised by the counting Bloom filter without a DB read")
                .register(registry);
        bad = new BadRecordCounters(registry, inputTopics);
    }

    void added(boolean readAvoided) {
        adds.increment();
        if (readAvoided) {
            readsAvoided.increment();
        }
    }

    void removed() {
        removes.increment();
    }

    void duplicate() {
        duplicates.increment();
    }

    void bad(String topic, BadRecord reason) {
        bad.count(topic, reason);
    }
}
