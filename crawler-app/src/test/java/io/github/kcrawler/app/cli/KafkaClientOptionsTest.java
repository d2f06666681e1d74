package io.github.kcrawler.app.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code crawler seed} and {@code crawler status} take Kafka client settings from flags and CRAWLER_KAFKA_*. */
class KafkaClientOptionsTest {
    @Test
    void flagsAndEnvironmentReachTheClientPropertiesAndFlagsWin() {
        Map<String, String> env = Map.of("CRAWLER_KAFKA_SASL_JAAS_CONFIG", "jaas-from-env",
                "CRAWLER_KAFKA_LINGER_MS", "3", "CRAWLER_POLITENESS_MS", "5");
        SeedCommand seed = new SeedCommand();
        new CommandLine(seed).parseArgs("--seeds", "http://a.test/", "--bootstrap-servers", "kafka:9093",
                "--kafka", "security.protocol=SASL_SSL", "--kafka", "linger.ms=7");
        assertThat(seed.kafka.settings("kafka:9093", "p.", env).clientProperties(Map.of("acks", "all")))
                .containsEntry("bootstrap.servers", "kafka:9093").containsEntry("acks", "all")
                .containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.jaas.config", "jaas-from-env")
                .containsEntry("linger.ms", "7").doesNotContainKey("politeness.ms");

        StatusCommand status = new StatusCommand();
        new CommandLine(status).parseArgs("--scrape", "http://127.0.0.1:9400/metrics", "--kafka",
                "ssl.truststore.location=/etc/ca.p12");
        assertThat(status.kafka.overrides(Map.of())).containsExactly(Map.entry("ssl.truststore.location", "/etc/ca.p12"));
    }
}
