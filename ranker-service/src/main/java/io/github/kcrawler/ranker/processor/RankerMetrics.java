package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.BadRecord;

import io.github.kcrawler.common.metrics.BadRecordCounters;
import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * The ranker's counters, registered once per service and shared by all its stream threads (Micrometer counters
 * are thread-safe). Bad-record counters are registered up front for every input topic and reason. Records per page
 * are counted from the topics' log-end offsets (BENCHMARKS.md), not here: every exported {@code crawler_*} metric
 * needs a dashboard panel.
 */
public final class RankerMetrics {
    private final Counter updates;
    private final BadRecordCounters bad;

    public RankerMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.updates = Counter.builder(MetricNames.RANK_UPDATES).description("score updates published")
                .register(registry);
        this.bad = new BadRecordCounters(registry, inputTopics);
    }

    /** A batch of {@code entries} score updates was published as one record. */
    public void scoresPublished(int entries) {
        updates.increment(entries);
    }

    public void bad(String topic, BadRecord reason) {
        bad.count(topic, reason);
    }

}
