package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One embedded broker shared by the tests of this class: producing, consuming, transactions, topic provisioning. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKafkaBrokerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Path dir;
    private EmbeddedKafkaBroker broker;
    private Admin admin;

    @BeforeAll
    void startBroker() throws Exception {
        dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "kafka-it-");
        broker = EmbeddedKafkaBroker.start(dir);
        admin = Admin.create(broker.clientConfig());
    }

    @AfterAll
    void stopBroker() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
        KafkaTestCluster.deleteRecursively(dir);
    }

    @Test
    void brokerListensOnLoopbackWithTheFormattedClusterId() throws Exception {
        assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:").endsWith(":" + broker.port());
        assertThat(broker.freshlyFormatted()).isTrue();
        assertThat(broker.isRunning()).isTrue();
        assertThat(admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS)).isEqualTo(broker.clusterId());
        assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS))
                .singleElement().satisfies(n -> {
                    assertThat(n.host()).isEqualTo("127.0.0.1");
                    assertThat(n.port()).isEqualTo(broker.port());
                    assertThat(n.id()).isEqualTo(broker.nodeId());
                });
        assertThat(Files.readString(dir.resolve(EmbeddedKafkaBroker.STATE_FILE)))
                .contains("broker.port=" + broker.port(), "controller.port=" + broker.controllerPort(),
                        "cluster.id=" + broker.clusterId());
    }

    @Test
    void idempotentProducerRoundTripOverFourPartitions() {
        String topic = "it.idempotent";
        Set<String> created = TopicProvisioner.ensureTopics(admin, List.of(new NewTopic(topic, 4, (short) 1)), TIMEOUT);
        assertThat(created).containsExactly(topic);

        Set<Integer> partitions = new HashSet<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps())) {
            List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                acks.add(producer.send(new ProducerRecord<>(topic, "host-" + (i % 20), "v" + i)));
            }
            for (var ack : acks) {
                partitions.add(getQuietly(ack).partition());
            }
        }
        assertThat(partitions).containsExactlyInAnyOrder(0, 1, 2, 3);

        List<ConsumerRecord<String, String>> records = consume(topic, "g-idempotent", "read_committed", 200);
        assertThat(records).hasSize(200);
        assertThat(records).extracting(ConsumerRecord::value).doesNotHaveDuplicates();
        // same key, same partition
        Map<String, Set<Integer>> partitionsByKey = new java.util.HashMap<>();
        records.forEach(r -> partitionsByKey.computeIfAbsent(r.key(), k -> new HashSet<>()).add(r.partition()));
        assertThat(partitionsByKey).hasSize(20).allSatisfy((k, ps) -> assertThat(ps).hasSize(1));
    }

    @Test
    void transactionalProducerIsSeenByReadCommittedConsumersOnlyWhenCommitted() {
        String topic = "it.transactional";
        TopicProvisioner.ensureTopics(admin, List.of(new NewTopic(topic, 4, (short) 1)), TIMEOUT);

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(transactionalProps("it-tx-1"))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 50; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "committed-" + i));
            }
            producer.commitTransaction();

            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "aborted-" + i));
            }
            producer.flush();
            producer.abortTransaction();

            producer.beginTransaction();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "committed-again-" + i));
            }
            producer.commitTransaction();
        }

        List<ConsumerRecord<String, String>> committed = consume(topic, "g-tx-committed", "read_committed", 70);
        assertThat(committed).hasSize(70).extracting(ConsumerRecord::value).noneMatch(v -> v.startsWith("aborted"));

        List<ConsumerRecord<String, String>> uncommitted = consume(topic, "g-tx-uncommitted", "read_uncommitted", 80);
        assertThat(uncommitted).extracting(ConsumerRecord::value).filteredOn(v -> v.startsWith("aborted")).hasSize(10);
    }

    /** Every restart reads the transaction log before the broker starts; its segment size bounds that read. */
    @Test
    void transactionLogIsCreatedWithTheBoundedSegmentSize() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(transactionalProps("it-tx-segment"))) {
            producer.initTransactions(); // creates __transaction_state if no test has yet
        }
        ConfigResource log = new ConfigResource(ConfigResource.Type.TOPIC, "__transaction_state");
        Config config = admin.describeConfigs(List.of(log)).all().get(30, TimeUnit.SECONDS).get(log);
        assertThat(config.get("segment.bytes").value())
                .isEqualTo(String.valueOf(BrokerSettings.TRANSACTION_LOG_SEGMENT_BYTES));
        assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
    }

    @Test
    void ensureTopicsIsIdempotentAndRejectsAnotherPartitionCount() {
        String topic = "it.provisioned";
        List<NewTopic> topics = List.of(new NewTopic(topic, 4, (short) 1), new NewTopic("it.provisioned.b", 4, (short) 1));
        assertThat(TopicProvisioner.ensureTopics(admin, topics, TIMEOUT)).hasSize(2);
        assertThat(TopicProvisioner.ensureTopics(admin, topics, TIMEOUT)).isEmpty();

        assertThat(TopicProvisioner.partitionCounts(admin, List.of(topic), TIMEOUT)).containsEntry(topic, 4);
        assertThat(TopicProvisioner.describeLeaders(admin, List.of(topic), TIMEOUT))
                .hasSize(4).containsValues(broker.nodeId()).doesNotContainValue(-1);
        Map<TopicPartition, Long> ends = TopicProvisioner.awaitWritable(admin, List.of(topic), TIMEOUT);
        assertThat(ends).hasSize(4).allSatisfy((tp, offset) -> assertThat(offset).isZero());

        assertThatThrownBy(() -> TopicProvisioner.ensureTopics(admin, List.of(new NewTopic(topic, 8, (short) 1)), TIMEOUT))
                .isInstanceOf(TopicProvisioner.TopicMismatchException.class)
                .hasMessageContaining("'" + topic + "'")
                .hasMessageContaining("4 partitions")
                .hasMessageContaining("8 were requested");
    }

    @Test
    void awaitWritableTimesOutForAMissingTopicAndCreationErrorsAreReported() {
        assertThatThrownBy(() -> TopicProvisioner.awaitWritable(admin, List.of("it.never.created"), Duration.ofSeconds(1)))
                .isInstanceOf(TimeoutException.class)
                .hasMessageContaining("it.never.created");
        // replication factor 3 on a single broker
        assertThatThrownBy(() -> TopicProvisioner.ensureTopics(admin, List.of(new NewTopic("it.rf3", 1, (short) 3)), TIMEOUT))
                .hasMessageContaining("it.rf3");
    }

    @Test
    void autoCreationIsDisabled() throws Exception {
        Map<String, Object> props = producerProps();
        props.put("max.block.ms", 1500);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("it.not.auto.created", "k", "v")).get())
                    .hasCauseInstanceOf(TimeoutException.class);
        }
        assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).doesNotContain("it.not.auto.created");
    }

    // -------------------------------------------------------------------------------------------------------------

    private Map<String, Object> producerProps() {
        Map<String, Object> p = new java.util.HashMap<>();
        p.put("bootstrap.servers", broker.bootstrapServers());
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("enable.idempotence", true);
        p.put("acks", "all");
        return p;
    }

    private Map<String, Object> transactionalProps(String id) {
        Map<String, Object> p = producerProps();
        p.put("transactional.id", id);
        return p;
    }

    private List<ConsumerRecord<String, String>> consume(String topic, String group, String isolation, int expected) {
        Map<String, Object> p = new java.util.HashMap<>();
        p.put("bootstrap.servers", broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            // a little longer to catch unexpected extra records
            long extra = System.nanoTime() + Duration.ofMillis(300).toNanos();
            while (System.nanoTime() < extra) {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            }
        }
        return out;
    }

    private static <T> T getQuietly(java.util.concurrent.Future<T> f) {
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
