package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dedup service's counters, registered once per service and shared by all its stream threads (Micrometer
 * counters are thread-safe). Bad-record counters are registered up front for every input topic and reason.
 */
public final class DedupMetrics {
    private final MeterRegistry registry;
    private final Counter tests;
    private final Counter admitted;
    private final Counter forgotten;
    private final Map<String, Map<BadRecord, Counter>> bad = new ConcurrentHashMap<>();
    final UrlSeenTierMetrics tiers;

    public DedupMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.registry = registry;
        this.tiers = new UrlSeenTierMetrics(registry);
        this.tests = Counter.builder(MetricNames.DEDUP_TESTS).description("URL-seen tests").register(registry);
        this.admitted = Counter.builder(MetricNames.DEDUP_NEW).description("URLs admitted as new").register(registry);
        this.forgotten = Counter.builder(MetricNames.DEDUP_FORGOTTEN).description("URLs forgotten on request")
                .register(registry);
        for (String topic : inputTopics) {
            badCounters(topic);
        }
    }

    public void tested() {
        tests.increment();
    }

    public void admitted() {
        admitted.increment();
    }

    public void forgotten() {
        forgotten.increment();
    }

    public void bad(String topic, BadRecord reason) {
        badCounters(topic == null ? "unknown" : topic).get(reason).increment();
    }

    private Map<BadRecord, Counter> badCounters(String topic) {
        return bad.computeIfAbsent(topic, t -> {
            Map<BadRecord, Counter> byReason = new EnumMap<>(BadRecord.class);
            for (BadRecord reason : BadRecord.values()) {
                byReason.put(reason, Counter.builder(MetricNames.BAD_RECORDS)
                        .description("records that could not be read and were skipped")
                        .tag("topic", t).tag("reason", reason.tag()).register(registry));
            }
            return byReason;
        });
    }
}
