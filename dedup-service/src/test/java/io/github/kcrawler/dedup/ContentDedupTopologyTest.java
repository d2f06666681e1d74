package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.ContentDuplicate;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Content duplicates (issue 7 item 2) through the dedup topology with its real RocksDB stores: identical bodies of
 * URLs on different servers are reported with the number of URLs holding them; a changed or vanished page gives
 * its reference back. (Rebuilding the filter from its stored records is covered by {@code ImpCbFilterPropertyTest}.)
 */
class ContentDedupTopologyTest {
    private final Topics topics = Topics.defaults();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, FetchResult> results;
    private TestOutputTopic<String, ContentDuplicate> duplicates;

    private static final String H1 = hash("<html><body>same  page</body></html>");
    private static final String H2 = hash("<html><body>changed</body></html>");

    private static String hash(String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return Fingerprints.contentHash(b, b.length, true);
    }

    @BeforeEach
    void start() throws IOException {
        stateDir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), "content-");
        open();
    }

    private void open() {
        // One driver per test: TopologyTestDriver wipes its state directory on close.
        DedupConfig config = DedupConfig.of(new KafkaSettings("unused:9092", "", 4, stateDir, Map.of()));
        Properties props = StreamsDefaults.properties(config.kafka(), "dedup", 1, 200);
        driver = new TopologyTestDriver(DedupTopology.build(topics, config, registry), props);
        results = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                JsonSerde.of(FetchResult.class).serializer());
        duplicates = driver.createOutputTopic(topics.contentDuplicates.name(), new StringDeserializer(),
                JsonSerde.of(ContentDuplicate.class).deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private static FetchResult result(String url, int status, String hash) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, status,
                status == 200 ? FetchOutcome.OK : FetchOutcome.HTTP_ERROR, 1L, 0, 1, hash, 10, "text/html", null,
                null, null, 0, null);
    }

    private KeyValue<String, ContentDuplicate> dup(String ip, String url, String hash, int refCount) {
        return KeyValue.pair(ip, ContentDuplicate.of(url, Fingerprints.url(url), hash, refCount));
    }

    @Test
    void identicalBodiesAcrossServers_areReported_andChangedOrVanishedPagesGiveTheirReferenceBack() {
        assertThat(hash(" <html><body>same page</body></html>\r\n")).as("whitespace-normalised").isEqualTo(H1);
        assertThat(hash("<html><body>samepage</body></html>")).isNotEqualTo(H1);
        results.pipeInput("10.0.0.1", result("http://a.test/", 200, H1));
        results.pipeInput("10.0.0.2", result("http://b.test/", 200, H1));
        results.pipeInput("10.0.0.1", result("http://a.test/", 200, H1)); // the same result again: no change
        results.pipeInput("10.0.0.1", result("http://a.test/", 200, H2)); // a changed: H1 now held by b only
        results.pipeInput("10.0.0.3", result("http://c.test/", 200, H1));
        results.pipeInput("10.0.0.2", result("http://b.test/", 404, null)); // b gone: H1 held by c only
        results.pipeInput("10.0.0.4", result("http://d.test/", 200, H1));
        results.pipeInput("10.0.0.4", result("http://e.test/", 200, "not-a-hash"));

        assertThat(duplicates.readKeyValuesToList()).containsExactly(
                dup("10.0.0.2", "http://b.test/", H1, 2),
                dup("10.0.0.3", "http://c.test/", H1, 2),
                dup("10.0.0.4", "http://d.test/", H1, 2));
        assertThat(registry.get(MetricNames.DEDUP_CONTENT_DUPLICATES).counter().count()).isEqualTo(3);
        assertThat(registry.get(MetricNames.DEDUP_CONTENT_REFS).tag("op", "add").counter().count()).isEqualTo(5);
        assertThat(registry.get(MetricNames.DEDUP_CONTENT_REFS).tag("op", "remove").counter().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.DEDUP_CONTENT_DB_READS_AVOIDED).counter().count())
                .as("first sight of H1 and of H2 needed no DB read").isGreaterThanOrEqualTo(2);
        assertThat(registry.get(MetricNames.BAD_RECORDS).tag("topic", topics.fetchResults.name())
                .tag("reason", "malformed").counter().count()).isEqualTo(1);

        // a (the only holder of H2) vanishes with a 410: the next holder of H2 is new, the one after a duplicate.
        results.pipeInput("10.0.0.1", result("http://a.test/", 410, null));
        results.pipeInput("10.0.0.5", result("http://f.test/", 200, H2));
        results.pipeInput("10.0.0.6", result("http://g.test/", 200, H2));
        assertThat(duplicates.readKeyValuesToList()).containsExactly(
                dup("10.0.0.6", "http://g.test/", H2, 2));
    }
}
