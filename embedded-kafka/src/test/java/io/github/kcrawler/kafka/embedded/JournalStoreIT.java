package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.streams.JournalFormat;
import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.common.streams.JournalStore;
import io.github.kcrawler.common.streams.JournalStoreBuilder;
import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link JournalStore} through a real broker, exactly-once, with snapshot thresholds small enough that a run takes
 * several, each spread over several commits: the store is rebuilt from its changelog on an empty state directory (the
 * journal's own restore callback, snapshot chunks' range deletions included) and continues from a checkpoint on its
 * own one, and across all those starts no two batches ever share a key (a shared key would let compaction drop the
 * older one: lost changes).
 */
class JournalStoreIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String APP = "journal-it";
    private static final String STORE = "journal";
    private static final String CHANGELOG = APP + "-" + STORE + "-changelog";

    /** Applies {@code p k v} and {@code d k} operations, separated by {@code ;}. */
    private static final class Ops implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> record) {
            for (String op : record.value().split(";")) {
                String[] w = op.split(" ");
                if (w[0].equals("p")) {
                    store.put(w[1], w[2]);
                } else {
                    store.delete(w[1]);
                }
            }
        }
    }

    @Test
    void restoresFromTheChangelogAndContinuesFromACheckpoint_withoutReusingABatchKey() {
        PropertyCheck.forAll(1, g -> {
            try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary(StreamsRunnerIT.BROKER)) {
                kafka.createTopics(1, "ops");
                TreeMap<String, String> model = new TreeMap<>();
                Path first = KafkaTestCluster.newTemporaryDirectory("journal-a-");
                Path second = KafkaTestCluster.newTemporaryDirectory("journal-b-");
                int sent = 0;
                sent += runAndCheck(kafka, first, g, model, sent, 60);     // a fresh store
                sent += runAndCheck(kafka, second, g, model, sent, 60);    // restored from the changelog alone
                sent += runAndCheck(kafka, second, g, model, sent, 60);    // from its checkpoint
                runAndCheck(kafka, KafkaTestCluster.newTemporaryDirectory("journal-c-"), g, model, sent, 0);

                List<ConsumerRecord<byte[], byte[]>> log = changelog(kafka);
                Set<Bytes> keys = assertNoBatchKeyTwice(log);
                long[] chunks = new long[2]; // chunks, and the last chunks of snapshots
                JournalFormat.replay(log.stream().map(r -> KeyValue.pair(r.key(), r.value())).toList(),
                        new JournalFormat.Replay() {
                            @Override
                            public void clear() {
                            }

                            @Override
                            public void clearRange(byte[] from, byte[] to) {
                                chunks[0]++;
                                chunks[1] += to == null ? 1 : 0;
                            }

                            @Override
                            public void batch(long epoch, long sequence, int ops) {
                            }

                            @Override
                            public void change(byte[] key, byte[] value) {
                            }
                        });
                assertThat(chunks[1]).as("snapshots completed").isGreaterThanOrEqualTo(2);
                assertThat(chunks[0]).as("chunks: snapshots spread over several commits").isGreaterThan(2 * chunks[1]);
                assertThat(keys.size() - chunks[0]).as("batches").isGreaterThan(3 * chunks[1]);
                assertThat(keys.size()).as("batches: far fewer than the operations").isLessThan(sent * 3);
            }
        });
    }

    /** Starts the app on {@code stateDir}, checks the restored store, sends {@code records} more and checks again. */
    private static int runAndCheck(KafkaTestCluster kafka, Path stateDir, Gen g, TreeMap<String, String> model,
                                   int sentBefore, int records) throws InterruptedException {
        try (KafkaStreams streams = new KafkaStreams(topology(), properties(kafka, stateDir))) {
            streams.start();
            awaitStore(streams, model, "after the start on " + stateDir.getFileName());
            send(kafka, g, model, sentBefore, records);
            awaitStore(streams, model, "after " + records + " more records");
            streams.close(Duration.ofSeconds(30));
        }
        return records;
    }

    /** Sends {@code records} records of 1–6 random operations each, applying them to {@code model}. */
    private static void send(KafkaTestCluster kafka, Gen g, TreeMap<String, String> model, int sentBefore,
                             int records) throws InterruptedException {
        for (int r = 0; r < records; r++) {
            List<String> ops = new ArrayList<>();
            for (int i = g.intIn(1, 6); i > 0; i--) {
                String k = "k" + g.intIn(0, 19);
                if (g.intIn(0, 3) == 0) {
                    ops.add("d " + k);
                    model.remove(k);
                } else {
                    String v = "v" + (sentBefore + r) + "." + i;
                    ops.add("p " + k + " " + v);
                    model.put(k, v);
                }
            }
            kafka.produce("ops", "k", String.join(";", ops));
            Thread.sleep(15); // a few records per commit, so that most commits log a batch, not a snapshot
        }
    }

    /**
     * A standby replica is kept current through the journal's restore callback, and once its active peer stops it
     * takes over from where that peer's writer stood: its store is the model, before and after, and no batch key is
     * written twice.
     */
    @Test
    void aStandbyFollowsTheJournal_andTakesOverWithoutReusingABatchKey() {
        PropertyCheck.forAll(1, g -> {
            try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary(StreamsRunnerIT.BROKER)) {
                kafka.createTopics(1, "ops");
                TreeMap<String, String> model = new TreeMap<>();
                Properties a = properties(kafka, KafkaTestCluster.newTemporaryDirectory("journal-sa-"));
                Properties b = properties(kafka, KafkaTestCluster.newTemporaryDirectory("journal-sb-"));
                a.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
                b.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
                try (KafkaStreams first = new KafkaStreams(topology(), a);
                     KafkaStreams second = new KafkaStreams(topology(), b)) {
                    first.start();
                    second.start();
                    send(kafka, g, model, 0, 60);
                    KafkaStreams active = awaitActive(first, second);
                    KafkaStreams standby = active == first ? second : first;
                    awaitStore(active, model, "on the active instance");
                    await("the standby caught up").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                            .ignoreExceptions().untilAsserted(() -> assertThat(contents(standby, true))
                                    .isEqualTo(model));
                    active.close(Duration.ofSeconds(30));
                    send(kafka, g, model, 60, 40);
                    awaitStore(standby, model, "after the standby took over");
                }
                assertNoBatchKeyTwice(changelog(kafka));
            }
        });
    }

    private static KafkaStreams awaitActive(KafkaStreams first, KafkaStreams second) {
        KafkaStreams[] active = new KafkaStreams[1];
        await("an active task").atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            for (KafkaStreams s : List.of(first, second)) {
                if (s.metadataForLocalThreads().stream().anyMatch(t -> !t.activeTasks().isEmpty())) {
                    active[0] = s;
                    return true;
                }
            }
            return false;
        });
        return active[0];
    }

    private static TreeMap<String, String> contents(KafkaStreams streams, boolean stale) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, String>> query = StoreQueryParameters.fromNameAndType(
                STORE, QueryableStoreTypes.keyValueStore());
        ReadOnlyKeyValueStore<String, String> store = streams.store(stale ? query.enableStaleStores() : query);
        TreeMap<String, String> seen = new TreeMap<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            it.forEachRemaining(kv -> seen.put(kv.key, kv.value));
        }
        return seen;
    }

    /** Checks that no batch key was written twice (tombstones aside); returns the batch keys. */
    private static Set<Bytes> assertNoBatchKeyTwice(List<ConsumerRecord<byte[], byte[]>> log) {
        Set<Bytes> keys = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : log) {
            if (r.value() != null) {
                assertThat(keys.add(Bytes.wrap(r.key()))).as("batch key written twice at offset %d", r.offset())
                        .isTrue();
            }
        }
        return keys;
    }

    private static void awaitStore(KafkaStreams streams, TreeMap<String, String> model, String when) {
        await(when).atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptions().untilAsserted(() -> {
            assertThat(contents(streams, false)).isEqualTo(model);
        });
    }

    private static Topology topology() {
        Topology t = new Topology();
        t.addSource("ops", Serdes.String().deserializer(), Serdes.String().deserializer(), "ops");
        t.addProcessor("apply", Ops::new, "ops");
        t.addStateStore(JournalStoreBuilder.of(Stores.persistentKeyValueStore(STORE), Serdes.String(),
                Serdes.String()).withCachingEnabled().withSnapshots(new JournalSnapshots(60, 1.0, 60)), "apply");
        return t;
    }

    private static Properties properties(KafkaTestCluster kafka, Path stateDir) {
        Properties p = new Properties();
        p.putAll(kafka.broker().clientConfig());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 50);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // a closed instance does not leave the group: the next one waits for its session to expire
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 2_000);
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 500);
        return p;
    }

    private static List<ConsumerRecord<byte[], byte[]>> changelog(KafkaTestCluster kafka) {
        Map<String, Object> props = kafka.consumerProps(null);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            TopicPartition tp = new TopicPartition(CHANGELOG, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
