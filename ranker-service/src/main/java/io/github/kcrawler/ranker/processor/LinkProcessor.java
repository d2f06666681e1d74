package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.ranker.ranking.Contribution;
import io.github.kcrawler.ranker.ranking.RankingStrategy;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * First half of the ranker, on the source page's partition: turns the outlink list of a fetched page into
 * {@link RankDelta}s, each re-keyed by the target's IP. Written to {@code crawl.rank.deltas} — our own topic with
 * the common partition count, rather than a Streams-internal repartition topic — so the deltas land on the
 * partition owning the target's host, co-partitioned with every other crawler topic, and operators can read them.
 *
 * <p>Stateless. Unusable lists are counted and skipped; an unusable outlink is counted and the rest of its list is
 * still used.
 */
public final class LinkProcessor implements Processor<String, Decoded<LinkList>, String, RankDelta> {
    private final RankingStrategy strategy;
    private final RankerMetrics metrics;
    private ProcessorContext<String, RankDelta> context;

    public LinkProcessor(RankingStrategy strategy, RankerMetrics metrics) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, RankDelta> context) {
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
            context.forward(record.withKey(c.ip()).withValue(RankDelta.of(c.url(), c.fingerprint(), c.amount())));
        }
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
