package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileLogInputStream;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link HangingTransactions}: a transaction its coordinator closed without a marker on a partition is aborted when
 * the broker restarts, so read_committed readers go on; an open transaction of a live producer is never touched.
 */
class HangingTransactionsIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String TOPIC = "hang.t";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);

    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "kafka-hanging-");
    }

    @AfterEach
    void deleteDir() {
        KafkaTestCluster.deleteRecursively(dir);
    }

    /**
     * Recreates what a kill between PrepareCommit and CompleteCommit left in CI: the coordinator has the transaction
     * committed, the partition has its records but no marker (cut off the log, so the restarted broker rebuilds the
     * producer's open transaction from the records).
     */
    @Test
    void aTransactionClosedWithoutItsMarkerIsAbortedAtRestart_andReadersGoOn() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir)) {
            try (Admin admin = Admin.create(broker.clientConfig())) {
                TopicProvisioner.ensureTopics(admin, List.of(new NewTopic(TOPIC, 1, (short) 1)), TIMEOUT);
            }
            try (KafkaProducer<String, String> producer = producer(broker, "hang-tx")) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i));
                }
                producer.commitTransaction();
            }
        }
        Path partitionDir = dir.resolve(EmbeddedKafkaBroker.LOG_DIR).resolve(TOPIC + "-0");
        cutOffLastMarker(partitionDir);

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir)) {
            assertThat(broker.abortedHangingTransactions()).as("partitions whose transaction was aborted")
                    .containsExactly(TP);
            try (Admin admin = Admin.create(broker.clientConfig())) {
                long end = endOffset(admin, IsolationLevel.READ_UNCOMMITTED);
                assertThat(endOffset(admin, IsolationLevel.READ_COMMITTED)).as("last stable offset").isEqualTo(end);
            }
            // a read_committed reader reaches the end (the aborted records are not delivered)
            try (KafkaConsumer<String, String> consumer = consumer(broker)) {
                consumer.assign(List.of(TP));
                consumer.seekToBeginning(List.of(TP));
                List<ConsumerRecord<String, String>> seen = new ArrayList<>();
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                try (Admin admin = Admin.create(broker.clientConfig())) {
                    long end = endOffset(admin, IsolationLevel.READ_UNCOMMITTED);
                    while (consumer.position(TP) < end && System.nanoTime() < deadline) {
                        consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
                    }
                    assertThat(consumer.position(TP)).isEqualTo(end);
                }
                assertThat(seen).isEmpty();
            }
        }
    }

    @Test
    void anOpenTransactionOfALiveProducerIsNotTouched_andCommits() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir);
             Admin admin = Admin.create(broker.clientConfig())) {
            TopicProvisioner.ensureTopics(admin, List.of(new NewTopic(TOPIC, 1, (short) 1)), TIMEOUT);
            try (KafkaProducer<String, String> producer = producer(broker, "live-tx")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v")).get();
                assertThat(HangingTransactions.open(admin, java.util.Set.of(TP),
                        System.nanoTime() + TIMEOUT.toNanos())).as("the transaction is open on the partition")
                        .hasSize(1);

                assertThat(HangingTransactions.abortAll(admin, TIMEOUT)).isEmpty();

                producer.commitTransaction();
            }
            // the markers are written after commitTransaction returns: the stable offset catches up soon after
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(endOffset(admin, IsolationLevel.READ_COMMITTED))
                    .isEqualTo(endOffset(admin, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(2L));
            try (KafkaConsumer<String, String> consumer = consumer(broker)) {
                consumer.assign(List.of(TP));
                consumer.seekToBeginning(List.of(TP));
                List<String> values = new ArrayList<>();
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (values.isEmpty() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
                }
                assertThat(values).containsExactly("v");
            }
        }
    }

    /** Truncates the partition's log before its last control batch and drops what would restore the old state. */
    private static void cutOffLastMarker(Path partitionDir) throws IOException {
        Path segment = partitionDir.resolve("00000000000000000000.log");
        long cut = -1;
        int batches = 0;
        try (FileRecords records = FileRecords.open(segment.toFile())) {
            for (FileLogInputStream.FileChannelRecordBatch b : records.batches()) {
                batches++;
                if (b.isControlBatch()) {
                    cut = b.position();
                }
            }
        }
        assertThat(cut).as("the commit marker's position among %d batches", batches).isPositive();
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".snapshot") || name.endsWith(".index") || name.endsWith(".timeindex")
                        || name.endsWith(".txnindex")) {
                    Files.delete(f);
                }
            }
        }
        // an unclean shutdown: the broker recovers the segment and rebuilds the producer's state from its records
        Files.deleteIfExists(partitionDir.getParent().resolve(".kafka_cleanshutdown"));
    }

    private static long endOffset(Admin admin, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(TP, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).all()
                .get().get(TP).offset();
    }

    private static KafkaProducer<String, String> producer(EmbeddedKafkaBroker broker, String transactionalId) {
        Map<String, Object> p = new HashMap<>(broker.clientConfig());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(EmbeddedKafkaBroker broker) {
        Map<String, Object> c = new HashMap<>(broker.clientConfig());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
    }
}
