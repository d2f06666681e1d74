package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.ranker.routing.PartitionBatches;
import io.github.kcrawler.ranker.ranking.Contribution;
import io.github.kcrawler.ranker.ranking.RankingStrategy;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * First half of the back-link ranker, on the source page's partition: turns the outlink list of a fetched page into
 * {@link RankDelta}s grouped by the partition owning each target's host, one {@link RankDeltaBatch} per target
 * partition keyed by one of its entries' IPs. Written to {@code crawl.rank.deltas} — our own topic with the common
 * partition count, rather than a Streams-internal repartition topic — so each batch lands on the partition owning
 * its targets' hosts, co-partitioned with every other crawler topic, and operators can read them. This baseline
 * keeps its two sub-topologies, so even the source's own partition gets its batch through the topic (at most P
 * records per page); incremental PageRank ({@link IprProcessor}) applies that share in place.
 *
 * <p>Stateless. Unusable lists are counted and skipped; an unusable outlink is counted and the rest of its list is
 * still used.
 */
public final class LinkProcessor implements Processor<String, Decoded<LinkList>, String, RankDeltaBatch> {
    private final RankingStrategy strategy;
    private final RankerMetrics metrics;
    private final PartitionBatches<RankDelta> batches;
    private ProcessorContext<String, RankDeltaBatch> context;

    /** @param partitions the crawl's partition count (every topic has it) */
    public LinkProcessor(RankingStrategy strategy, RankerMetrics metrics, int partitions) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.batches = new PartitionBatches<>(partitions, DeltaChecks.MAX_BATCH_ENTRIES, DeltaChecks.MAX_BATCH_BYTES);
    }

    @Override
    public void init(ProcessorContext<String, RankDeltaBatch> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, Decoded<LinkList>> record) {
        Decoded<LinkList> decoded = record.value();
        LinkList links = InputCheck.usable(record, context, true, metrics::bad);
        if (links == null) {
            return;
        }
        String topic = decoded.topic();
        BadRecord problem = validate(links);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        List<LinkList.Link> valid = new ArrayList<>(links.outlinks().size());
        for (LinkList.Link link : links.outlinks()) {
            if (isValid(link)) {
                valid.add(link);
            } else {
                metrics.bad(topic, BadRecord.INVALID_OUTLINK);
            }
        }
        for (Contribution c : strategy.contributions(links.sourceFingerprint(), valid)) {
            batches.add(batches.partitionOf(c.ip()), c.ip(), RankDelta.of(c.url(), c.fingerprint(), c.ip(), c.amount()),
                    DeltaChecks.size(c.url(), c.ip()));
        }
        batches.drain((key, entries) -> {
            context.forward(record.withKey(key).withValue(RankDeltaBatch.of(entries)));
        });
    }

    /** Returns why the list cannot be used, or null if it can. */
    static BadRecord validate(LinkList links) {
        if (links.v() < 1 || links.v() > LinkList.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (links.source() == null || links.source().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (Fingerprints.url(links.source()) != links.sourceFingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        return null;
    }

    static boolean isValid(LinkList.Link link) {
        return link != null && link.url() != null && !link.url().isBlank() && link.ip() != null
                && !link.ip().isBlank() && Fingerprints.url(link.url()) == link.fingerprint();
    }
}
