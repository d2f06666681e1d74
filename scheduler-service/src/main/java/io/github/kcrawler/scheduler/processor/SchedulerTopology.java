package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.streams.JournalStoreBuilder;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

import java.util.List;

/**
 * Wires the scheduler: three co-partitioned inputs (admitted URLs, rank scores, fetch results, all keyed by IP)
 * into one processor that owns the task's frontier and its changelog-backed pending store, and two outputs (fetch
 * requests and forget requests). One processor rather than three, because all inputs act on the same in-memory
 * frontier. Input values are read with {@link LenientJsonDeserializer}, so unreadable records reach the processor
 * as {@code Decoded} failures and are counted and skipped there.
 */
public final class SchedulerTopology {
    /**
     * The changelog-backed store of pending URLs; its changelog is {@code <app id>-scheduler-pending-changelog}; values
     * binary ({@link PendingEntryCodec}).
     */
    public static final String PENDING_STORE = "scheduler-pending";
    /**
     * The baseline's ({@code revisit-state=store}) URL fingerprint → {@code RevisitState} RocksDB store; changelog
     * {@code <app id>-scheduler-revisit-state-changelog}.
     */
    public static final String REVISIT_STORE = "scheduler-revisit-state";
    /**
     * The SAT/L revisit store ({@code revisit-state=satl}, the default; {@link SatlStateStore}): URL fingerprint →
     * revisit record (binary, {@code RevisitStateCodec}; the earlier JSON form is still read); changelog
     * {@code <app id>-scheduler-revisit-satl-changelog}.
     */
    public static final String REVISIT_SATL_STORE = "scheduler-revisit-satl";
    static final String ADMITTED_SOURCE = "admitted-source";
    static final String SCORES_SOURCE = "scores-source";
    static final String RESULTS_SOURCE = "results-source";
    static final String PROCESSOR = "scheduler";
    static final String REQUESTS_SINK = "fetch-requests-sink";
    static final String FORGET_SINK = "forget-sink";

    private SchedulerTopology() {
    }

    /** The production topology: pending URLs in a persistent (RocksDB) store. */
    public static Topology build(SchedulerConfig config, CrawlClock clock, SchedulerMetrics metrics,
                                 LocalFrontiers frontiers) {
        return build(config, clock, metrics, frontiers, Stores.persistentKeyValueStore(PENDING_STORE));
    }

    /** The topology with a caller-chosen store implementation (it must be named {@link #PENDING_STORE}). */
    public static Topology build(SchedulerConfig config, CrawlClock clock, SchedulerMetrics metrics,
                                 LocalFrontiers frontiers, KeyValueBytesStoreSupplier storeSupplier) {
        if (!PENDING_STORE.equals(storeSupplier.name())) {
            throw new IllegalArgumentException("store must be named " + PENDING_STORE + ", was "
                    + storeSupplier.name());
        }
        Topics topics = config.kafka().topics();
        // Binary (PendingEntryCodec; entries of the earlier JSON form still read). An unreadable stored entry reads as
        // null; the processor counts and discards it when it rebuilds.
        Serde<PendingEntry> entrySerde = Serdes.serdeFrom(PendingEntryCodec.serializer(),
                PendingEntryCodec.deserializer());

        Topology topology = new Topology();
        topology.addSource(ADMITTED_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(AdmittedUrls.class),
                topics.admitted.name());
        topology.addSource(SCORES_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(RankScoreBatch.class),
                topics.rankScores.name());
        topology.addSource(RESULTS_SOURCE, new StringDeserializer(), new LenientJsonDeserializer<>(FetchResult.class),
                topics.fetchResults.name());
        topology.addProcessor(PROCESSOR, () -> new SchedulerProcessor(config, clock, metrics, frontiers),
                ADMITTED_SOURCE, SCORES_SOURCE, RESULTS_SOURCE);
        // journaled (issue 19): a commit's pending-store changes reach the changelog as one record
        topology.addStateStore(JournalStoreBuilder.of(storeSupplier, Serdes.String(), entrySerde)
                .withCachingEnabled().withSnapshots(config.journal()), PROCESSOR);
        if (config.revisit().state() == SchedulerConfig.RevisitStateMode.SATL) {
            // logged (compacted changelog, one record per page), not cached: each put and delete is a record
            topology.addStateStore(Stores.keyValueStoreBuilder(SatlStateStore.supplier(REVISIT_SATL_STORE, clock,
                    config.revisit()), Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), PROCESSOR);
        } else {
            LenientJsonDeserializer<RevisitState> storedState = new LenientJsonDeserializer<>(RevisitState.class);
            Deserializer<RevisitState> stateReader = (topic, data) -> storedState.deserialize(topic, data).value();
            // the record written is the state's JSON: its size is what crawler.scheduler.revisit.record.bytes counts
            Serializer<RevisitState> stateWriter = (topic, s) -> {
                byte[] b = RevisitState.SERDE.serialize(topic, s);
                if (b != null) {
                    metrics.revisitRecordBytes.record(b.length);
                }
                return b;
            };
            topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(REVISIT_STORE),
                    Serdes.Bytes(), Serdes.serdeFrom(stateWriter, stateReader))
                    .withCachingEnabled(), PROCESSOR);
        }
        topology.addSink(REQUESTS_SINK, topics.fetchRequests.name(), new StringSerializer(),
                JsonSerde.of(FetchRequest.class), PROCESSOR);
        topology.addSink(FORGET_SINK, topics.forget.name(), new StringSerializer(), JsonSerde.of(ForgetUrl.class),
                PROCESSOR);
        return topology;
    }

    /** Name of the pending store's changelog topic for this configuration. */
    public static String changelogTopic(SchedulerConfig config) {
        return config.kafka().topicPrefix() + SchedulerConfig.APPLICATION_ID + "-" + PENDING_STORE + "-changelog";
    }

    /** Every changelog topic of the scheduler's stores. */
    public static List<String> changelogTopics(SchedulerConfig config) {
        return List.of(changelogTopic(config), revisitChangelogTopic(config));
    }

    /** Name of the changelog of the revisit store in use ({@code revisit-state}). */
    public static String revisitChangelogTopic(SchedulerConfig config) {
        return config.kafka().topicPrefix() + SchedulerConfig.APPLICATION_ID + "-"
                + (config.revisit().state() == SchedulerConfig.RevisitStateMode.SATL ? REVISIT_SATL_STORE
                : REVISIT_STORE) + "-changelog";
    }

    /** The names the scheduler counts bad records under: its three input topics and its pending store. */
    public static List<String> badRecordSources(SchedulerConfig config) {
        Topics topics = config.kafka().topics();
        return List.of(topics.admitted.name(), topics.rankScores.name(), topics.fetchResults.name(), PENDING_STORE,
                config.revisit().state() == SchedulerConfig.RevisitStateMode.SATL ? REVISIT_SATL_STORE
                        : REVISIT_STORE);
    }
}
