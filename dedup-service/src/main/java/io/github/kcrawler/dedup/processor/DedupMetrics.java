package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.serde.BadRecord;

import io.github.kcrawler.common.metrics.BadRecordCounters;
import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * The dedup service's counters, registered once per service and shared by all its stream threads (Micrometer
 * counters are thread-safe). Bad-record counters are registered up front for every input topic and reason.
 */
public final class DedupMetrics {
    private final Counter tests;
    private final Counter admitted;
    private final Counter forgotten;
    private final Counter rerouted;
    private final BadRecordCounters bad;
    final UrlSeenTierMetrics tiers;

    public DedupMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.tiers = new UrlSeenTierMetrics(registry);
        this.tests = Counter.builder(MetricNames.DEDUP_TESTS).description("URL-seen tests").register(registry);
        this.admitted = Counter.builder(MetricNames.DEDUP_NEW).description("URLs admitted as new").register(registry);
        this.forgotten = Counter.builder(MetricNames.DEDUP_FORGOTTEN).description("URLs forgotten on request")
                .register(registry);
        this.rerouted = Counter.builder(MetricNames.DEDUP_REROUTED)
                .description("discovered URLs grouped onto another IP's partition, sent back under their own IP")
                .register(registry);
        this.bad = new BadRecordCounters(registry, inputTopics);
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

    public void rerouted() {
        rerouted.increment();
    }

    public void bad(String topic, BadRecord reason) {
        bad.count(topic, reason);
    }

}
