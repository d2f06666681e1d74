package io.github.kcrawler.app.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One syntax for Kafka client settings (issue 23): the services' --kafka.NAME=VALUE works for crawl and seed too. */
class KafkaFlagsTest {
    @Test
    void serviceSyntaxBecomesEachCommandsOwnAndOldSpellingsAreKept() {
        assertThat(CrawlerMain.kafkaFlags("crawl", "--seeds", "s.txt", "--kafka.linger.ms=5",
                "--kafka.security.protocol", "SASL_SSL", "--set", "kafka.acks=all"))
                .containsExactly("crawl", "--seeds", "s.txt", "--set", "kafka.linger.ms=5",
                        "--set", "kafka.security.protocol=SASL_SSL", "--set", "kafka.acks=all");
        assertThat(CrawlerMain.kafkaFlags("seed", "--kafka.sasl.mechanism=PLAIN", "--kafka", "acks=all",
                "--seeds", "x"))
                .containsExactly("seed", "--kafka", "sasl.mechanism=PLAIN", "--kafka", "acks=all", "--seeds", "x");
        assertThat(CrawlerMain.kafkaFlags("tail", "--kafka.x=1")).containsExactly("tail", "--kafka.x=1");
        assertThat(CrawlerMain.kafkaFlags()).isEmpty();
    }

    @Test
    void seedParsesTheServiceSyntaxIntoItsClientSettings() {
        SeedCommand seed = new SeedCommand();
        String[] args = CrawlerMain.kafkaFlags("seed", "--bootstrap-servers", "k:9092", "--seeds", "http://a.test/",
                "--kafka.security.protocol=SASL_SSL");
        new picocli.CommandLine(seed).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
        assertThat(seed.kafka.overrides(java.util.Map.of())).containsEntry("security.protocol", "SASL_SSL");
    }
}
