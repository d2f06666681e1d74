package io.github.kcrawler.ranker.processor;

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
 * The ranker's counters, registered once per service and shared by all its stream threads (Micrometer counters
 * are thread-safe). Bad-record counters are registered up front for every input topic and reason.
 */
public final class RankerMetrics {
    private final MeterRegistry registry;
    private final Counter updates;
    private final Map<String, Map<BadRecord, Counter>> bad = new ConcurrentHashMap<>();

    public RankerMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.registry = registry;
        this.updates = Counter.builder(MetricNames.RANK_UPDATES).description("score updates published")
                .register(registry);
        for (String topic : inputTopics) {
            badCounters(topic);
        }
    }

    public void scorePublished() {
        updates.increment();
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
