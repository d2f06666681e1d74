package io.github.kcrawler.ranker;

import io.github.kcrawler.common.streams.JournalStoreBuilder;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.processor.IprProcessor;
import io.github.kcrawler.ranker.processor.RankPage;
import io.github.kcrawler.ranker.processor.RankPageCodec;

import io.github.kcrawler.common.serde.LenientJsonDeserializer;

import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.ranker.processor.RankerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;
import java.util.List;

/**
 * The ranker topology (DESIGN §2): incremental PageRank (paper 002) with the configured cut-off (and, for
 * {@code ipr-dl1-frontier}, ours: receipts for fetched pages dropped; {@link RankerConfig.Ranking}). One processor
 * per task reads {@code crawl.fetch.results} (an HTML page's result carries its link graph; issue 19),
 * {@code crawl.links} (the graph as an older fetcher wrote it, so such records are still ranked) and
 * {@code crawl.rank.deltas} — all
 * co-partitioned by IP — and owns the state of its partition's URLs; work for URLs of its own partition is done in
 * place, the rest goes as one batch per target partition to the partition owning the targets:
 *
 * <pre>
 *   crawl.fetch.results ─┐
 *   crawl.links ─────────┤
 *                        ├─► ipr [rank-pages] ─┬─► crawl.rank.deltas (batch per target partition, key: a target's IP)
 *   crawl.rank.deltas ───┘                     └─► crawl.rank.scores (batch per partition and flush, key: a URL's IP)
 * </pre>
 *
 * It checks at build time that {@link KeyPartitioner} routes exactly as the loaded Kafka client's partitioner, since
 * batching and in-place work rely on it.
 *
 * The deltas topic does the repartitioning Streams would otherwise do with an internal topic: same partition count
 * and key (IP) as every crawler topic, so the score of a URL lives on the partition owning its host.
 */
public final class RankerTopology {
    static final String RESULTS_SOURCE = "results-source";
    static final String LINKS_SOURCE = "links-source";
    static final String DELTAS_SINK = "deltas-sink";
    static final String DELTAS_SOURCE = "deltas-source";
    static final String SCORES_SINK = "scores-sink";

    private RankerTopology() {
    }

    /** URL fingerprint → {@link RankPage} (incremental PageRank); changelog {@code <application.id>-rank-pages-changelog}. */
    public static final String PAGE_STORE = "rank-pages";
    static final String IPR_PROCESSOR = "ipr";

    /** The topology of the configured {@link RankerConfig#ranking()}. */
    public static Topology build(Topics topics, RankerConfig config, MeterRegistry registry) {
        return buildIncrementalPageRank(topics, config, registry, IprParams.defaults(config.ranking().cutOff()));
    }

    /**
     * Incremental PageRank with the given parameters (DL1, VR or AR), partitioned by host IP; whether fetched pages'
     * scores are kept comes from {@code config.ranking()}.
     */
    public static Topology buildIncrementalPageRank(Topics topics, RankerConfig config, MeterRegistry registry,
                                                    IprParams params) {
        return buildIncrementalPageRank(topics, config, registry, params,
                Stores.persistentKeyValueStore(PAGE_STORE));
    }

    /** As above with the page store's supplier given (named {@link #PAGE_STORE}; tests hand in one that outlives a driver). */
    static Topology buildIncrementalPageRank(Topics topics, RankerConfig config, MeterRegistry registry,
                                             IprParams params, KeyValueBytesStoreSupplier pageStore) {
        if (!PAGE_STORE.equals(pageStore.name())) {
            throw new IllegalArgumentException("store must be named " + PAGE_STORE + ", was " + pageStore.name());
        }
        checkPrefix(topics, config);
        KeyPartitioner.checkAgainstKafka();
        RankerMetrics metrics = new RankerMetrics(registry, inputTopics(topics));
        Duration flush = Duration.ofMillis(config.flushMs());
        int partitions = config.kafka().partitions();
        Topology topology = new Topology();
        topology.addSource(RESULTS_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(FetchResult.class),
                topics.fetchResults.name());
        topology.addSource(LINKS_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(LinkList.class),
                topics.links.name());
        topology.addSource(DELTAS_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(RankDeltaBatch.class),
                topics.rankDeltas.name());
        boolean fetchedScoresKept = config.ranking().fetchedScoresKept();
        IprProcessor.checkFetchedScores(params, fetchedScoresKept); // at build time, not when a task starts
        topology.addProcessor(IPR_PROCESSOR, () -> new IprProcessor(PAGE_STORE, flush, params, metrics, DELTAS_SINK,
                SCORES_SINK, partitions, fetchedScoresKept), RESULTS_SOURCE, LINKS_SOURCE, DELTAS_SOURCE);
        // Cached: a popular URL's many receipts within a commit reach RocksDB once. Journaled (issue 19): the
        // commit's changes reach the changelog as one record, not one per page.
        topology.addStateStore(JournalStoreBuilder.of(pageStore, Serdes.Bytes(), RankPageCodec.SERDE)
                .withCachingEnabled().withSnapshots(config.journal()), IPR_PROCESSOR);
        topology.addSink(DELTAS_SINK, topics.rankDeltas.name(), new StringSerializer(),
                topics.rankDeltas.valueSerde().serializer(), IPR_PROCESSOR);
        topology.addSink(SCORES_SINK, topics.rankScores.name(), new StringSerializer(),
                topics.rankScores.valueSerde().serializer(), IPR_PROCESSOR);
        return topology;
    }

    /** The topics the ranker reads, all co-partitioned by IP. */
    public static List<String> inputTopics(Topics topics) {
        return List.of(topics.fetchResults.name(), topics.links.name(), topics.rankDeltas.name());
    }

    private static void checkPrefix(Topics topics, RankerConfig config) {
        if (!topics.prefix().equals(config.kafka().topicPrefix())) {
            throw new IllegalArgumentException("topics prefix '" + topics.prefix() + "' differs from topic-prefix '"
                    + config.kafka().topicPrefix() + "'");
        }
    }

    /** Names of the internal topics Streams uses for this topology, for tools that create topics up front. */
    public static List<String> internalTopics(String applicationId, RankerConfig config) {
        return List.of(applicationId + "-" + PAGE_STORE + "-changelog");
    }
}
