package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class KafkaTestClusterIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void createProduceReadRestartAndCleanUp() throws Exception {
        Path dataDir;
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary()) {
            dataDir = kafka.dataDir();
            assertThat(dataDir).exists().startsWith(Path.of("target").toAbsolutePath());

            kafka.createTopics(4, "t.in", "t.out");
            kafka.createTopics(4, "t.in"); // again: no-op
            assertThat(TopicProvisioner.partitionCounts(kafka.admin(), List.of("t.in", "t.out"), TIMEOUT))
                    .containsEntry("t.in", 4).containsEntry("t.out", 4);

            Map<String, String> records = new LinkedHashMap<>();
            for (int i = 0; i < 40; i++) {
                records.put("10.0.0." + i, "{\"v\":1,\"n\":" + i + "}");
            }
            kafka.produce("t.in", records);
            kafka.produce("t.in", null, "no-key");

            List<TopicRecord> all = kafka.readAll("t.in", TIMEOUT);
            assertThat(all).hasSize(41);
            assertThat(all).extracting(TopicRecord::key, TopicRecord::value)
                    .contains(tuple("10.0.0.7", "{\"v\":1,\"n\":7}"), tuple(null, "no-key"));
            assertThat(all).extracting(TopicRecord::partition).containsOnly(0, 1, 2, 3);
            assertThat(kafka.readAll("t.out", TIMEOUT)).isEmpty();
            assertThat(kafka.endOffsets("t.in").values().stream().mapToLong(Long::longValue).sum()).isEqualTo(41);

            // records written later by someone else (here: a background transactional producer)
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                sleep(300);
                try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka.transactionalProducerProps("t-writer"))) {
                    p.initTransactions();
                    p.beginTransaction();
                    for (int i = 0; i < 5; i++) {
                        p.send(new ProducerRecord<>("t.out", "k" + i, "out-" + i));
                    }
                    p.commitTransaction();
                }
            });
            assertThat(kafka.awaitRecords("t.out", 5, TIMEOUT)).extracting(TopicRecord::value)
                    .containsExactlyInAnyOrder("out-0", "out-1", "out-2", "out-3", "out-4");
            writer.get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> kafka.awaitRecords("t.out", 6, Duration.ofMillis(500)))
                    .isInstanceOf(TimeoutException.class).hasMessageContaining("only 5 of 6");

            // a consumer group with the harness settings
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(kafka.consumerProps("t-group"))) {
                c.subscribe(List.of("t.in"));
                int n = 0;
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (n < 41 && System.nanoTime() < deadline) {
                    n += c.poll(Duration.ofMillis(200)).count();
                }
                assertThat(n).isEqualTo(41);
                c.commitSync();
            }

            int port = kafka.broker().port();
            kafka.restart();
            assertThat(kafka.broker().port()).isEqualTo(port);
            assertThat(kafka.readAll("t.in", TIMEOUT)).hasSize(41);
            assertThat(kafka.admin().listConsumerGroupOffsets("t-group").partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).values()).extracting(o -> o.offset()).isNotEmpty();
            kafka.produce("t.in", "after", "restart");
            assertThat(kafka.readAll("t.in", TIMEOUT)).hasSize(42);
        }
        assertThat(dataDir).doesNotExist();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
