package io.github.kcrawler.lab.faults;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.RevisitPolicy;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RevisitStateCheck} against a real broker: a page with a record in the revisit changelog has state; one whose
 * later tombstone removed it has none; the pending changelog, absent here, counts as empty; a page without state is reported with what the fetch results and dead letters
 * say of it, so that a failing {@code FaultsIT} tells which it was.
 */
class RevisitStateCheckTest {
    private static final String IP = "127.0.0.1";

    @Test
    void pagesWithoutStateAreReportedWithTheirFetchResultsAndDeadLetters(@TempDir Path dir) throws Exception {
        String kept = "http://a.websim.test/p/1";
        String removed = "http://a.websim.test/p/2";
        String failed = "http://a.websim.test/p/3";
        String deadLettered = "http://a.websim.test/p/4";
        String unheard = "http://a.websim.test/p/5";
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir)) {
            Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
            Topics topics = Topics.withPrefix("");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers()))) { // the broker creates no topic on its own
                admin.createTopics(List.of(new NewTopic(RevisitStateCheck.topic(), 2, (short) 1),
                        new NewTopic(topics.fetchResults.name(), 2, (short) 1),
                        new NewTopic(topics.deadLetter.name(), 1, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (String url : List.of(kept, removed)) {
                    p.send(new ProducerRecord<>(RevisitStateCheck.topic(), key(url), record(url)));
                }
                p.send(new ProducerRecord<>(RevisitStateCheck.topic(), key(removed), null));
                for (FetchResult r : List.of(result(kept, FetchOutcome.OK, 200), result(failed, FetchOutcome.TIMEOUT, 0),
                        result(deadLettered, FetchOutcome.OK, 200))) {
                    p.send(new ProducerRecord<>(topics.fetchResults.name(), IP.getBytes(StandardCharsets.UTF_8),
                            topics.fetchResults.valueSerde().serializer().serialize(topics.fetchResults.name(), r)));
                }
                ProducerRecord<byte[], byte[]> dead = new ProducerRecord<>(topics.deadLetter.name(),
                        IP.getBytes(StandardCharsets.UTF_8), ("{\"url\":\"" + deadLettered + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
                dead.headers().add(DeadLetters.HEADER_SERVICE, "scheduler".getBytes(StandardCharsets.UTF_8));
                dead.headers().add(DeadLetters.HEADER_EXCEPTION, "java.io.IOException".getBytes(StandardCharsets.UTF_8));
                p.send(dead);
                p.flush();
            }

            RevisitStateCheck check = RevisitStateCheck.read(broker.bootstrapServers(),
                    List.of(kept, removed, failed, deadLettered, unheard), Duration.ofSeconds(30));

            assertThat(check.fetched()).isEqualTo(5);
            assertThat(check.states()).isEqualTo(1);
            assertThat(check.unreadable()).isZero();
            assertThat(check.missing()).isEqualTo(4);
            assertThat(check.missingSample()).hasSize(4);
            assertThat(check.missingSample().get(0)).startsWith(removed + " ").contains("(no fetch result)");
            assertThat(check.missingSample().get(1)).startsWith(failed + " ").contains("NEW TIMEOUT 0");
            assertThat(check.missingSample().get(2)).startsWith(deadLettered + " ").contains("NEW OK 200")
                    .contains("DEAD LETTER from scheduler").contains("java.io.IOException");
            assertThat(check.missingSample().get(3)).startsWith(unheard + " ").contains("(no fetch result)");
        }
    }

    private static byte[] key(String url) {
        return ByteBuffer.allocate(Long.BYTES).putLong(Fingerprints.url(url)).array();
    }

    private static byte[] record(String url) {
        RevisitPolicy policy = new RevisitPolicy(new ChangeRateEstimator(1, 10_000), 60_000, 1_440);
        RevisitState s = policy.next(null, result(url, FetchOutcome.OK, 200), IP, 1_000_000L).state();
        return RevisitRecords.record(RevisitRecords.fit(s));
    }

    private static FetchResult result(String url, FetchOutcome outcome, int status) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, status, outcome,
                1_000_000L, 0, 5, outcome == FetchOutcome.OK ? "0123456789abcdef0123456789abcdef" : null, 100,
                "text/html", null, null, null, 0, null);
    }
}
