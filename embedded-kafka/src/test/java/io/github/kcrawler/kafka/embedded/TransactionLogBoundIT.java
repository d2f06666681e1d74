package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transaction log the embedded broker reads before each restart ({@link LastTransactions}) stays bounded on a
 * long crawl: its segments roll at {@code transaction.state.log.segment.bytes} and the log cleaner compacts the
 * rolled ones to each transactional id's latest state — and what the read finds after compaction is still every
 * producer's last transaction, including one whose last record was written before many rolls. Here with 1 MiB
 * segments (Kafka's smallest) and one partition; each transaction writes to 20 topics with long names, so that its
 * records in the log are a few kilobytes and a few hundred transactions roll it several times.
 */
class TransactionLogBoundIT {
    private static final int SEGMENT_BYTES = 1024 * 1024;
    private static final List<String> TOPICS = IntStream.range(0, 20)
            .mapToObj(i -> "bound." + "t".repeat(200) + "." + i).toList();
    private static final int TRANSACTIONS = 800;
    /** The name of a partition's first segment (base offset 0). */
    private static final String FIRST_SEGMENT = "0".repeat(20) + ".log";

    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "kafka-txn-log-");
    }

    @AfterEach
    void deleteDir() {
        KafkaTestCluster.deleteRecursively(dir);
    }

    @Test
    void theTransactionLogIsCompactedToEachProducersLastStateAndStillReadsRight() throws Exception {
        EmbeddedKafkaConfig config = EmbeddedKafkaConfig.of(dir).withOverrides(Map.of(
                "transaction.state.log.segment.bytes", String.valueOf(SEGMENT_BYTES),
                "transaction.state.log.num.partitions", "1",
                "log.cleaner.backoff.ms", "200"));
        Path txnLog = dir.resolve(EmbeddedKafkaBroker.LOG_DIR).resolve("__transaction_state-0");
        try (KafkaTestCluster kafka = KafkaTestCluster.start(config)) {
            kafka.createTopics(1, TOPICS.toArray(String[]::new));
            transactions(kafka, "early", 5);           // its last state ends up in a segment long rolled
            transactions(kafka, "busy", TRANSACTIONS);
            List<Path> segments = LastTransactions.segments(txnLog);
            assertThat(segments.get(segments.size() - 1).getFileName().toString())
                    .as("the log rolled: the active segment's base offset is not 0").isNotEqualTo(FIRST_SEGMENT);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (logBytes(txnLog) > 2L * SEGMENT_BYTES && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(logBytes(txnLog)).as("compacted: the active segment plus each id's latest state")
                    .isLessThanOrEqualTo(2L * SEGMENT_BYTES);
        }

        Map<String, LastTransactions.Last> last = new HashMap<>();
        LastTransactions.read(dir.resolve(EmbeddedKafkaBroker.LOG_DIR)).values()
                .forEach(l -> last.put(l.transactionalId(), l));
        assertThat(last).containsOnlyKeys("early", "busy");
        assertThat(last.values()).allSatisfy(l -> {
            assertThat(l.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
            assertThat(l.committed(l.producerEpoch())).isTrue();
        });
    }

    /** {@code count} committed transactions, each of one record on every topic, by one producer. */
    private static void transactions(KafkaTestCluster kafka, String id, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.transactionalProducerProps(id))) {
            producer.initTransactions();
            for (int i = 0; i < count; i++) {
                producer.beginTransaction();
                for (String topic : TOPICS) {
                    producer.send(new ProducerRecord<>(topic, id, "v" + i));
                }
                producer.commitTransaction();
            }
        }
    }

    private static long logBytes(Path partitionDir) {
        return LastTransactions.segments(partitionDir).stream().mapToLong(f -> f.toFile().length()).sum();
    }
}
