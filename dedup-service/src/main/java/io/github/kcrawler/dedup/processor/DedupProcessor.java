package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.membership.UrlSeen;
import io.github.kcrawler.dedup.store.FingerprintSet;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The URL-seen test as a Streams processor: one instance per task, fed by {@code crawl.urls.discovered},
 * {@code crawl.urls.forget} and {@code crawl.fetch.results} (co-partitioned by host IP), so discoveries and forgets of
 * a URL meet the same {@link UrlSeen} — which matters once that test keeps in-memory tiers (LRU, SBFL) in front of
 * the store.
 *
 * <p>A fetch result with {@link FetchResult#localLinkPartitions()} > 0 (issue 19: work whose source and target share
 * a partition is done in place) stands for the page's discovered URLs on its own partition: the links of its graph
 * that the fetcher's partition count puts on the key's partition are admitted exactly as a discovered record of them
 * would be (one level deeper than the page, rerouted if this task's count puts one elsewhere). Any other result is
 * not this processor's business; one that cannot be decoded is counted by the content-refs processor that reads the
 * same topic, not here a second time.
 *
 * <p>A discovered record holds the URLs of one page (or some seeds) whose IPs all belong to this task's partition
 * ({@link DiscoveredUrls}, grouped by the producer with {@link UrlBatches}). Each entry, in order, is validated,
 * fingerprinted ({@link Fingerprints#url}) and tested exactly as a lone URL was before batching (same tiers, same
 * counters); the new ones go on together as {@link AdmittedUrls} — one record for the input record, since its
 * entries share its partition, cut into several only above {@code batch-max-urls} / {@code batch-max-bytes} — keyed
 * by the IP of their first entry, with the input's timestamp, and with the input's link share ({@link
 * io.github.kcrawler.common.model.LinkShare}: the first score the page gives them), which the scheduler admits them
 * with. A forget request removes the fingerprint. Records and
 * entries that cannot be used are counted under {@code crawl.records.bad} with a reason and skipped (the rest of a
 * record is used); nothing here throws on input. The store is wired thinly: fetched in {@link #init} and wrapped by the configured factory.
 * A tiered test's in-memory caches are saved at close and reloaded at init when provably consistent with the store
 * ({@link TierSnapshots}).
 */
public final class DedupProcessor implements Processor<String, Decoded<?>, String, Object> {
    /** Longest record key or entry IP accepted: an IPv6 address with a zone id fits easily; longer is junk. */
    static final int MAX_IP_LENGTH = 64;
    /** Largest partition count a result may name (Kafka allows far fewer per topic in practice). */
    static final int MAX_PARTITIONS = 1 << 20;

    private final String storeName;
    private final Function<FingerprintSet, UrlSeen> seenTestFactory;
    private final DedupMetrics metrics;
    private final UrlBatches.Limits limits;
    private final int partitions;
    private final String admittedSink;
    private final String rerouteSink;
    private final String resultsTopic;
    private ProcessorContext<String, Object> context;
    private UrlSeen seen;
    private KeyValueFingerprintSet fingerprints;

    /**
     * @param limits       where the admitted URLs of one input record are cut into several records
     * @param partitions   the topics' partition count ({@code partitions}): an entry whose IP is not on its record
     *                     key's partition by this count is sent back to {@code crawl.urls.discovered} alone, keyed by
     *                     its own IP (to {@code rerouteSink}), instead of being tested by a task that does not own it
     * @param admittedSink the child that writes {@code crawl.urls.admitted}
     * @param rerouteSink  the child that writes {@code crawl.urls.discovered}
     * @param resultsTopic {@code crawl.fetch.results} (its undecodable records are counted elsewhere), or null
     */
    public DedupProcessor(String storeName, Function<FingerprintSet, UrlSeen> seenTestFactory, DedupMetrics metrics,
                          UrlBatches.Limits limits, int partitions, String admittedSink, String rerouteSink,
                          String resultsTopic) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, was " + partitions);
        }
        this.partitions = partitions;
        this.admittedSink = Objects.requireNonNull(admittedSink, "admittedSink");
        this.rerouteSink = Objects.requireNonNull(rerouteSink, "rerouteSink");
        this.resultsTopic = resultsTopic;
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.seenTestFactory = Objects.requireNonNull(seenTestFactory, "seenTestFactory");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(storeName);
        this.fingerprints = new KeyValueFingerprintSet(store);
        this.seen = seenTestFactory.apply(fingerprints);
        if (seen instanceof UrlSeenTiers tiered) {
            TierSnapshots.restore(tiered, fingerprints, context.stateDir().toPath(), context.taskId().toString());
            metrics.tiers.attach(tiered);
        }
    }

    @Override
    public void close() {
        if (seen instanceof UrlSeenTiers tiered) {
            metrics.tiers.detach(tiered);
            TierSnapshots.save(tiered, fingerprints, context.stateDir().toPath(), context.taskId().toString());
        }
    }

    @Override
    public void process(Record<String, Decoded<?>> record) {
        Decoded<?> decoded = record.value();
        boolean result = decoded != null && decoded.topic() != null && decoded.topic().equals(resultsTopic);
        Object value = InputCheck.usable(record, context, true, result ? (topic, reason) -> { } : metrics::bad);
        if (value == null) {
            return;
        }
        if (value instanceof FetchResult fetched) {
            admitLocal(record, decoded.topic(), fetched);
        } else if (value instanceof DiscoveredUrls discovered) {
            admit(record, decoded.topic(), discovered);
        } else if (value instanceof ForgetUrl forget) {
            forget(decoded.topic(), forget);
        } else {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
        }
    }

    /** The discovered URLs a result stands for: its graph's links on its key's partition by the fetcher's count. */
    private void admitLocal(Record<String, Decoded<?>> record, String topic, FetchResult result) {
        int n = result.localLinkPartitions();
        if (n <= 0 || result.links() == null || result.v() < 1 || result.v() > FetchResult.VERSION) {
            return; // no URLs ride in it (or a format the content-refs processor counts as unsupported)
        }
        if (n > MAX_PARTITIONS) {
            metrics.bad(topic, BadRecord.MALFORMED);
            return;
        }
        List<DiscoveredUrls.Entry> entries = new ArrayList<>(result.links().size());
        for (LinkList.Link link : result.links()) {
            if (link == null || link.ip() == null || link.ip().isBlank() || link.ip().length() > MAX_IP_LENGTH) {
                metrics.bad(topic, BadRecord.MISSING_KEY); // no partition: the fetcher cannot have left it out
            } else {
                entries.add(new DiscoveredUrls.Entry(link.url(), link.ip()));
            }
        }
        List<DiscoveredUrls.Entry> local = KeyPartitioner.onPartitionOf(record.key(), entries,
                DiscoveredUrls.Entry::ip, n, true);
        if (!local.isEmpty()) {
            admit(record, topic, DiscoveredUrls.of(result.url(), result.depth() + 1, result.fetchedAt(), local,
                    result.linkShare()));
        }
    }

    private void admit(Record<String, Decoded<?>> record, String topic, DiscoveredUrls discovered) {
        BadRecord problem = validate(discovered);
        if (problem == null && record.key().length() > MAX_IP_LENGTH) {
            problem = BadRecord.MISSING_KEY;
        }
        if (problem != null) {
            metrics.bad(topic, problem);
            return;
        }
        List<AdmittedUrls.Entry> admitted = null;
        int keyPartition = -1;
        String checkedIp = null; // the last IP found on the key's partition: links of one host come in runs
        for (DiscoveredUrls.Entry e : discovered.urls()) {
            String ip = e.ip() == null ? record.key() : e.ip(); // format 1: the key is the entry's IP
            problem = validate(e);
            if (problem == null && (ip.isBlank() || ip.length() > MAX_IP_LENGTH)) {
                problem = BadRecord.MISSING_KEY;
            }
            if (problem != null) {
                metrics.bad(topic, problem);
                continue;
            }
            // An entry under its own IP is where Kafka put it, by definition; any other is checked once per run.
            if (!ip.equals(record.key()) && !ip.equals(checkedIp)) {
                if (keyPartition < 0) {
                    keyPartition = KeyPartitioner.partition(record.key(), partitions);
                }
                if (KeyPartitioner.partition(ip, partitions) != keyPartition) {
                    reroute(record, discovered, new DiscoveredUrls.Entry(e.url(), ip));
                    continue;
                }
                checkedIp = ip;
            }
            long fingerprint = Fingerprints.url(e.url());
            metrics.tested();
            if (seen.testAndAdd(fingerprint)) {
                metrics.admitted();
                if (admitted == null) {
                    admitted = new ArrayList<>(discovered.urls().size());
                }
                admitted.add(new AdmittedUrls.Entry(e.url(), ip, fingerprint));
            }
        }
        if (admitted == null) {
            return;
        }
        // The entries share the input's partition, so any of their IPs keys the output onto that same partition:
        // grouping with one partition only cuts by size, without hashing an IP.
        // the share is passed on as read: the scheduler, which uses it, checks it
        for (UrlBatches.Keyed<AdmittedUrls> out : UrlBatches.admitted(admitted, 1, discovered.depth(),
                discovered.share(), limits)) {
            context.forward(new Record<>(out.key(), out.value(), record.timestamp(), record.headers()), admittedSink);
        }
    }

    /**
     * A producer grouped an entry onto the wrong partition: testing it here could admit it a second time (its URL
     * belongs to another task's fingerprint set). It goes back to {@code crawl.urls.discovered} alone under its own
     * IP, so Kafka's partitioner delivers it to the task that owns it, where it is never rerouted again.
     */
    private void reroute(Record<String, Decoded<?>> record, DiscoveredUrls group, DiscoveredUrls.Entry entry) {
        metrics.rerouted();
        context.forward(new Record<>(entry.ip(), DiscoveredUrls.of(group.source(), group.depth(), group.discoveredAt(),
                List.of(entry), group.share()), record.timestamp(), record.headers()), rerouteSink);
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

    /** Returns why the discovered record as a whole cannot be used, or null if it can. */
    static BadRecord validate(DiscoveredUrls d) {
        if (d.v() < 1 || d.v() > DiscoveredUrls.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (d.depth() < 0) {
            return BadRecord.NEGATIVE_DEPTH;
        }
        if (d.urls().isEmpty()) {
            return BadRecord.MALFORMED;
        }
        return null;
    }

    /** Returns why one discovered entry cannot be used, or null if it can. */
    static BadRecord validate(DiscoveredUrls.Entry e) {
        return e.url() == null || e.url().isBlank() ? BadRecord.BLANK_URL : null;
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
