package io.github.kcrawler.dedup;

import io.github.kcrawler.common.serde.LenientJsonDeserializer;

import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.membership.UrlSeen;
import io.github.kcrawler.dedup.processor.ContentDedupProcessor;
import io.github.kcrawler.dedup.processor.ContentMetrics;
import io.github.kcrawler.dedup.processor.ContentRefProcessor;
import io.github.kcrawler.dedup.processor.DedupMetrics;
import io.github.kcrawler.dedup.processor.DedupProcessor;
import io.github.kcrawler.dedup.store.FingerprintSet;
import io.github.kcrawler.dedup.store.KeyValueContentFingerprintDb;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

import java.util.List;
import java.util.function.Function;

/**
 * The dedup topology (DESIGN §2): {@code crawl.urls.discovered}, {@code crawl.urls.forget} and
 * {@code crawl.fetch.results} (a result carries its page's discovered URLs on its own partition; issue 19) feed one
 * {@link DedupProcessor} per task, which owns the task's fingerprint store; the new URLs of a discovered record go
 * to {@code crawl.urls.admitted} together, keyed by one of their IPs. No repartitioning: all four topics are
 * co-partitioned by IP and every entry of a record belongs to its key's partition, so the task reading partition p
 * of the inputs writes partition p of the output (an IP of the group as key, same default partitioner).
 *
 * <pre>
 *   crawl.urls.discovered ─┐
 *   crawl.urls.forget ─────┼─► dedup [url-seen store] ─► crawl.urls.admitted
 *   crawl.fetch.results ───┤          └─► crawl.urls.discovered (an entry on the wrong partition, under its own IP)
 *                          └─► content-refs ─► crawl.content.refs (key: body fingerprint)
 *   crawl.content.refs ──► content-dedup [content-db]    ─► crawl.content.duplicates (key: host IP)
 * </pre>
 * Since the results feed both processors, the URL-seen test and the content references form one sub-topology, and
 * so one task per partition: Streams allows a topic one source node per topology.
 * The content references and the content-dedup sub-topology after them detect identical page bodies across URLs with
 * paper 001's IMP-CB filter ({@link ContentDedupProcessor}); the body's fingerprint, not the IP, is the key that
 * brings copies together.
 */
public final class DedupTopology {
    /** The fingerprint store; its changelog topic is {@code <application.id>-url-seen-changelog}. */
    public static final String SEEN_STORE = "url-seen";
    static final String DISCOVERED_SOURCE = "discovered-source";
    static final String FORGET_SOURCE = "forget-source";
    static final String PROCESSOR = "dedup";
    static final String ADMITTED_SINK = "admitted-sink";
    /** Sends an entry grouped onto a partition that does not own its IP back to discovered, under its own IP. */
    static final String REROUTE_SINK = "reroute-sink";
    /** IMP-CB fingerprint DB (refCount and counter positions per body); changelog {@code ...-content-db-changelog}. */
    public static final String CONTENT_DB_STORE = "content-db";
    static final String RESULTS_SOURCE = "results-source";
    static final String CONTENT_REFS_PROCESSOR = "content-refs";
    static final String CONTENT_REFS_SINK = "content-refs-sink";
    static final String CONTENT_REFS_SOURCE = "content-refs-source";
    static final String CONTENT_DEDUP_PROCESSOR = "content-dedup";
    static final String DUPLICATES_SINK = "duplicates-sink";

    private DedupTopology() {
    }

    /**
     * The topology with paper 000's tiered URL-seen test: per task an LRU of fingerprints and a Stable Bloom Filter
     * Light (sized by {@link DedupConfig#urlSeen()}) in front of the task's RocksDB fingerprint set. After a clean
     * stop both caches are reloaded from the task directory if the store provably is in the state they were saved
     * against ({@code TierSnapshots}); otherwise (a crash, a rebalance) they start cold. Correctness rests on the
     * store alone (the SBFL can only add false positives: new URLs skipped, at the configured rate).
     */
    public static Topology build(Topics topics, DedupConfig config, MeterRegistry registry) {
        return build(topics, config, registry, set -> UrlSeenTiers.create(config.urlSeen(), set));
    }

