package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.ContentDuplicate;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.testing.PropertyCheck;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Content duplicates (issue 7 item 2) through the dedup topology with its real RocksDB stores: identical bodies of
 * URLs on different servers are reported with the number of URLs holding them; a changed or vanished page gives
 * back the reference to the body its revisit memo names. (Rebuilding the filter from its stored records is covered
 * by {@code ImpCbFilterPropertyTest}.)
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

    /** A first fetch: the URL held no body before. */
    private static FetchResult result(String url, int status, String hash) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, status,
                status == 200 ? FetchOutcome.OK : FetchOutcome.HTTP_ERROR, 1L, 0, 1, hash, 10, "text/html", null,
                null, null, 0, null);
    }

    /** A revisit whose memo (the scheduler's revisit state, echoed by the fetcher) names {@code held}. */
    private static FetchResult revisit(String url, int status, String hash, String held) {
        RevisitMemo memo = new RevisitMemo(RevisitMemo.VERSION, null, null, held, 0, 0, 0, 60, 1L, 1L, 0,
                ChangeIntervals.EMPTY);
        FetchOutcome outcome = status == 200 ? FetchOutcome.OK
                : status == 304 ? FetchOutcome.NOT_MODIFIED : status == 0 ? FetchOutcome.TIMEOUT
                : FetchOutcome.HTTP_ERROR;
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.REVISIT, status,
                outcome, 1L, 0, 1, hash, 10, "text/html", null, null, null, 0, null, memo);
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
        results.pipeInput("10.0.0.1", revisit("http://a.test/", 200, H1, H1)); // the same body again: no change
        results.pipeInput("10.0.0.1", revisit("http://a.test/", 304, null, H1)); // not modified: no change
        results.pipeInput("10.0.0.1", revisit("http://a.test/", 200, H2, H1)); // a changed: H1 now held by b only
        results.pipeInput("10.0.0.3", result("http://c.test/", 200, H1));
        results.pipeInput("10.0.0.2", revisit("http://b.test/", 404, null, H1)); // b gone: H1 held by c only
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
        results.pipeInput("10.0.0.1", revisit("http://a.test/", 410, null, H2));
        results.pipeInput("10.0.0.5", result("http://f.test/", 200, H2));
        results.pipeInput("10.0.0.6", result("http://g.test/", 200, H2));
        assertThat(duplicates.readKeyValuesToList()).containsExactly(
                dup("10.0.0.6", "http://g.test/", H2, 2));

        // d's revisit brings a hash that is none: its revisit state now names that, so d holds H1 no more
        results.pipeInput("10.0.0.4", revisit("http://d.test/", 200, "not-a-hash", H1));
        results.pipeInput("10.0.0.7", result("http://h.test/", 200, H1));
        assertThat(duplicates.readKeyValuesToList()).containsExactly(dup("10.0.0.7", "http://h.test/", H1, 2));
    }

    /**
     * Fetch histories against an exact model: each URL holds the body of its last 2xx fetch until a 404/410 ends it;
     * its revisits carry that body's hash in their memo, as the scheduler's revisit state keeps it (a 304, an error
     * or a timeout keeps the body held; a malformed hash replaces it, but holds nothing). Every ADD that finds the
     * body held by others must be reported with the number of URLs holding it, by the model's count, and no other.
     */
    @Test
    void histories_reportExactlyTheModelsDuplicates() {
        // a fetcher's hash that is none: counted as malformed, yet the revisit state names it from then on
        String[] bodies = {H1, H2, hash("<p>three</p>"), hash("<p>four</p>"), "not-a-hash"};
        PropertyCheck.forAll(25, gen -> {
            driver.close();
            stateDir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), "content-");
            open();
            int urls = gen.intIn(2, 8);
            Map<Integer, String> held = new HashMap<>(); // URL index -> body held
            Set<Integer> fetched = new HashSet<>();
            Set<Integer> gone = new HashSet<>();
            List<KeyValue<String, ContentDuplicate>> expected = new ArrayList<>();
            int steps = gen.intIn(1, 80);
            for (int i = 0; i < steps; i++) {
                int u = gen.intIn(0, urls - 1);
                if (gone.contains(u)) {
                    continue; // no revisit state any more: never fetched again
                }
                String url = "http://h" + u + ".test/p";
                String ip = "10.0.1." + u;
                int status = gen.of(200, 200, 200, 304, 404, 410, 500, 0);
                String body = status == 200 ? gen.of(bodies) : null;
                boolean first = fetched.add(u);
                if (first && status == 304) {
                    status = 200;
                    body = gen.of(bodies);
                }
                results.pipeInput(ip, first ? result(url, status, body) : revisit(url, status, body, held.get(u)));
                String before = held.get(u);
                if (status == 200 && !body.equals(before)) {
                    held.put(u, body);
                    long refs = held.values().stream().filter(body::equals).count();
                    if (refs >= 2 && !body.equals("not-a-hash")) {
                        expected.add(dup(ip, url, body, (int) refs));
                    }
                } else if (status == 404 || status == 410) {
                    held.remove(u);
                    gone.add(u);
                } else if (first) {
                    fetched.remove(u); // a first fetch without a body leaves no revisit state: the next is first
                }
            }
            assertThat(duplicates.readKeyValuesToList()).isEqualTo(expected);
        });
    }
}
