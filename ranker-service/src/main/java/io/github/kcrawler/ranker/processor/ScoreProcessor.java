package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.ranker.ranking.RankingStrategy;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;
import java.util.Objects;

/**
 * Second half of the ranker, on the target's partition: folds each {@link RankDelta} into the URL's score in a
 * persistent, changelog-backed store and publishes the new score as a {@link RankScore} keyed by the URL's IP.
 *
 * <p>Coalescing: with a positive flush interval a popular URL receiving many deltas is published at most once per
 * interval (wall-clock punctuation), with its latest score. The set of URLs waiting to be published is itself a
 * changelog-backed store, not a field, so under exactly-once a score change and its pending publication commit
 * together: a crash or a partition move between a commit and the next flush neither loses nor invents an update.
 * With a zero interval every delta publishes at once.
 */
public final class ScoreProcessor implements Processor<String, Decoded<RankDelta>, String, RankScore> {
    private final String scoreStoreName;
    private final String pendingStoreName;
    private final Duration flushInterval;
    private final RankingStrategy strategy;
    private final RankerMetrics metrics;
    private ProcessorContext<String, RankScore> context;
    private KeyValueStore<Bytes, ScoreEntry> scores;
    private PendingScores pending;

    /**
     * @param pendingStoreName store of URLs awaiting publication; unused (may be null) when {@code flushInterval}
     *                         is zero
     * @param flushInterval    how often pending scores are published; zero publishes every update immediately
     */
    public ScoreProcessor(String scoreStoreName, String pendingStoreName, Duration flushInterval,
                          RankingStrategy strategy, RankerMetrics metrics) {
        this.scoreStoreName = Objects.requireNonNull(scoreStoreName, "scoreStoreName");
        this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative()) {
            throw new IllegalArgumentException("flush interval must be >= 0, was " + flushInterval);
        }
        this.pendingStoreName = flushInterval.isZero() ? null
                : Objects.requireNonNull(pendingStoreName, "pendingStoreName");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, RankScore> context) {
        this.context = context;
        this.scores = context.getStateStore(scoreStoreName);
        if (pendingStoreName != null) {
            this.pending = new PendingScores(context.getStateStore(pendingStoreName));
            context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, this::flush);
        }
    }

    @Override
    public void process(Record<String, Decoded<RankDelta>> record) {
        Decoded<RankDelta> decoded = record.value();
        RankDelta delta = InputCheck.usable(record, context, true, metrics::bad);
        if (delta == null) {
            return;
        }
        BadRecord problem = validate(delta);
        if (problem != null) {
            metrics.bad(decoded.topic(), problem);
            return;
        }
        Bytes key = FingerprintKeys.key(delta.fingerprint());
        ScoreEntry current = scores.get(key);
        double score = strategy.accumulate(current == null ? 0.0 : current.score(), delta.amount());
        ScoreEntry updated = ScoreEntry.of(delta.url(), record.key(), score);
        scores.put(key, updated);
        if (pending == null) {
            publish(delta.fingerprint(), updated, record.timestamp());
        } else {
            pending.mark(key);
        }
    }

    /** Publishes the latest score of every URL updated since the last flush. */
    void flush(long timestamp) {
        pending.drain(key -> {
            ScoreEntry entry = scores.get(key);
            if (entry != null) {
                publish(FingerprintKeys.fingerprint(key), entry, timestamp);
            }
        });
    }

    private void publish(long fingerprint, ScoreEntry entry, long timestamp) {
        context.forward(new Record<>(entry.ip(), RankScore.of(entry.url(), fingerprint, entry.score()), timestamp));
        metrics.scorePublished();
    }

    /** Returns why the delta cannot be used, or null if it can. */
    static BadRecord validate(RankDelta d) {
        if (d.v() < 1 || d.v() > RankDelta.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (d.url() == null || d.url().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (Fingerprints.url(d.url()) != d.fingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        if (!Double.isFinite(d.amount())) {
            return BadRecord.INVALID_AMOUNT;
        }
        if (d.depth() < 1) {
            return BadRecord.MALFORMED;
        }
        return null;
    }
}