    /** The topology with the URL-seen test {@code seenTestFactory} builds per task over its fingerprint set. */
    private static Topology build(Topics topics, DedupConfig config, MeterRegistry registry,
                                  Function<FingerprintSet, UrlSeen> seenTestFactory) {
        if (!topics.prefix().equals(config.kafka().topicPrefix())) {
            throw new IllegalArgumentException("topics prefix '" + topics.prefix() + "' differs from topic-prefix '"
                    + config.kafka().topicPrefix() + "'");
        }
        DedupMetrics metrics = new DedupMetrics(registry, List.of(topics.discovered.name(), topics.forget.name(),
                topics.fetchResults.name()));
        Topology topology = new Topology();
        topology.addSource(DISCOVERED_SOURCE, new StringDeserializer(),
                new LenientJsonDeserializer<>(DiscoveredUrls.class), topics.discovered.name());
        topology.addSource(FORGET_SOURCE, new StringDeserializer(),
                new LenientJsonDeserializer<>(ForgetUrl.class), topics.forget.name());
        topology.addSource(RESULTS_SOURCE, new StringDeserializer(),
                new LenientJsonDeserializer<>(FetchResult.class), topics.fetchResults.name());
        topology.addProcessor(PROCESSOR, () -> new DedupProcessor(SEEN_STORE, seenTestFactory, metrics,
                config.batchLimits(), config.kafka().partitions(), ADMITTED_SINK, REROUTE_SINK,
                topics.fetchResults.name()), DISCOVERED_SOURCE, FORGET_SOURCE, RESULTS_SOURCE);
        topology.addStateStore(KeyValueFingerprintSet.storeBuilder(SEEN_STORE, config.journal()), PROCESSOR);
        topology.addSink(ADMITTED_SINK, topics.admitted.name(), new StringSerializer(),
                topics.admitted.valueSerde().serializer(), PROCESSOR);
        topology.addSink(REROUTE_SINK, topics.discovered.name(), new StringSerializer(),
                topics.discovered.valueSerde().serializer(), PROCESSOR);
        addContentDedup(topology, topics, config, registry);
        return topology;
    }

    private static void addContentDedup(Topology topology, Topics topics, DedupConfig config, MeterRegistry registry) {
        ContentMetrics metrics = new ContentMetrics(registry,
                List.of(topics.fetchResults.name(), topics.contentRefs.name()));
        // stateless: the body a URL held comes with its result (ContentRefProcessor)
        topology.addProcessor(CONTENT_REFS_PROCESSOR, () -> new ContentRefProcessor(metrics), RESULTS_SOURCE);
        topology.addSink(CONTENT_REFS_SINK, topics.contentRefs.name(), new StringSerializer(),
                topics.contentRefs.valueSerde().serializer(), CONTENT_REFS_PROCESSOR);

        topology.addSource(CONTENT_REFS_SOURCE, new StringDeserializer(),
                new LenientJsonDeserializer<>(ContentRef.class), topics.contentRefs.name());
        topology.addProcessor(CONTENT_DEDUP_PROCESSOR, () -> new ContentDedupProcessor(CONTENT_DB_STORE,
                config.contentExpectedItems(), metrics), CONTENT_REFS_SOURCE);
        topology.addStateStore(KeyValueContentFingerprintDb.storeBuilder(CONTENT_DB_STORE, config.journal()),
                CONTENT_DEDUP_PROCESSOR);
        topology.addSink(DUPLICATES_SINK, topics.contentDuplicates.name(), new StringSerializer(),
                topics.contentDuplicates.valueSerde().serializer(), CONTENT_DEDUP_PROCESSOR);
    }

    /** Names of the internal topics Streams uses for this topology, for tools that create topics up front. */
    public static List<String> internalTopics(String applicationId) {
        return List.of(applicationId + "-" + SEEN_STORE + "-changelog",
                applicationId + "-" + CONTENT_DB_STORE + "-changelog");
    }
}
