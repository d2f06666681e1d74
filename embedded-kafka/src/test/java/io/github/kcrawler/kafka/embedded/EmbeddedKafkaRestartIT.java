package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Restarting on the same data directory, clean shutdown, port handling. */
class EmbeddedKafkaRestartIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Names of threads started by the Kafka server (not by clients, not the JVM-wide Yammer metrics ticker). */
    private static final Pattern SERVER_THREAD = Pattern.compile(
            "data-plane-kafka.*|.*kafka-request-handler.*|broker-\\d+-.*|controller-\\d+-.*|kafka-\\d+-.*"
                    + "|quorum-controller.*|ExpirationReaper.*|LogDirFailureHandler|group-coordinator.*"
                    + "|share-coordinator.*|share-group.*|kafka-log-cleaner.*|kafka-scheduler.*|TxnMarkerSender.*"
                    + "|AddPartitionsToTxn.*|transaction-log-manager.*|raft-expiration-reaper|PersisterStateManager"
                    + "|client-metrics-reaper|ShareGroupDLQSendThread");

    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "kafka-restart-");
    }

    @AfterEach
    void deleteDir() {
        KafkaTestCluster.deleteRecursively(dir);
    }

    @Test
    void restartKeepsClusterIdPortTopicsAndRecordsAndCloseIsClean() throws Exception {
        Set<Thread> threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());

        EmbeddedKafkaBroker first = EmbeddedKafkaBroker.start(dir);
        String clusterId = first.clusterId();
        int port = first.port();
        try (Admin admin = Admin.create(first.clientConfig())) {
            TopicProvisioner.ensureTopics(admin, List.of(new NewTopic("r.a", 4, (short) 1), new NewTopic("r.b", 4, (short) 1)), TIMEOUT);
        }
        produce(first, "r.a", 0, 100, null);
        produce(first, "r.b", 0, 10, "restart-tx");
        assertThat(first.freshlyFormatted()).isTrue();

        first.close();
        first.close(); // idempotent
        assertThat(first.isRunning()).isFalse();
        assertThat(dir.resolve("logs/.kafka_cleanshutdown")).exists();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(newServerThreads(threadsBefore)).isEmpty());

        try (EmbeddedKafkaBroker second = EmbeddedKafkaBroker.start(dir);
             Admin admin = Admin.create(second.clientConfig())) {
            assertThat(second.freshlyFormatted()).isFalse();
            assertThat(second.clusterId()).isEqualTo(clusterId);
            assertThat(second.port()).isEqualTo(port);
            assertThat(second.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            assertThat(admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS)).isEqualTo(clusterId);
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains("r.a", "r.b");
            assertThat(TopicProvisioner.partitionCounts(admin, List.of("r.a", "r.b"), TIMEOUT))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("r.a", 4, "r.b", 4));
            // ensureTopics on existing topics after a restart: nothing to create, and they are writable
            assertThat(TopicProvisioner.ensureTopics(admin, List.of(new NewTopic("r.a", 4, (short) 1)), TIMEOUT)).isEmpty();

            // a second broker on the same directory must not start, whatever its port: the metadata log is shared
            int otherPort = LoopbackPorts.freePort(port);
            for (EmbeddedKafkaConfig sameDir : List.of(EmbeddedKafkaConfig.of(dir), EmbeddedKafkaConfig.of(dir, otherPort))) {
                assertThatThrownBy(() -> EmbeddedKafkaBroker.start(sameDir).close())
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("in use by another embedded broker");
            }
            assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)).hasSize(1);

            produce(second, "r.a", 100, 50, null);
            assertThat(readAllValues(second, "r.a")).hasSize(150).doesNotHaveDuplicates();
            assertThat(readAllValues(second, "r.b")).hasSize(10);
        }

        // an explicit port wins over the remembered one and is remembered in turn
        int newPort = LoopbackPorts.freePort(port);
        try (EmbeddedKafkaBroker third = EmbeddedKafkaBroker.start(EmbeddedKafkaConfig.of(dir, newPort))) {
            assertThat(third.port()).isEqualTo(newPort);
            assertThat(third.clusterId()).isEqualTo(clusterId);
            assertThat(readAllValues(third, "r.a")).hasSize(150);
        }
        assertThat(Files.readString(dir.resolve(EmbeddedKafkaBroker.STATE_FILE))).contains("broker.port=" + newPort);
    }

    @Test
    void anExplicitPortInUseFailsWithAClearMessage() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(EmbeddedKafkaConfig.of(dir, taken.getLocalPort())))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(String.valueOf(taken.getLocalPort()))
                    .hasMessageContaining("in use");
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    private static Set<String> newServerThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(n -> SERVER_THREAD.matcher(n).matches())
                .collect(Collectors.toSet());
    }

    private static void produce(EmbeddedKafkaBroker broker, String topic, int from, int count, String transactionalId) throws Exception {
        Map<String, Object> p = new java.util.HashMap<>(broker.clientConfig());
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("enable.idempotence", true);
        if (transactionalId != null) {
            p.put("transactional.id", transactionalId);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            if (transactionalId != null) {
                producer.initTransactions();
                producer.beginTransaction();
            }
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            if (transactionalId != null) {
                producer.commitTransaction();
            } else {
                producer.flush();
            }
        }
    }

    /** Reads a topic through a {@link KafkaTestCluster}-like read-all, using the broker's client settings. */
    private static List<String> readAllValues(EmbeddedKafkaBroker broker, String topic) {
        Map<String, Object> p = new java.util.HashMap<>(broker.clientConfig());
        p.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("isolation.level", "read_committed");
        try (Admin admin = Admin.create(broker.clientConfig());
             var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, String>(p)) {
            int partitions = TopicProvisioner.partitionCounts(admin, List.of(topic), TIMEOUT).get(topic);
            var tps = java.util.stream.IntStream.range(0, partitions)
                    .mapToObj(i -> new org.apache.kafka.common.TopicPartition(topic, i)).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            var end = consumer.endOffsets(tps, TIMEOUT);
            List<String> values = new java.util.ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("read %s before timeout", topic).isLessThan(deadline);
                consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
            }
            return values;
        }
    }
}
