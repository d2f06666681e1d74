package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded broker with a SASL_PLAINTEXT (PLAIN) client listener: the right user gets through, a wrong password
 * is refused at once with an authentication error, and the KRaft controller stays on its PLAINTEXT listener.
 * About 5 s.
 */
class EmbeddedKafkaSaslIT {
    private static final String PASSWORD = "pw-" + Long.toHexString(System.nanoTime());

    @Test
    void saslListenerAcceptsTheUserAndRefusesAWrongPassword() throws Exception {
        java.nio.file.Path dir = KafkaTestCluster.newTemporaryDirectory("kafka-sasl-");
        try (KafkaTestCluster cluster = KafkaTestCluster.start(EmbeddedKafkaConfig.of(dir)
                .withSaslPlain("crawler", PASSWORD))) {
            Map<String, String> settings = BrokerSettings.of(cluster.broker().config(), 1,
                    cluster.broker().port(), cluster.broker().controllerPort(), dir);
            assertThat(settings.get("listener.security.protocol.map"))
                    .isEqualTo("SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
            assertThat(cluster.broker().clientConfig()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                    .containsEntry("sasl.mechanism", "PLAIN");
            assertThat(cluster.broker().config().toString()).doesNotContain(PASSWORD);

            // the right user: topics created, a record produced and read back (KafkaTestCluster uses clientConfig())
            cluster.createTopics(1, "t");
            try (KafkaProducer<String, String> producer = cluster.newProducer()) {
                producer.send(new ProducerRecord<>("t", "k", "v")).get(30, TimeUnit.SECONDS);
            }
            assertThat(cluster.readAll("t", Duration.ofSeconds(30))).hasSize(1);

            // a wrong password: the admin call fails with an authentication error, well before any timeout
            Map<String, Object> wrong = new HashMap<>(cluster.broker().clientConfig());
            wrong.put("sasl.jaas.config", new EmbeddedKafkaConfig.SaslPlain("crawler", "wrong").clientJaasConfig());
            wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
            long t0 = System.nanoTime();
            try (Admin admin = Admin.create(wrong)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(60, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SaslAuthenticationException.class)
                        .hasMessageContaining("Authentication failed");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));

            // a producer with the wrong password fails in send(), not after max.block.ms
            wrong.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
            wrong.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
            t0 = System.nanoTime();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(wrong, new StringSerializer(),
                    new StringSerializer())) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("t", "k", "v")).get(60, TimeUnit.SECONDS))
                        .hasStackTraceContaining("Authentication failed");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        } finally {
            KafkaTestCluster.deleteRecursively(dir);
        }
    }

    @Test
    void saslUserMustNotBreakOutOfTheJaasQuoting() {
        for (String bad : List.of("", "a\"b", "a;b", "a\\b", "a\nb")) {
            assertThatThrownBy(() -> new EmbeddedKafkaConfig.SaslPlain("u", bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("password");
        }
        assertThat(new EmbeddedKafkaConfig.SaslPlain("u", "p4ss").toString()).doesNotContain("p4ss");
    }
}
