package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fetcher's consumer and producer are built with the SSL/SASL settings given as {@code CRAWLER_KAFKA_*}
 * variables, Kafka's own config classes accept them, and they hold the secrets as masked passwords. No broker needed.
 */
class FetcherClientSecurityTest {
    @Test
    void sslAndSaslSettingsReachTheFetchersConsumerAndProducer() {
        Map<String, String> env = Map.of(
                "CRAWLER_BOOTSTRAP_SERVERS", "kafka-0.kafka:9093",
                "CRAWLER_KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                "CRAWLER_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                "CRAWLER_KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"fetcher\" password=\"scram-secret\";",
                "CRAWLER_KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/kcrawler/tls/ca.p12",
                "CRAWLER_KAFKA_SSL_TRUSTSTORE_TYPE", "PKCS12",
                "CRAWLER_KAFKA_SSL_TRUSTSTORE_PASSWORD", "trust-secret",
                "CRAWLER_KAFKA_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "https");
        FetcherService fetcher = new FetcherService(FetcherConfig.from(Settings.parse(FetcherConfig.KEYS, env)),
                new SimpleMeterRegistry(), CrawlClock.SYSTEM);
        Properties consumer = fetcher.consumerProperties();
        Properties producer = fetcher.producerProperties();
        for (Properties p : new Properties[]{consumer, producer}) {
            assertThat(p).containsEntry("bootstrap.servers", "kafka-0.kafka:9093")
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("ssl.truststore.location", "/etc/kcrawler/tls/ca.p12")
                    .containsEntry("ssl.truststore.type", "PKCS12")
                    .containsEntry("ssl.truststore.password", "trust-secret")
                    .containsEntry("ssl.endpoint.identification.algorithm", "https");
        }
        // Kafka parses them as its own typed settings, passwords masked when printed
        for (AbstractConfig parsed : new AbstractConfig[]{new ConsumerConfig(consumer), new ProducerConfig(producer)}) {
            assertThat(parsed.getString("security.protocol")).isEqualTo("SASL_SSL");
            assertThat(parsed.getString("ssl.truststore.location")).isEqualTo("/etc/kcrawler/tls/ca.p12");
            assertThat(parsed.getPassword("ssl.truststore.password").value()).isEqualTo("trust-secret");
            assertThat(parsed.getPassword("ssl.truststore.password").toString()).isEqualTo("[hidden]");
            assertThat(parsed.getPassword("sasl.jaas.config").toString()).isEqualTo("[hidden]");
        }
        assertThat(fetcher.toString() + FetcherConfig.from(Settings.parse(FetcherConfig.KEYS, env)))
                .doesNotContain("scram-secret").doesNotContain("trust-secret");
    }
}
