package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import io.github.kcrawler.ranker.ranking.RankingStrategy;
import io.github.kcrawler.ranker.routing.PartitionBatches;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;

/**
 * Second half of the back-link ranker, on the target's partition: folds each entry of a {@link RankDeltaBatch}
 * into the URL's score in a persistent, changelog-backed store and publishes the changed scores as
 * {@link RankScoreBatch}es, one record per partition (this task's own in a running crawl) and flush.
 *
 * <p>Coalescing: with a positive flush interval a popular URL receiving many deltas is published at most once per
 * interval (wall-clock punctuation), with its latest score; with a zero interval at the end of every input record.
 * Which URLs changed since the last flush is kept without a store of its own; {@link UnpublishedScores} explains
 * why under exactly-once a crash, a partition move or a stop between a commit and the next flush neither loses nor
 * invents an update.
 */
public final class ScoreProcessor implements Processor<String, Decoded<RankDeltaBatch>, String, RankScoreBatch> {
    private static final Logger LOG = LoggerFactory.getLogger(ScoreProcessor.class);
    private final String scoreStoreName;
    private final Duration flushInterval;
    private final RankingStrategy strategy;
    private final RankerMetrics metrics;
    private final PartitionBatches<RankScore> batches;
    private ProcessorContext<String, RankScoreBatch> context;
    private KeyValueStore<Bytes, ScoreEntry> scores;
    private UnpublishedScores<ScoreEntry> unpublished;

    /**
     * @param flushInterval how often changed scores are published; zero publishes at the end of every input record
     * @param partitions    the crawl's partition count (every topic has it)
     */
    public ScoreProcessor(String scoreStoreName, Duration flushInterval, RankingStrategy strategy,
                          RankerMetrics metrics, int partitions) {
        this.scoreStoreName = Objects.requireNonNull(scoreStoreName, "scoreStoreName");
        this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative()) {
            throw new IllegalArgumentException("flush interval must be >= 0, was " + flushInterval);
        }
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.batches = new PartitionBatches<>(partitions, DeltaChecks.MAX_BATCH_ENTRIES, DeltaChecks.MAX_BATCH_BYTES);
    }

    @Override
    public void init(ProcessorContext<String, RankScoreBatch> context) {
        this.context = context;
        this.scores = context.getStateStore(scoreStoreName);
        this.unpublished = new UnpublishedScores<>(scores, ScoreEntry.EPOCHS);
        int recovered = unpublished.recover();
        if (recovered > 0) {
            LOG.info("task {}: {} score changes committed but not yet published; publishing them with the next flush",
                    context.taskId(), recovered);
        }
        if (!flushInterval.isZero()) {
            context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, this::flush);
        }
    }

    @Override
    public void process(Record<String, Decoded<RankDeltaBatch>> record) {
        Decoded<RankDeltaBatch> decoded = record.value();
        RankDeltaBatch batch = InputCheck.usable(record, context, true, metrics::bad);
        if (batch == null) {
            return;
        }
        BadRecord problem = DeltaChecks.validate(batch);
        if (problem != null) {
            metrics.bad(decoded.topic(), problem);
            return;
        }
        for (RankDelta delta : batch.deltas()) {
            BadRecord bad = DeltaChecks.validate(delta);
            if (bad != null) {
                metrics.bad(decoded.topic(), bad);
                continue;
            }
            Bytes key = FingerprintKeys.key(delta.fingerprint());
            ScoreEntry current = scores.get(key);
            double score = strategy.accumulate(current == null ? 0.0 : current.score(), delta.amount());
            scores.put(key, ScoreEntry.of(delta.url(), delta.ip(), score, unpublished.epoch()));
            unpublished.changed(delta.fingerprint());
        }
        if (flushInterval.isZero()) {
            flush(context.currentSystemTimeMs());
        }
    }

    /** Publishes the latest score of every URL updated since the last flush, one batch per partition. */
    void flush(long timestamp) {
        unpublished.flush(fingerprint -> {
            ScoreEntry entry = scores.get(FingerprintKeys.key(fingerprint));
            if (entry != null && entry.url() != null) {
                RankScore s = RankScore.of(entry.url(), fingerprint, entry.ip(), entry.score());
                batches.add(batches.partitionOf(entry.ip()), entry.ip(), s, DeltaChecks.size(s));
            }
        });
        batches.drain((key, entries) -> {
            context.forward(new Record<>(key, RankScoreBatch.of(entries), timestamp));
            metrics.scoresPublished(entries.size());
        });
    }
}
