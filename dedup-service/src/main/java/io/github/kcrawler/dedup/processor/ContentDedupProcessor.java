package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.model.ContentDuplicate;
import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import io.github.kcrawler.dedup.content.ImpCbFilter;
import io.github.kcrawler.dedup.store.KeyValueContentFingerprintDb;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;

/**
 * Second half of content-duplicate detection, on the partition owning a body's fingerprint: paper 001's IMP-CB filter
 * ({@link ImpCbFilter}: a counting Bloom filter in memory over a fingerprint DB holding each body's refCount and
 * counter positions, here the task's changelog-backed store) counts how many URLs hold each body. An {@code ADD}
 * that finds the body already held reports the URL on {@code crawl.content.duplicates} (key: the URL's IP); a
 * {@code REMOVE} drops one reference and, at zero, the record and its counters. The filter is rebuilt from the store
 * whenever the task starts, so it always matches the store Streams restored.
 */
public final class ContentDedupProcessor implements Processor<String, Decoded<ContentRef>, String, ContentDuplicate> {
    private static final Logger LOG = LoggerFactory.getLogger(ContentDedupProcessor.class);

    private final String storeName;
    private final long expectedItems;
    private final ContentMetrics metrics;
    private ProcessorContext<String, ContentDuplicate> context;
    private ImpCbFilter filter;

    public ContentDedupProcessor(String storeName, long expectedItems, ContentMetrics metrics) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.expectedItems = expectedItems;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, ContentDuplicate> context) {
        this.context = context;
        this.filter = ImpCbFilter.openForExpectedItems(
                new KeyValueContentFingerprintDb(context.getStateStore(storeName)), expectedItems);
        ImpCbFilter.RebuildStats stats = filter.lastRebuild();
        if (stats != null && stats.records() > 0) {
            LOG.info("task {}: content filter rebuilt from {} stored bodies ({} URL references)", context.taskId(),
                    stats.records(), stats.references());
        }
    }

    @Override
    public void process(Record<String, Decoded<ContentRef>> record) {
        Decoded<ContentRef> decoded = record.value();
        ContentRef ref = InputCheck.usable(record, context, false, metrics::bad);
        if (ref == null) {
            return;
        }
        if (ref.v() < 1 || ref.v() > ContentRef.VERSION) {
            metrics.bad(decoded.topic(), BadRecord.UNSUPPORTED_VERSION);
            return;
        }
        if (ref.op() == null || !isHash(ref.contentHash()) || ref.ip() == null || ref.ip().isBlank()) {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
            return;
        }
        long hi = Long.parseUnsignedLong(ref.contentHash(), 0, 16, 16);
        long lo = Long.parseUnsignedLong(ref.contentHash(), 16, 32, 16);
        if (ref.op() == ContentRef.Op.ADD) {
            ImpCbFilter.AddResult r = filter.add(hi, lo);
            metrics.added(!r.dbRead());
            if (r.isDuplicate()) {
                metrics.duplicate();
                context.forward(new Record<>(ref.ip(), ContentDuplicate.of(ref.url(), ref.urlFingerprint(),
                        ref.contentHash(), r.refCount()), record.timestamp()));
            }
        } else {
            filter.remove(hi, lo);
            metrics.removed();
        }
    }

    /** 32 hex digits. */
    static boolean isHash(String s) {
        if (s == null || s.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
