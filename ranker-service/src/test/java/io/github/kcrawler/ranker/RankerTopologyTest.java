package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.streams.JournalFormat;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The ranker topology ({@code ranking=ipr-dl1}) on Kafka's TopologyTestDriver with the real Streams settings and
 * stores: what it does with unusable input on either of its topics. (The scores themselves are checked against the
 * single-process model in {@code IprTopologyTest}.) The driver feeds records written to {@code crawl.rank.deltas}
 * back into the topology's source for that topic, as the broker would. With 4 partitions, hosts 10.0.0.1, 10.0.0.2 and 10.0.0.8 hash to partition 2 and 10.0.0.3 to partition 0
 * (asserted below with Kafka's partitioner).
 */
class RankerTopologyTest {
    private static final String PREFIX = "r.";
    private static final String IP_S = "10.0.0.1";
    private static final String IP_A = "10.0.0.2";
    private static final String IP_B = "10.0.0.3";
    private static final String IP_C = "10.0.0.8";

    private final Topics topics = Topics.withPrefix(PREFIX);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private TopologyTestDriver driver;
    private TestInputTopic<String, LinkList> links;
    private TestInputTopic<String, String> linksRaw;
    private TestInputTopic<String, FetchResult> results;
    private TestInputTopic<String, String> resultsRaw;
    private TestInputTopic<String, RankDeltaBatch> deltasIn;
    private TestInputTopic<String, String> deltasRaw;
    private TestOutputTopic<String, RankDeltaBatch> deltas;
    private TestOutputTopic<String, RankScoreBatch> scores;

    private void start(long flushMs) {
        start(RankerConfig.of(new KafkaSettings("unused:9092", PREFIX, 4, newStateDir(), Map.of()))
                .withFlushMs(flushMs).withRanking(RankerConfig.Ranking.IPR_DL1));
    }

    private static Path newStateDir() {
        try {
            return Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), "ranker-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void start(RankerConfig config) {
        driver = new TopologyTestDriver(RankerTopology.build(topics, config, registry),
                StreamsDefaults.properties(config.kafka(), RankerService.APPLICATION_ID, 1, config.commitMs()));
        links = driver.createInputTopic(topics.links.name(), new StringSerializer(), JsonSerde.of(LinkList.class));
        linksRaw = driver.createInputTopic(topics.links.name(), new StringSerializer(), new StringSerializer());
        results = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                JsonSerde.of(FetchResult.class));
        resultsRaw = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                new StringSerializer());
        deltasIn = driver.createInputTopic(topics.rankDeltas.name(), new StringSerializer(),
                JsonSerde.of(RankDeltaBatch.class));
        deltasRaw = driver.createInputTopic(topics.rankDeltas.name(), new StringSerializer(), new StringSerializer());
        deltas = driver.createOutputTopic(topics.rankDeltas.name(), new StringDeserializer(),
                JsonSerde.of(RankDeltaBatch.class));
        scores = driver.createOutputTopic(topics.rankScores.name(), new StringDeserializer(),
                JsonSerde.of(RankScoreBatch.class));
    }

    @AfterEach
    void tearDown() {
        if (driver != null) {
            driver.close();
        }
    }

    private static LinkList.Link link(String url, String ip) {
        return new LinkList.Link(url, Fingerprints.url(url), ip);
    }

    private static LinkList page(String source, LinkList.Link... outlinks) {
        return new LinkList(LinkList.VERSION, source, Fingerprints.url(source), Arrays.asList(outlinks));
    }

    /** The fetcher's result for {@code page}: an HTML page carrying {@code graph} (null: not parsed, no graph). */
    private static FetchResult result(LinkList graph, int version) {
        FetchResult r = new FetchResult(version, graph.source(), graph.sourceFingerprint(), 0, 1, FetchKind.NEW, 200,
                FetchOutcome.OK, 1, 0, 1, null, 100, "text/html", null, null, null, graph.outlinks().size(), null,
                null);
        return r.withLinks(graph.outlinks());
    }

    private static RankScore score(String url, String ip, double score) {
        return RankScore.of(url, Fingerprints.url(url), ip, score);
    }

    private double bad(String topic, String reason) {
        return registry.get(MetricNames.BAD_RECORDS).tag("topic", topic).tag("reason", reason).counter().count();
    }

    /** All score entries written so far, in order. */
    private List<RankScore> scoreEntries() {
        return scores.readValuesToList().stream().flatMap(b -> b.scores().stream()).toList();
    }

    /** The service's {@code journal-snapshot-*} settings reach the page store's journal. */
    @Test
    void journalSnapshotSettings_reachThePageStore() {
        start(RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(), "--bootstrap-servers", "unused:9092",
                "--topic-prefix", PREFIX, "--state-dir", newStateDir().toString(), "--flush-ms", "0",
                "--journal-snapshot-min-ops", "0", "--journal-snapshot-factor", "0.1")));
        TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(PREFIX + RankerService.APPLICATION_ID + "-"
                + RankerTopology.PAGE_STORE + "-changelog", new BytesDeserializer(), new ByteArrayDeserializer());
        links.pipeInput(IP_S, page("http://s/", link("http://a/", IP_A)));
        links.pipeInput(IP_S, page("http://t/", link("http://b/", IP_A)));
        assertThat(log.readValuesToList()).as("every commit that changed the store snapshots (factor 0.1, no "
                + "minimum); the default thresholds would take none here")
                .filteredOn(v -> v != null && v[0] == JournalFormat.VERSION_CHUNK).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void theTestsHosts_hashAsDocumented() {
        assertThat(List.of(IP_S, IP_A, IP_B, IP_C)).extracting(ip -> KeyPartitioner.partition(ip, 4))
                .containsExactly(2, 2, 0, 2);
    }

    @Test
    void badLinkLists_areSkippedAndCounted() {
        start(0);
        String t = topics.links.name();
        linksRaw.pipeInput(IP_S, "{oops");
        linksRaw.pipeInput(IP_S, "{\"v\":1,\"source\":\"http://s/\",\"sourceFingerprint\":1,\"outlinks\":null}");
        linksRaw.pipeInput(IP_S, (String) null);
        links.pipeInput((String) null, page("http://s/", link("http://a/", IP_A)));
        links.pipeInput(IP_S, new LinkList(LinkList.VERSION, "http://s/", 12345L, List.of(link("http://a/", IP_A))));
        links.pipeInput(IP_S, new LinkList(LinkList.VERSION + 1, "http://s/", Fingerprints.url("http://s/"), List.of()));
        links.pipeInput(IP_S, new LinkList(LinkList.VERSION, " ", Fingerprints.url(" "), List.of()));

        assertThat(deltas.isEmpty()).isTrue();
        assertThat(bad(t, "malformed")).isEqualTo(2);
        assertThat(bad(t, "null-value")).isEqualTo(1);
        assertThat(bad(t, "missing-key")).isEqualTo(1);
        assertThat(bad(t, "fingerprint-mismatch")).isEqualTo(1);
        assertThat(bad(t, "unsupported-version")).isEqualTo(1);
        assertThat(bad(t, "blank-url")).isEqualTo(1);
    }

    @Test
    void invalidOutlinks_areCounted_andTheRestOfTheListIsUsed() {
        start(0);
        links.pipeInput(IP_S, page("http://s/", new LinkList.Link("http://x/", 99L, IP_A), link("http://y/", " "),
                new LinkList.Link(null, 0L, IP_A), link("http://a/", IP_A)));

        assertThat(deltas.readValuesToList()).as("the driver's task is partition 0, a's is 2: a delta record")
                .flatExtracting(RankDeltaBatch::deltas).extracting(RankDelta::url, RankDelta::amount)
                .containsExactly(tuple("http://a/", 1.0));
        assertThat(scoreEntries()).as("the one valid outlink gets the whole share").containsExactly(
                score("http://a/", IP_A, 1.0));
        assertThat(bad(topics.links.name(), "invalid-outlink")).isEqualTo(3);
    }

    @Test
    void badDeltas_areSkippedAndCounted_theRestOfTheirBatchIsUsed() {
        start(0);
        String t = topics.rankDeltas.name();
        long fp = Fingerprints.url("http://a/");
        deltasIn.pipeInput(IP_A, RankDeltaBatch.of(List.of(RankDelta.of("http://a/", fp, IP_A, Double.NaN),
                RankDelta.of("http://a/", fp + 1, IP_A, 1.0), RankDelta.of("", fp, IP_A, 1.0),
                RankDelta.of("http://a/", fp, "", 1.0), RankDelta.of("http://a/", fp, IP_A, 1.0))));
        deltasIn.pipeInput((String) null, RankDeltaBatch.of(List.of(RankDelta.of("http://a/", fp, IP_A, 1.0))));
        deltasRaw.pipeInput(IP_A, "{\"v\":2,\"url\":\"http://a/\",\"fingerprint\":" + fp + ",\"amount\":1.0}");
        deltasRaw.pipeInput(IP_A, "{\"v\":3,\"deltas\":null}");
        deltasRaw.pipeInput(IP_A, "{\"v\":3,\"deltas\":[null]}");

        assertThat(scoreEntries()).containsExactly(score("http://a/", IP_A, 1.0));
        assertThat(bad(t, "invalid-amount")).isEqualTo(1);
        assertThat(bad(t, "fingerprint-mismatch")).isEqualTo(1);
        assertThat(bad(t, "blank-url")).isEqualTo(1);
        assertThat(bad(t, "missing-key")).as("an entry without IP, a record without key").isEqualTo(2);
        assertThat(bad(t, "unsupported-version")).as("the old one-delta-per-record format").isEqualTo(1);
        assertThat(bad(t, "malformed")).isEqualTo(2);
    }

    /**
     * Issue 19: the fetcher no longer writes crawl.links; an HTML page's result carries its graph. A result ranks its
     * page exactly as the LinkList of the same page did, a result without a graph (not HTML, an error) changes
     * nothing, and a LinkList from an older fetcher is still ranked.
     */
    @Test
    void aResultCarryingTheGraph_ranksLikeTheLinkList_oneWithoutAGraphChangesNothing() {
        start(0);
        LinkList graph = page("http://s/", link("http://a/", IP_A), link("http://b/", IP_B), link("http://a/", IP_A));
        results.pipeInput(IP_S, result(graph, FetchResult.VERSION));
        List<RankDeltaBatch> viaResult = deltas.readValuesToList();
        List<RankScore> scoresViaResult = scoreEntries();
        results.pipeInput(IP_C, new FetchResult(FetchResult.VERSION, "http://c/", Fingerprints.url("http://c/"), 0, 1,
                FetchKind.NEW, 404, FetchOutcome.HTTP_ERROR, 1, 0, 1, null, 0, "text/html", null, null, null, 0,
                "HTTP 404", null));
        assertThat(deltas.isEmpty()).as("no graph, nothing sent").isTrue();
        assertThat(scores.isEmpty()).isTrue();
        links.pipeInput(IP_C, page("http://c/", link("http://b/", IP_B)));

        assertThat(viaResult).flatExtracting(RankDeltaBatch::deltas).extracting(RankDelta::url, RankDelta::amount)
                .as("one receipt per distinct target; the driver's task is partition 0 (b, in place), a's is 2")
                .containsExactly(tuple("http://a/", 0.5));
        assertThat(scoresViaResult).containsExactlyInAnyOrder(score("http://a/", IP_A, 0.5),
                score("http://b/", IP_B, 0.5));
        assertThat(scoreEntries()).as("an older fetcher's LinkList is ranked too").containsExactly(
                score("http://b/", IP_B, 1.5));
        assertThat(registry.get(MetricNames.BAD_RECORDS).counters()).allSatisfy(c ->
                assertThat(c.count()).isZero());
    }

    @Test
    void badResults_areSkippedAndCounted_aNullOutlinkIsCountedAndTheRestUsed() {
        start(0);
        String t = topics.fetchResults.name();
        resultsRaw.pipeInput(IP_S, "{oops");
        resultsRaw.pipeInput(IP_S, (String) null);
        results.pipeInput(IP_S, result(page("http://s/", link("http://a/", IP_A)), FetchResult.VERSION + 1));
        results.pipeInput(IP_S, result(new LinkList(LinkList.VERSION, "http://s/", 12345L,
                List.of(link("http://a/", IP_A))), FetchResult.VERSION));
        assertThat(deltas.isEmpty()).isTrue();
        assertThat(scores.isEmpty()).isTrue();

        long fp = Fingerprints.url("http://s/");
        resultsRaw.pipeInput(IP_S, "{\"v\":1,\"url\":\"http://s/\",\"fingerprint\":" + fp + ",\"outcome\":\"OK\","
                + "\"status\":200,\"links\":[null,{\"url\":\"http://a/\",\"fingerprint\":"
                + Fingerprints.url("http://a/") + ",\"ip\":\"" + IP_A + "\"}]}");

        assertThat(scoreEntries()).as("the valid outlink gets the whole share").containsExactly(
                score("http://a/", IP_A, 1.0));
        assertThat(bad(t, "malformed")).isEqualTo(1);
        assertThat(bad(t, "null-value")).isEqualTo(1);
        assertThat(bad(t, "unsupported-version")).isEqualTo(1);
        assertThat(bad(t, "fingerprint-mismatch")).isEqualTo(1);
        assertThat(bad(t, "invalid-outlink")).isEqualTo(1);
    }
}
