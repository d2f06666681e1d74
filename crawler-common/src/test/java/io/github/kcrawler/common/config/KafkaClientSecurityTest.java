package io.github.kcrawler.common.config;

import io.github.kcrawler.common.service.StreamsDefaults;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Security settings given as {@code kafka.*} flags or {@code CRAWLER_KAFKA_*} variables reach the properties every
 * client is built from, and secret values never show in what we print.
 */
class KafkaClientSecurityTest {
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"crawler\" password=\"s3cr3t-Pa55\";";
    private static final Map<String, String> SSL = Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "PLAIN",
            "sasl.jaas.config", JAAS,
            SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/kcrawler/tls/truststore.p12",
            SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, "trust-pw",
            SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12",
            SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https");

    @Test
    void environmentVariablesCarryKafkaSettingsAndFlagsWin() {
        Settings s = Settings.parse(Set.of("bootstrap-servers"), Map.of(
                        "CRAWLER_KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                        "CRAWLER_KAFKA_SASL_JAAS_CONFIG", JAAS,
                        "CRAWLER_KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/kcrawler/tls/truststore.p12",
                        "CRAWLER_KAFKA_LINGER_MS", "3",
                        "CRAWLER_BOOTSTRAP_SERVERS", "kafka:9093",
                        "HOME", "/root"),
                "--kafka.linger.ms=7");
        assertThat(s.kafkaOverrides()).containsOnly(
                Map.entry("security.protocol", "SASL_SSL"),
                Map.entry("sasl.jaas.config", JAAS),
                Map.entry("ssl.truststore.location", "/etc/kcrawler/tls/truststore.p12"),
                Map.entry("linger.ms", "7"));
        assertThat(s.string("bootstrap-servers", null)).isEqualTo("kafka:9093");
        assertThat(Settings.kafkaEnvName("sasl.jaas.config")).isEqualTo("CRAWLER_KAFKA_SASL_JAAS_CONFIG");
    }

    /** CRAWLER_KAFKA_A_B -> a.b and A__B -> a_b must give back every name Kafka's clients know. */
    @Test
    void everyKafkaClientSettingNameSurvivesTheEnvironmentMapping() {
        Set<String> names = new TreeSet<>();
        names.addAll(ProducerConfig.configNames());
        names.addAll(ConsumerConfig.configNames());
        names.addAll(AdminClientConfig.configNames());
        names.addAll(StreamsConfig.configDef().names());
        assertThat(names).hasSizeGreaterThan(200).contains("sasl.jaas.config", "ssl.keystore.password");
        for (String name : names) {
            String env = Settings.kafkaEnvName(name);
            assertThat(Settings.kafkaFromEnv(Map.of(env, "v"))).as(name + " via " + env).containsOnlyKeys(name);
        }
    }

    @Test
    void sslAndSaslSettingsReachEveryClientPropertySet() {
        KafkaSettings kafka = new KafkaSettings("broker:9093", "", 4, null, SSL);
        Properties streams = StreamsDefaults.properties(kafka, "dedup", 1, 100);
        Map<String, Object> admin = kafka.clientProperties(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000));
        Map<String, Object> consumer = kafka.clientProperties(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"));
        for (Map<Object, Object> props : java.util.List.<Map<Object, Object>>of(streams, Map.copyOf(admin),
                Map.copyOf(consumer))) {
            assertThat(props).containsAllEntriesOf(SSL).containsEntry("bootstrap.servers", "broker:9093");
        }
        assertThat(admin).containsEntry(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        // Streams hands non-Streams keys to its producer, consumers and admin client: the Streams config built
        // from these properties must keep them for each
        StreamsConfig config = new StreamsConfig(streams);
        Map<String, Object> producerOfStreams = config.getProducerConfigs("client-1");
        Map<String, Object> consumerOfStreams = config.getMainConsumerConfigs("g", "client-1", 0);
        Map<String, Object> adminOfStreams = config.getAdminConfigs("client-1");
        for (Map<String, Object> props : java.util.List.of(producerOfStreams, consumerOfStreams, adminOfStreams)) {
            assertThat(props).containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/kcrawler/tls/truststore.p12")
                    .containsKey("sasl.jaas.config");
        }
    }

    @Test
    void overridesWinOverAClientsOwnSettings() {
        KafkaSettings kafka = new KafkaSettings("broker:9093", "", 4, null, Map.of("request.timeout.ms", "9000"));
        assertThat(kafka.clientProperties(Map.of("request.timeout.ms", 5000))).containsEntry("request.timeout.ms", "9000");
    }

    @Test
    void secretsAreMaskedWhenSettingsArePrinted() {
        KafkaSettings kafka = new KafkaSettings("broker:9093", "", 4, null, SSL);
        String printed = kafka.toString();
        assertThat(printed).doesNotContain("s3cr3t-Pa55").doesNotContain("trust-pw")
                .contains("sasl.jaas.config=[hidden]", "ssl.truststore.password=[hidden]",
                        "security.protocol=SASL_SSL", "ssl.truststore.location=/etc/kcrawler/tls/truststore.p12");
    }

    @Test
    void kafkaPasswordTypesAndSecretLookingNamesAreSecret() {
        assertThat(KafkaSecrets.isSecret("sasl.jaas.config")).isTrue();
        assertThat(KafkaSecrets.isSecret("ssl.key.password")).isTrue();
        assertThat(KafkaSecrets.isSecret("ssl.keystore.key")).isTrue(); // a PEM private key, no hint in its name
        assertThat(KafkaSecrets.isSecret("producer.ssl.keystore.key")).isTrue();
        assertThat(KafkaSecrets.isSecret("listener.name.sasl_plaintext.plain.sasl.jaas.config")).isTrue();
        assertThat(KafkaSecrets.isSecret("listener.name.ssl.ssl.keystore.key")).isTrue();
        assertThat(KafkaSecrets.isSecret("sasl.oauthbearer.client.credentials.client.secret")).isTrue();
        assertThat(KafkaSecrets.isSecret("some.plugin.api.secret")).isTrue();
        assertThat(KafkaSecrets.isSecret("security.protocol")).isFalse();
        assertThat(KafkaSecrets.isSecret("ssl.truststore.location")).isFalse();
        assertThat(KafkaSecrets.isSecret("linger.ms")).isFalse();
        assertThat(KafkaSecrets.isSecret(null)).isFalse();
    }
}
