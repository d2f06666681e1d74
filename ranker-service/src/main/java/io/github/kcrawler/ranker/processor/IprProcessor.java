package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.pagerank.IprRules;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Incremental PageRank of paper 002 (DESIGN §4.3) partitioned by host IP: the same per-page rules as the
 * single-process {@link IncrementalPageRank} ({@link IprRules}), with each receipt travelling as a
 * {@link RankDelta} on {@code crawl.rank.deltas} keyed by the receiving URL's IP, so every partition owns the
 * state ({@link RankPage}) of its own URLs in a persistent, changelog-backed store.
 *
 * <ul>
 *   <li>{@code crawl.links} (key: the fetched page's IP, so the page's own state is local): {@code s_p += 1}, then
 *   {@code s_p / outdeg(p)} to each distinct outlink as a depth-1 delta. Pages are fetched once per crawl; a list
 *   for a page already fetched (a revisit) does not vote again.</li>
 *   <li>{@code crawl.rank.deltas}: DL1 adds β; VR adds β at depth 1 or when {@code β / s_q ≥ ratio}, and a fetched
 *   q that passes sends {@code β / outdeg(q)} on at depth + 1; AR adds β to {@code s_q} and {@code a_q} and a fetched
 *   q with {@code a_q / s_q > ratio} sends {@code a_q / outdeg(q)} on and resets a_q.</li>
 *   <li>A changed score of an unfetched URL is published on {@code crawl.rank.scores} (coalesced per flush
 *   interval through {@link PendingScores}), where the scheduler's priority front picks it up.</li>
 * </ul>
 * PL is not offered: its budget of L pages per fetch is a breadth-first count across partitions. Processed in the
 * single-process order (each fetch's receipts before the next fetch), the scores equal {@link IncrementalPageRank}'s
 * exactly; in a live crawl receipts interleave with later fetches, which for DL1 changes only the rounding.
 */
public final class IprProcessor implements Processor<String, Decoded<?>, String, Object> {
    private final String pageStoreName;
    private final String pendingStoreName;
    private final Duration flushInterval;
    private final IprParams params;
    private final RankerMetrics metrics;
    private final String deltasChild;
    private final String scoresChild;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<Bytes, RankPage> pages;
    private PendingScores pending;

    public IprProcessor(String pageStoreName, String pendingStoreName, Duration flushInterval, IprParams params,
                        RankerMetrics metrics, String deltasChild, String scoresChild) {
        this.pageStoreName = Objects.requireNonNull(pageStoreName, "pageStoreName");
        this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative()) {
            throw new IllegalArgumentException("flush interval must be >= 0, was " + flushInterval);
        }
        this.pendingStoreName = flushInterval.isZero() ? null
                : Objects.requireNonNull(pendingStoreName, "pendingStoreName");
        this.params = Objects.requireNonNull(params, "params");
        if (params.cutOff() == IprParams.CutOff.PL) {
            throw new IllegalArgumentException("the PL cut-off cannot run partitioned; use DL1, VR or AR");
        }
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.deltasChild = Objects.requireNonNull(deltasChild, "deltasChild");
        this.scoresChild = Objects.requireNonNull(scoresChild, "scoresChild");
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.pages = context.getStateStore(pageStoreName);
        if (pendingStoreName != null) {
            this.pending = new PendingScores(context.getStateStore(pendingStoreName));
            context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, this::flush);
        }
    }

    @Override
    public void process(Record<String, Decoded<?>> record) {
        Decoded<?> decoded = record.value();
        Object value = InputCheck.usable(record, context, true, metrics::bad);
        if (value == null) {
            return;
        }
        if (value instanceof LinkList links) {
            fetched(record, decoded.topic(), links);
        } else if (value instanceof RankDelta delta) {
            received(record, decoded.topic(), delta);
        } else {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
        }
    }

    private void fetched(Record<String, Decoded<?>> record, String topic, LinkList links) {
        BadRecord problem = LinkProcessor.validate(links);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        List<LinkList.Link> distinct = new ArrayList<>(links.outlinks().size());
        Set<Long> seen = new HashSet<>();
        for (LinkList.Link link : links.outlinks()) {
            if (!LinkProcessor.isValid(link)) {
                metrics.bad(topic, BadRecord.INVALID_OUTLINK);
            } else if (seen.add(link.fingerprint())) {
                distinct.add(link);
            }
        }
        Bytes key = FingerprintKeys.key(links.sourceFingerprint());
        RankPage page = pages.get(key);
        if (page == null) {
            page = RankPage.unfetched(links.source(), record.key());
        } else if (page.fetched()) {
            return; // a revisit: the page voted when first fetched
        }
        double score = IprRules.scoreAfterFetch(page.score());
        boolean keepLinks = params.cutOff() != IprParams.CutOff.DL1;
        pages.put(key, page.asFetched(score, distinct.size(), keepLinks ? distinct : List.of()));
        if (!distinct.isEmpty()) {
            send(record, distinct, IprRules.share(score, distinct.size()), 1);
        }
    }

    private void received(Record<String, Decoded<?>> record, String topic, RankDelta delta) {
        BadRecord problem = ScoreProcessor.validate(delta);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        Bytes key = FingerprintKeys.key(delta.fingerprint());
        RankPage page = pages.get(key);
        if (page == null) {
            page = RankPage.unfetched(delta.url(), record.key());
        }
        double beta = delta.amount();
        int depth = delta.depth();
        switch (params.cutOff()) {
            case DL1 -> update(key, page, page.score() + beta, 0.0);
            case VR -> {
                boolean passes = IprRules.valueRatioPasses(page.score(), beta, params.valueRatio());
                if (IprRules.valueRatioApplies(depth, passes)) {
                    update(key, page, page.score() + beta, 0.0);
                }
                if (passes && page.fetched() && page.degree() > 0) {
                    send(record, page.outlinks(), IprRules.share(beta, page.degree()), depth + 1);
                }
            }
            case AR -> {
                double score = page.score() + beta;
                double accumulated = page.accumulated() + beta;
                if (page.fetched() && page.degree() > 0
                        && IprRules.accumulatedRatioPasses(accumulated, score, params.accumulatedRatio())) {
                    update(key, page, score, 0.0);
                    send(record, page.outlinks(), IprRules.share(accumulated, page.degree()), depth + 1);
                } else {
                    update(key, page, score, accumulated);
                }
            }
            case PL -> throw new IllegalStateException("PL is refused in the constructor");
        }
    }

    private void update(Bytes key, RankPage page, double score, double accumulated) {
        RankPage updated = page.withScore(score, accumulated);
        pages.put(key, updated);
        if (updated.fetched()) {
            return; // the scheduler only orders URLs still to fetch
        }
        if (pending == null) {
            publish(FingerprintKeys.fingerprint(key), updated, context.currentSystemTimeMs());
        } else {
            pending.mark(key);
        }
    }

    private void send(Record<String, Decoded<?>> record, List<LinkList.Link> targets, double share, int depth) {
        for (LinkList.Link link : targets) {
            context.forward(new Record<>(link.ip(), RankDelta.of(link.url(), link.fingerprint(), share, depth),
                    record.timestamp()), deltasChild);
        }
    }

    void flush(long timestamp) {
        pending.drain(key -> {
            RankPage page = pages.get(key);
            if (page != null && !page.fetched()) {
                publish(FingerprintKeys.fingerprint(key), page, timestamp);
            }
        });
    }

    private void publish(long fingerprint, RankPage page, long timestamp) {
        context.forward(new Record<>(page.ip(), RankScore.of(page.url(), fingerprint, page.score()), timestamp),
                scoresChild);
        metrics.scorePublished();
    }
}
