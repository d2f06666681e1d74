package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.pagerank.IprRules;
import io.github.kcrawler.ranker.routing.PartitionBatches;
import io.github.kcrawler.ranker.routing.ReceiptQueue;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Incremental PageRank of paper 002 (DESIGN §4.3) partitioned by host IP: the same per-page rules as the
 * single-process {@link IncrementalPageRank} ({@link IprRules}), every partition owning the state ({@link RankPage})
 * of its own URLs in a persistent, changelog-backed store.
 *
 * <ul>
 *   <li>A fetched page's link graph — from its result on {@code crawl.fetch.results} (issue 19), or as a
 *   {@link LinkList} on {@code crawl.links} from an older fetcher; key: the fetched page's IP, so the page's own
 *   state is local: {@code s_p += 1}, then {@code s_p / outdeg(p)} to each distinct outlink as a depth-1 receipt.
 *   A result without a graph (not HTML, an error, a redirect) changes nothing, as before no LinkList was written for
 *   it. Pages are fetched once per crawl; a graph for a page already fetched (a revisit) does not vote again.</li>
 *   <li>A receipt: DL1 adds β; VR adds β at depth 1 or when {@code β / s_q ≥ ratio}, and a fetched q that passes
 *   sends {@code β / outdeg(q)} on at depth + 1; AR adds β to {@code s_q} and {@code a_q} and a fetched q with
 *   {@code a_q / s_q > ratio} sends {@code a_q / outdeg(q)} on and resets a_q.</li>
 * </ul>
 *
 * <h2>Routing (issue 19: records per page)</h2>
 * A receipt for a URL whose host hashes ({@link io.github.kcrawler.common.topic.KeyPartitioner}, Kafka's own
 * partitioner, checked at topology build) to this task's partition is applied in place from a FIFO
 * ({@link ReceiptQueue}) within the processing of the record that caused it: no record at all. The others are
 * grouped per target partition and written as one {@link RankDeltaBatch} per partition and input record on
 * {@code crawl.rank.deltas}, keyed by one entry's IP, so it lands on the partition owning every entry. A page with
 * outlinks on P partitions therefore writes at most P − 1 delta records, whatever its out-degree; a received batch
 * is applied entry by entry through the same FIFO. The partition count is the crawl's ({@code partitions}, checked
 * against the topics when the service starts). Receipts for one target are not summed: a fetched page's outlinks
 * are distinct (one receipt per target per fetch), and VR's test and AR's threshold apply per receipt.
 *
 * <h2>Scores</h2>
 * A changed score of an unfetched URL is published on {@code crawl.rank.scores} by the next flush (every
 * {@code flush-ms}; with 0 at the end of every input record) as one {@link RankScoreBatch} per partition — this
 * task's own in a running crawl — with each URL's latest score. Which URLs changed is kept without a store of its
 * own ({@link UnpublishedScores}, whose comment gives the exactly-once argument).
 *
 * <h2>Page-store writes</h2>
 * Each write below becomes a changelog record once per commit (the store is cached, so a key's writes within one
 * commit interval reach the changelog once): a page's fetch, each receipt for a URL (unfetched or fetched, since DL1
 * adds β to a fetched page's score too), and one epoch mark per flush. With {@code fetchedScoresKept} false (ours,
 * ranking {@code ipr-dl1-frontier}; DL1 only) a receipt for a page already fetched is dropped: under DL1 nothing
 * reads that score (a revisit does not vote again, the scheduler orders unfetched URLs only), so every published
 * score is still DL1's exactly, and the fetched page keeps the score it had when fetched. That removes the write of
 * every receipt for a fetched page: the changelog fell from 6.2–6.3 to 4.2 records per page in {@code bench e2e}
 * (BENCHMARKS.md, twenty-sixth session). For the paper's DL1, counted from the changelog of {@code bench e2e
 * --max-pages 20000} (two runs each) per page this processor had processed: 6.5–6.8 records with
 * {@code wheel-lookahead} 0 or 128 alike (128 moves receipts from unfetched to fetched pages: about 1.4 against 0.9
 * per page). At most 80 of ~130,000 records were a key written twice in one
 * transaction (the cache evicting early), and a URL rarely gets two receipts in one commit, so coalescing per flush
 * would save nothing while {@code flush-ms} equals {@code commit-ms}. The lower per-fetched-page figure {@code bench e2e} reports with
 * lookahead 0 came from this processor running 30–45 % of the pages behind the fetcher when the offsets were read.
 *
 * <h2>Exactness</h2>
 * Processed in the single-process order (each fetch's receipts before the next fetch), the scores equal
 * {@link IncrementalPageRank}'s exactly for DL1 at any partition count (a fetch gives each target one receipt), and
 * for VR and AR when the receipts of one fetch are applied in the same breadth-first order, as on one partition;
 * across partitions VR and AR may see a fetch's deeper receipts in an order that depends on the partitioning
 * ({@code IprTopologyTest} finds them equal on 4 partitions too for its graph, but that is not guaranteed). In a live
 * crawl receipts interleave with later fetches, which for DL1 changes only the rounding.
 * PL is not offered: its budget of L pages per fetch is a breadth-first count across partitions.
 */
public final class IprProcessor implements Processor<String, Decoded<?>, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(IprProcessor.class);
    private final String pageStoreName;
    private final Duration flushInterval;
    private final IprParams params;
    private final RankerMetrics metrics;
    private final String deltasChild;
    private final String scoresChild;
    private final int partitions;
    private final boolean fetchedScoresKept;
    private final ReceiptQueue local = new ReceiptQueue();
    private final PartitionBatches<RankDelta> remote;
    private final PartitionBatches<RankScore> scoreBatches;
    private final LongOpenHashSet seen = new LongOpenHashSet();
    private ProcessorContext<String, Object> context;
    private KeyValueStore<Bytes, RankPage> pages;
    private UnpublishedScores<RankPage> unpublished;
    private int ownPartition;

    /**
     * @param partitions        the crawl's partition count: every topic has it, and receipts for hosts of
     *                          {@code context.taskId().partition()} are applied in place
     * @param fetchedScoresKept false drops receipts for fetched pages (DL1 only: see "Page-store writes")
     */
    public IprProcessor(String pageStoreName, Duration flushInterval, IprParams params, RankerMetrics metrics,
                        String deltasChild, String scoresChild, int partitions, boolean fetchedScoresKept) {
        this.pageStoreName = Objects.requireNonNull(pageStoreName, "pageStoreName");
        this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative()) {
            throw new IllegalArgumentException("flush interval must be >= 0, was " + flushInterval);
        }
        this.params = Objects.requireNonNull(params, "params");
        if (params.cutOff() == IprParams.CutOff.PL) {
            throw new IllegalArgumentException("the PL cut-off cannot run partitioned; use DL1, VR or AR");
        }
        checkFetchedScores(params, fetchedScoresKept);
        this.fetchedScoresKept = fetchedScoresKept;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.deltasChild = Objects.requireNonNull(deltasChild, "deltasChild");
        this.scoresChild = Objects.requireNonNull(scoresChild, "scoresChild");
        this.partitions = partitions;
        this.remote = new PartitionBatches<>(partitions, DeltaChecks.MAX_BATCH_ENTRIES, DeltaChecks.MAX_BATCH_BYTES);
        this.scoreBatches = new PartitionBatches<>(partitions, DeltaChecks.MAX_BATCH_ENTRIES,
                DeltaChecks.MAX_BATCH_BYTES);
    }

    /** Only DL1 may drop receipts for fetched pages: the other cut-offs propagate from them. */
    public static void checkFetchedScores(IprParams params, boolean fetchedScoresKept) {
        if (!fetchedScoresKept && params.cutOff() != IprParams.CutOff.DL1) {
            throw new IllegalArgumentException("dropping receipts for fetched pages needs the DL1 cut-off, was "
                    + params.cutOff() + ": it propagates from fetched pages");
        }
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.pages = context.getStateStore(pageStoreName);
        this.ownPartition = context.taskId().partition();
        if (ownPartition >= partitions) {
            throw new IllegalStateException("task " + context.taskId() + " has partition " + ownPartition
                    + " but partitions=" + partitions + ": the setting must equal the topics' partition count");
        }
        this.unpublished = new UnpublishedScores<>(pages, RankPage.EPOCHS);
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
    public void process(Record<String, Decoded<?>> record) {
        Decoded<?> decoded = record.value();
        Object value = InputCheck.usable(record, context, true, metrics::bad);
        if (value == null) {
            return;
        }
        if (value instanceof FetchResult result) {
            if (result.v() < 1 || result.v() > FetchResult.VERSION) {
                metrics.bad(decoded.topic(), BadRecord.UNSUPPORTED_VERSION);
                return;
            }
            LinkList links = result.linkList();
            if (links == null) {
                return; // no graph: nothing to rank, nothing to send
            }
            fetched(record, decoded.topic(), links);
        } else if (value instanceof LinkList links) {
            fetched(record, decoded.topic(), links);
        } else if (value instanceof RankDeltaBatch batch) {
            received(decoded.topic(), batch);
        } else {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
            return;
        }
        drainLocal();
        if (!remote.isEmpty()) {
            remote.drain((key, entries) -> {
                context.forward(new Record<String, Object>(key, RankDeltaBatch.of(entries), record.timestamp()),
                        deltasChild);
            });
        }
        if (flushInterval.isZero()) {
            flush(context.currentSystemTimeMs());
        }
    }

    private void fetched(Record<String, Decoded<?>> record, String topic, LinkList links) {
        BadRecord problem = DeltaChecks.validate(links);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        List<LinkList.Link> distinct = new ArrayList<>(links.outlinks().size());
        seen.clear();
        for (LinkList.Link link : links.outlinks()) {
            if (!DeltaChecks.isValid(link)) {
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
        pages.put(key, page.asFetched(score, distinct.size(), keepLinks ? distinct : List.of(), unpublished.epoch()));
        unpublished.withdrawn(links.sourceFingerprint()); // fetched: the scheduler no longer orders it
        if (!distinct.isEmpty()) {
            send(distinct, IprRules.share(score, distinct.size()), 1);
        }
    }

    private void received(String topic, RankDeltaBatch batch) {
        BadRecord problem = DeltaChecks.validate(batch);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        for (RankDelta d : batch.deltas()) {
            BadRecord bad = DeltaChecks.validate(d);
            if (bad != null) {
                metrics.bad(topic, bad);
            } else {
                local.add(d.url(), d.fingerprint(), d.ip(), d.amount(), d.depth());
            }
        }
    }

    /** Applies the receipts of this partition, first in first out, including those they cause. */
    private void drainLocal() {
        while (!local.isEmpty()) {
            String url = local.url();
            long fingerprint = local.fingerprint();
            String ip = local.ip();
            double beta = local.amount();
            int depth = local.depth();
            local.remove();
            receive(url, fingerprint, ip, beta, depth);
        }
    }

    private void receive(String url, long fingerprint, String ip, double beta, int depth) {
        Bytes key = FingerprintKeys.key(fingerprint);
        RankPage page = pages.get(key);
        if (page == null) {
            page = RankPage.unfetched(url, ip);
        }
        switch (params.cutOff()) {
            case DL1 -> {
                if (fetchedScoresKept || !page.fetched()) {
                    update(key, fingerprint, page, page.score() + beta, 0.0);
                }
            }
            case VR -> {
                boolean passes = IprRules.valueRatioPasses(page.score(), beta, params.valueRatio());
                if (IprRules.valueRatioApplies(depth, passes)) {
                    update(key, fingerprint, page, page.score() + beta, 0.0);
                }
                if (passes && page.fetched() && page.degree() > 0) {
                    send(page.outlinks(), IprRules.share(beta, page.degree()), depth + 1);
                }
            }
            case AR -> {
                double score = page.score() + beta;
                double accumulated = page.accumulated() + beta;
                if (page.fetched() && page.degree() > 0
                        && IprRules.accumulatedRatioPasses(accumulated, score, params.accumulatedRatio())) {
                    update(key, fingerprint, page, score, 0.0);
                    send(page.outlinks(), IprRules.share(accumulated, page.degree()), depth + 1);
                } else {
                    update(key, fingerprint, page, score, accumulated);
                }
            }
            case PL -> throw new IllegalStateException("PL is refused in the constructor");
        }
    }

    private void update(Bytes key, long fingerprint, RankPage page, double score, double accumulated) {
        RankPage updated = page.withScore(score, accumulated, unpublished.epoch());
        pages.put(key, updated);
        if (!updated.fetched()) { // the scheduler only orders URLs still to fetch
            unpublished.changed(fingerprint, updated);
        }
    }

    /** Routes one receipt per target: in place when this partition owns the target's host, else into its batch. */
    private void send(List<LinkList.Link> targets, double share, int depth) {
        for (LinkList.Link link : targets) {
            int partition = remote.partitionOf(link.ip());
            if (partition == ownPartition) {
                local.add(link.url(), link.fingerprint(), link.ip(), share, depth);
            } else {
                remote.add(partition, link.ip(), RankDelta.of(link.url(), link.fingerprint(), link.ip(), share, depth),
                        DeltaChecks.size(link.url(), link.ip()));
            }
        }
    }

    /** Publishes the latest score of every unfetched URL changed since the last flush, one batch per partition. */
    void flush(long timestamp) {
        unpublished.flush((fingerprint, page) -> {
            RankScore score = RankScore.of(page.url(), fingerprint, page.ip(), page.score());
            scoreBatches.add(scoreBatches.partitionOf(page.ip()), page.ip(), score, DeltaChecks.size(score));
        });
        scoreBatches.drain((key, entries) -> {
            context.forward(new Record<String, Object>(key, RankScoreBatch.of(entries), timestamp), scoresChild);
            metrics.scoresPublished(entries.size());
        });
    }
}
