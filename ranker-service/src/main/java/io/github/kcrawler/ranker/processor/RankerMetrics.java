package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.BadRecord;

import io.github.kcrawler.common.metrics.BadRecordCounters;
import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * The ranker's counters, registered once per service and shared by all its stream threads (Micrometer counters
 * are thread-safe). Bad-record counters are registered up front for every input topic and reason.
 */
public final class RankerMetrics {
    /** Receipts applied on the partition that produced them, without a record (issue 19). */
    public static final String RECEIPTS_IN_PLACE = "crawler.rank.receipts.inplace";
    /** Records written to {@code crawl.rank.deltas}: one per input record and other target partition. */
    public static final String DELTA_RECORDS = "crawler.rank.delta.records";
    /** Records written to {@code crawl.rank.scores}: one per partition and flush (batches of score updates). */
    public static final String SCORE_RECORDS = "crawler.rank.score.records";

    private final Counter updates;
    private final Counter inPlace;
    private final Counter deltaRecords;
    private final Counter scoreRecords;
    private final BadRecordCounters bad;

    public RankerMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.updates = Counter.builder(MetricNames.RANK_UPDATES).description("score updates published")
                .register(registry);
        this.inPlace = Counter.builder(RECEIPTS_IN_PLACE)
                .description("score receipts applied in place: source and target on one partition").register(registry);
        this.deltaRecords = Counter.builder(DELTA_RECORDS)
                .description("records written to crawl.rank.deltas (one batch per target partition)").register(registry);
        this.scoreRecords = Counter.builder(SCORE_RECORDS)
                .description("records written to crawl.rank.scores (one batch per partition and flush)")
                .register(registry);
        this.bad = new BadRecordCounters(registry, inputTopics);
    }

    /** A batch of {@code entries} score updates was published as one record. */
    public void scoresPublished(int entries) {
        updates.increment(entries);
        scoreRecords.increment();
    }

    public void receiptInPlace() {
        inPlace.increment();
    }

    public void deltaRecordWritten() {
        deltaRecords.increment();
    }

    public void bad(String topic, BadRecord reason) {
        bad.count(topic, reason);
    }

}
