package io.github.kcrawler.common.metrics;

import io.github.kcrawler.common.serde.BadRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@value MetricNames#BAD_RECORDS} by topic and {@link BadRecord} reason, shared by every service that reads our
 * topics. Every reason is registered up front for each input topic so dashboards see zeros rather than missing
 * series; a topic first named at run time gets its counters then.
 */
public final class BadRecordCounters {
    private final MeterRegistry registry;
    private final Map<String, Map<BadRecord, Counter>> counters = new ConcurrentHashMap<>();

    public BadRecordCounters(MeterRegistry registry, Collection<String> inputTopics) {
        this.registry = registry;
        inputTopics.forEach(this::forTopic);
    }

    /** Counts one skipped record of {@code topic} (null counts under {@code unknown}). */
    public void count(String topic, BadRecord reason) {
        forTopic(topic == null ? "unknown" : topic).get(reason).increment();
    }

    private Map<BadRecord, Counter> forTopic(String topic) {
        return counters.computeIfAbsent(topic, t -> {
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
