package io.github.kcrawler.app.cli;

import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code crawler seed}: the one-shot seeding step of compose and Kubernetes, against a running broker. */
class SeedCommandTest {
    private static KafkaTestCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaTestCluster.startTemporary();
        kafka.createTopics(4, Topics.defaults().discovered.name(), "p1." + Topics.DISCOVERED);
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void seedsFromFileAndArgumentsAreKeyedByIpAndBadOnesAreSkipped(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "192.0.2.10 seed-a.test\n192.0.2.11 seed-b.test\n");
        Path seeds = dir.resolve("seeds.txt");
        Files.writeString(seeds, "# seeds\nhttp://seed-a.test/\nftp://not-http.test/\n\nhttp://unresolvable.invalid/\n");

        int code = CrawlerMain.run("seed", "--bootstrap-servers", kafka.bootstrapServers(), "--hosts-file",
                hosts.toString(), "--seeds", seeds.toString(), "https://seed-b.test/x");

        assertThat(code).isZero();
        // grouped like a page's outlinks: one record per partition of the seeds' IPs, keyed by one of them
        boolean samePartition = KeyPartitioner.partition("192.0.2.10", 4) == KeyPartitioner.partition("192.0.2.11", 4);
        List<TopicRecord> records = kafka.awaitRecords(Topics.DISCOVERED, samePartition ? 1 : 2,
                Duration.ofSeconds(30));
        assertThat(records).hasSize(samePartition ? 1 : 2);
        List<DiscoveredUrls.Entry> entries = new java.util.ArrayList<>();
        for (TopicRecord r : records) {
            DiscoveredUrls d = JsonSerde.of(DiscoveredUrls.class).deserialize(r.topic(),
                    r.value().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(d.depth()).isZero();
            assertThat(d.source()).isNull();
            assertThat(d.urls()).extracting(DiscoveredUrls.Entry::ip).contains(r.key());
            assertThat(r.value()).contains("\"depth\":0");
            entries.addAll(d.urls());
        }
        assertThat(entries).containsExactlyInAnyOrder(new DiscoveredUrls.Entry("http://seed-a.test/", "192.0.2.10"),
                new DiscoveredUrls.Entry("https://seed-b.test/x", "192.0.2.11"));
    }

    @Test
    void honoursTheTopicPrefixAndFailsWhenEverySeedIsRejected(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "192.0.2.12 seed-c.test\n");
        assertThat(CrawlerMain.run("seed", "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", "p1.",
                "--hosts-file", hosts.toString(), "--seeds", "http://seed-c.test/")).isZero();
        assertThat(kafka.awaitRecords("p1." + Topics.DISCOVERED, 1, Duration.ofSeconds(30)))
                .extracting(TopicRecord::key).containsExactly("192.0.2.12");

        assertThat(CrawlerMain.run("seed", "--bootstrap-servers", kafka.bootstrapServers(), "--seeds",
                "ftp://only-bad.test/")).isEqualTo(1);
    }
}
