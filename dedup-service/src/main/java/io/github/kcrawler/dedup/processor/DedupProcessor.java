package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrl;
import io.github.kcrawler.common.model.DiscoveredUrl;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.dedup.membership.TieredUrlSeenTest;
import io.github.kcrawler.dedup.membership.UrlSeenTest;
import io.github.kcrawler.dedup.store.FingerprintSet;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Objects;
import java.util.function.Function;

/**
 * The URL-seen test as a Streams processor: one instance per task, fed by both {@code crawl.urls.discovered} and
 * {@code crawl.urls.forget} (co-partitioned by host IP), so discoveries and forgets of a URL meet the same
 * {@link UrlSeenTest} — which matters once that test keeps in-memory tiers (LRU, SBFL) in front of the store.
 *
 * <p>A discovered URL is validated, fingerprinted ({@link Fingerprints#url}) and tested; if new it goes on as an
 * {@link AdmittedUrl} under the same key (the host IP) and timestamp. A forget request removes the fingerprint.
 * Records that cannot be used are counted under {@code crawl.records.bad} with a reason and skipped; nothing here
 * throws on input. The store is wired thinly: fetched in {@link #init} and wrapped by the configured factory.
 * A tiered test's in-memory caches are saved at close and reloaded at init when provably consistent with the store
 * ({@link TierSnapshots}).
 */
public final class DedupProcessor implements Processor<String, Decoded<?>, String, AdmittedUrl> {
    private final String storeName;
    private final Function<FingerprintSet, UrlSeenTest> seenTestFactory;
    private final DedupMetrics metrics;
    private ProcessorContext<String, AdmittedUrl> context;
    private UrlSeenTest seen;
    private KeyValueFingerprintSet fingerprints;

    public DedupProcessor(String storeName, Function<FingerprintSet, UrlSeenTest> seenTestFactory, DedupMetrics metrics) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.seenTestFactory = Objects.requireNonNull(seenTestFactory, "seenTestFactory");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, AdmittedUrl> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(storeName);
        this.fingerprints = new KeyValueFingerprintSet(store);
        this.seen = seenTestFactory.apply(fingerprints);
        if (seen instanceof TieredUrlSeenTest tiered) {
            TierSnapshots.restore(tiered, fingerprints, context.stateDir().toPath(), context.taskId().toString());
            metrics.tiers.attach(tiered);
        }
    }

    @Override
    public void close() {
        if (seen instanceof TieredUrlSeenTest tiered) {
            metrics.tiers.detach(tiered);
            TierSnapshots.save(tiered, fingerprints, context.stateDir().toPath(), context.taskId().toString());
        }
    }

    @Override
    public void process(Record<String, Decoded<?>> record) {
        Object value = InputCheck.usable(record, context, true, metrics::bad);
        if (value == null) {
            return;
        }
        Decoded<?> decoded = record.value();
        if (value instanceof DiscoveredUrl discovered) {
            admit(record, decoded.topic(), discovered);
        } else if (value instanceof ForgetUrl forget) {
            forget(decoded.topic(), forget);
        } else {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
        }
    }

    private void admit(Record<String, Decoded<?>> record, String topic, DiscoveredUrl discovered) {
        BadRecord problem = validate(discovered);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        long fingerprint = Fingerprints.url(discovered.url());
        metrics.tested();
        if (seen.testAndAdd(fingerprint)) {
            metrics.admitted();
            context.forward(record.withValue(AdmittedUrl.of(discovered.url(), discovered.depth(), fingerprint)));
        }
    }

    private void forget(String topic, ForgetUrl forget) {
        BadRecord problem = validate(forget);
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        seen.forget(forget.fingerprint());
        metrics.forgotten();
    }

    /** Returns why the discovery cannot be used, or null if it can. */
    static BadRecord validate(DiscoveredUrl d) {
        if (d.v() < 1 || d.v() > DiscoveredUrl.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (d.url() == null || d.url().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (d.depth() < 0) {
            return BadRecord.NEGATIVE_DEPTH;
        }
        return null;
    }

    /**
     * Returns why the forget request cannot be used, or null if it can. The URL is optional (the fingerprint is what
     * is forgotten); when present it must hash to the fingerprint, or the request would forget some other URL.
     */
    static BadRecord validate(ForgetUrl f) {
        if (f.v() < 1 || f.v() > ForgetUrl.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (f.url() != null && !f.url().isBlank() && Fingerprints.url(f.url()) != f.fingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        return null;
    }
}
