package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;

import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.common.streams.JournalFormat;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.assertj.core.groups.Tuple;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The dedup topology on Kafka's TopologyTestDriver, with the real Streams settings and a real RocksDB store. */
class DedupTopologyTest {
    private static final String PREFIX = "t1.";
    private static final String IP_A = "10.0.0.1";
    private static final String IP_B = "10.0.0.2";

    private final Topics topics = Topics.withPrefix(PREFIX);
    private SimpleMeterRegistry registry;
    private TopologyTestDriver driver;
    private TestInputTopic<String, DiscoveredUrls> discovered;
    private TestInputTopic<String, String> discoveredRaw;
    private TestInputTopic<String, ForgetUrl> forget;
    private TestInputTopic<String, String> forgetRaw;
    private TestOutputTopic<String, AdmittedUrls> admitted;
    private TestInputTopic<String, FetchResult> results;
    private TestInputTopic<String, String> resultsRaw;

    /** One admitted entry with the key and depth of its record. */
    private record Admitted(String key, String url, String ip, int depth, long fingerprint) {
    }

    @BeforeEach
    void setUp() {
        open(DedupTestSupport.config("unused:9092", PREFIX, DedupTestSupport.newStateDir()));
    }

    private void open(DedupConfig config) {
        if (driver != null) {
            driver.close();
        }
        registry = new SimpleMeterRegistry();
        driver = new TopologyTestDriver(DedupTopology.build(topics, config, registry),
                StreamsDefaults.properties(config.kafka(), DedupService.APPLICATION_ID, 1, config.commitMs()));
        discovered = driver.createInputTopic(topics.discovered.name(), new StringSerializer(),
                JsonSerde.of(DiscoveredUrls.class));
        discoveredRaw = driver.createInputTopic(topics.discovered.name(), new StringSerializer(), new StringSerializer());
        forget = driver.createInputTopic(topics.forget.name(), new StringSerializer(), JsonSerde.of(ForgetUrl.class));
        forgetRaw = driver.createInputTopic(topics.forget.name(), new StringSerializer(), new StringSerializer());
        admitted = driver.createOutputTopic(topics.admitted.name(), new StringDeserializer(),
                JsonSerde.of(AdmittedUrls.class));
        results = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                JsonSerde.of(FetchResult.class));
        resultsRaw = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                new StringSerializer());
    }

    /** A fetched HTML page at {@code depth}, its graph standing for its partition's URLs by {@code partitions}. */
    private static FetchResult page(String url, int depth, int partitions, LinkList.Link... links) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), depth, 1L, FetchKind.NEW, 200,
                FetchOutcome.OK, 5L, 0L, 1L, null, 10L, "text/html", null, null, null, links.length, null, null)
                .withLinks(Arrays.asList(links), partitions);
    }

    private static LinkList.Link link(String url, String ip) {
        return new LinkList.Link(url, Fingerprints.url(url), ip);
    }

    /** The admitted entries written so far, flattened in order. */
    private List<Admitted> admittedUrls() {
        List<Admitted> out = new ArrayList<>();
        for (KeyValue<String, AdmittedUrls> kv : admitted.readKeyValuesToList()) {
            for (AdmittedUrls.Entry e : kv.value.urls()) {
                out.add(new Admitted(kv.key, e.url(), e.ip(), kv.value.depth(), e.fingerprint()));
            }
        }
        return out;
    }

    private static DiscoveredUrls.Entry entry(String url, String ip) {
        return new DiscoveredUrls.Entry(url, ip);
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    /** One URL alone, its entry without an IP (the record key stands in, as in a format-1 record). */
    private static DiscoveredUrls url(String url, int depth) {
        return DiscoveredUrls.of(null, depth, 1_000L, List.of(entry(url, null)));
    }

    private double count(String name) {
        return registry.counter(name).count();
    }

    private double bad(String topic, String reason) {
        return registry.get(MetricNames.BAD_RECORDS).tag("topic", topic).tag("reason", reason).counter().count();
    }

    @Test
    void newUrl_isAdmittedOnce_withFingerprintDepthAndSameKey() {
        discovered.pipeInput(IP_A, url("http://a.example/", 2));

        List<KeyValue<String, AdmittedUrls>> out = admitted.readKeyValuesToList();
        assertThat(out).containsExactly(KeyValue.pair(IP_A, AdmittedUrls.of(2, List.of(new AdmittedUrls.Entry(
                "http://a.example/", IP_A, Fingerprints.url("http://a.example/"))))));
        assertThat(out.get(0).value.v()).isEqualTo(AdmittedUrls.VERSION);
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_NEW)).isEqualTo(1);
    }

    @Test
    void tiers_duplicateIsAnsweredByTheLru_newUrlGoesToTheStore() {
        discovered.pipeInput(IP_A, url("http://a.example/t", 1));
        discovered.pipeInput(IP_A, url("http://a.example/t", 1));

        assertThat(admittedUrls()).hasSize(1);
        assertThat(registry.get(MetricNames.DEDUP_LRU_HITS).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.DEDUP_SBFL_POSITIVES).functionCounter().count()).isZero();
        assertThat(registry.get(MetricNames.DEDUP_STORAGE_LOOKUPS).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.DEDUP_STORAGE_HITS).functionCounter().count()).isZero();
    }

    @Test
    void duplicate_isSuppressed_evenAtAnotherDepthOrSource() {
        discovered.pipeInput(IP_A, url("http://a.example/x", 1));
        discovered.pipeInput(IP_A, url("http://a.example/x", 1));
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://other/", 5, 2_000L,
                List.of(entry("http://a.example/x", IP_A))));

        assertThat(admittedUrls()).extracting(Admitted::url).containsExactly("http://a.example/x");
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(3);
        assertThat(count(MetricNames.DEDUP_NEW)).isEqualTo(1);
    }

    @Test
    void forgottenUrl_isAdmittedAgainWhenRediscovered() {
        String u = "http://a.example/page";
        discovered.pipeInput(IP_A, url(u, 0));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), u, "dropped"));
        discovered.pipeInput(IP_A, url(u, 3));
        discovered.pipeInput(IP_A, url(u, 3));

        assertThat(admittedUrls()).extracting(Admitted::url, Admitted::depth)
                .containsExactly(Tuple.tuple(u, 0), Tuple.tuple(u, 3));
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isEqualTo(1);
    }

    @Test
    void forgetByFingerprintOnly_isAccepted_andForgettingUnknownUrlIsHarmless() {
        String u = "http://a.example/q";
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url("http://never.seen/"), null, "dropped"));
        discovered.pipeInput(IP_A, url(u, 0));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), null, "dropped"));
        discovered.pipeInput(IP_A, url(u, 0));

        assertThat(admittedUrls()).hasSize(2);
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isEqualTo(2);
    }

    @Test
    void forgetWhoseUrlDoesNotMatchItsFingerprint_isSkippedAndCounted() {
        String u = "http://a.example/keep";
        discovered.pipeInput(IP_A, url(u, 0));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), "http://a.example/other", "dropped"));
        discovered.pipeInput(IP_A, url(u, 0));

        assertThat(admittedUrls()).hasSize(1);
        assertThat(bad(topics.forget.name(), "fingerprint-mismatch")).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isZero();
    }

    @Test
    void keysArePreserved_perHostIp() {
        discovered.pipeInput(IP_A, url("http://a.example/1", 0));
        discovered.pipeInput(IP_B, url("http://b.example/1", 0));
        discovered.pipeInput(IP_B, url("http://b.example/2", 1));

        assertThat(admittedUrls()).extracting(a -> a.key() + " " + a.url())
                .containsExactly(IP_A + " http://a.example/1", IP_B + " http://b.example/1",
                        IP_B + " http://b.example/2");
    }

    @Test
    void badJson_isSkippedAndCounted_andProcessingContinues() {
        discoveredRaw.pipeInput(IP_A, "{not json");
        discoveredRaw.pipeInput(IP_A, "[1,2,3]");
        forgetRaw.pipeInput(IP_A, "\u0000\u0001garbage");
        discovered.pipeInput(IP_A, url("http://a.example/after", 0));

        assertThat(admittedUrls()).extracting(Admitted::url).containsExactly("http://a.example/after");
        assertThat(bad(topics.discovered.name(), "malformed")).isEqualTo(2);
        assertThat(bad(topics.forget.name(), "malformed")).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(1);
    }

    @Test
    void invalidRecords_areSkippedWithTheirReason() {
        discovered.pipeInput(IP_A, url("  ", 0));
        discovered.pipeInput(IP_A, new DiscoveredUrls(1, null, 0, 0, List.of(entry(null, null))));
        discovered.pipeInput(IP_A, url("http://a.example/neg", -1));
        discovered.pipeInput(IP_A, new DiscoveredUrls(DiscoveredUrls.VERSION + 1, null, 0, 0,
                List.of(entry("http://a.example/v3", IP_A))));
        discoveredRaw.pipeInput(IP_A, "{\"url\":\"http://a.example/nov\",\"depth\":0}");
        discovered.pipeInput((String) null, url("http://a.example/nokey", 0));
        discoveredRaw.pipeInput(IP_A, (String) null);

        assertThat(admitted.isEmpty()).isTrue();
        String t = topics.discovered.name();
        assertThat(bad(t, "blank-url")).isEqualTo(2);
        assertThat(bad(t, "negative-depth")).isEqualTo(1);
        assertThat(bad(t, "unsupported-version")).isEqualTo(2);
        assertThat(bad(t, "missing-key")).isEqualTo(1);
        assertThat(bad(t, "null-value")).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_TESTS)).isZero();
    }

    /**
     * Issue 19: a record holds one page's URLs for this partition, several IPs among them. Each entry is tested in
     * order exactly as a lone URL; the new ones go out as one admitted record keyed by the first one's IP, each entry
     * with its own IP; unusable entries are counted and the rest of the record is used.
     */
    @Test
    void batch_eachEntryIsTestedInOrder_andTheNewOnesGoOutAsOneRecordWithTheirIps() {
        discovered.pipeInput(IP_A, url("http://a.example/known", 0));
        admitted.readKeyValuesToList();
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://src.example/", 3, 5L, List.of(
                entry("http://a.example/known", IP_A), // seen before: not admitted
                entry("http://b.example/1", IP_B),
                entry("http://a.example/1", IP_A),
                entry(" ", IP_A), // blank: counted, skipped
                entry("http://b.example/1", IP_B), // twice in one record: admitted once
                entry("http://b.example/2", "x".repeat(100)), // no usable IP: counted, skipped
                entry("http://b.example/3", null)))); // no IP: the record key's

        List<KeyValue<String, AdmittedUrls>> out = admitted.readKeyValuesToList();
        assertThat(out).singleElement().satisfies(kv -> {
            assertThat(kv.key).isEqualTo(IP_B);
            assertThat(kv.value.depth()).isEqualTo(3);
            assertThat(kv.value.urls()).extracting(AdmittedUrls.Entry::url, AdmittedUrls.Entry::ip,
                    AdmittedUrls.Entry::fingerprint).containsExactly(
                    Tuple.tuple("http://b.example/1", IP_B, Fingerprints.url("http://b.example/1")),
                    Tuple.tuple("http://a.example/1", IP_A, Fingerprints.url("http://a.example/1")),
                    Tuple.tuple("http://b.example/3", IP_A, Fingerprints.url("http://b.example/3")));
        });
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(1 + 5);
        assertThat(count(MetricNames.DEDUP_NEW)).isEqualTo(1 + 3);
        assertThat(bad(topics.discovered.name(), "blank-url")).isEqualTo(1);
        assertThat(bad(topics.discovered.name(), "missing-key")).isEqualTo(1);
        assertThat(registry.get(MetricNames.DEDUP_LRU_HITS).functionCounter().count()).isEqualTo(2);
    }

    @Test
    void batch_allSeen_writesNothing_andAnEmptyRecordIsMalformed() {
        discovered.pipeInput(IP_A, DiscoveredUrls.of(null, 0, 1L, List.of(entry("http://a.example/s", IP_A))));
        admitted.readKeyValuesToList();
        discovered.pipeInput(IP_A, DiscoveredUrls.of(null, 0, 1L, List.of(entry("http://a.example/s", IP_A))));
        discovered.pipeInput(IP_A, DiscoveredUrls.of(null, 0, 1L, List.of()));
        assertThat(admitted.isEmpty()).isTrue();
        assertThat(bad(topics.discovered.name(), "malformed")).isEqualTo(1);
    }

    /**
     * An entry whose IP is not on its record key's partition (a producer grouped it wrongly) is not tested by this
     * task, which does not own it: it goes back to discovered alone under its own IP, Kafka's partitioner delivers
     * it to its owner, and there it is tested once.
     */
    @Test
    void entryOnAnotherPartition_isSentBackUnderItsOwnIp_andTestedByItsOwner() {
        String ipC = "10.0.0.3"; // partition 0 of 4; IP_A is on partition 2
        assertThat(KeyPartitioner.partition(ipC, 4)).isNotEqualTo(KeyPartitioner.partition(IP_A, 4));
        TestOutputTopic<String, DiscoveredUrls> back = driver.createOutputTopic(topics.discovered.name(),
                new StringDeserializer(), JsonSerde.of(DiscoveredUrls.class));
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://src/", 2, 9L, List.of(entry("http://a.example/r", IP_A),
                entry("http://c.example/r", ipC))));

        assertThat(back.readKeyValuesToList()).containsExactly(KeyValue.pair(ipC,
                DiscoveredUrls.of("http://src/", 2, 9L, List.of(entry("http://c.example/r", ipC)))));
        assertThat(registry.counter(MetricNames.DEDUP_REROUTED).count()).isEqualTo(1);
        // the test driver feeds the rerouted record back in, as the owning task would read it
        assertThat(admittedUrls()).extracting(a -> a.key() + " " + a.url() + " " + a.ip() + " " + a.depth())
                .containsExactly(IP_A + " http://a.example/r " + IP_A + " 2", ipC + " http://c.example/r " + ipC + " 2");
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(2);
    }

    /** Above batch-max-urls the admitted URLs of one input record are cut into several records, none lost. */
    @Test
    void batch_admittedUrlsAreCutAtTheConfiguredLimit() {
        DedupConfig base = DedupTestSupport.config("unused:9092", PREFIX, DedupTestSupport.newStateDir());
        open(new DedupConfig(base.kafka(), base.threads(), base.commitMs(), base.metricsHost(), base.metricsPort(),
                base.urlSeen(), base.contentExpectedItems(), new UrlBatches.Limits(4, UrlBatches.Limits.MIN_BYTES)));
        List<DiscoveredUrls.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            entries.add(entry("http://a.example/" + i, i % 2 == 0 ? IP_A : IP_B));
        }
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://src/", 1, 1L, entries));
        List<KeyValue<String, AdmittedUrls>> out = admitted.readKeyValuesToList();
        assertThat(out).extracting(kv -> kv.value.urls().size()).containsExactly(4, 4, 2);
        assertThat(out).allSatisfy(kv -> assertThat(kv.key).isEqualTo(kv.value.urls().get(0).ip()));
        assertThat(out.stream().flatMap(kv -> kv.value.urls().stream()).map(AdmittedUrls.Entry::url))
                .containsExactlyElementsOf(entries.stream().map(DiscoveredUrls.Entry::url).toList());
    }

    /** A discovered record of format 1 (one URL, keyed by its IP), as written before issue 19, is still tested. */
    @Test
    void formatOneRecord_isAdmittedWithTheKeyAsItsIp() {
        discoveredRaw.pipeInput(IP_B, "{\"v\":1,\"url\":\"http://b.example/old\",\"depth\":2,\"source\":null,"
                + "\"discoveredAt\":5}");
        assertThat(admittedUrls()).containsExactly(new Admitted(IP_B, "http://b.example/old", IP_B, 2,
                Fingerprints.url("http://b.example/old")));
    }

    /**
     * The url-seen changelog gets one journal record per commit that changed the set (the driver commits after each
     * input record), holding a put per admission and a delete per forget of a present fingerprint: nothing for a
     * duplicate, nothing for forgetting a fingerprint the store does not hold.
     */
    @Test
    void changelog_isWrittenOnlyWhenTheSetChanges() {
        String changelog = PREFIX + DedupService.APPLICATION_ID + "-" + DedupTopology.SEEN_STORE + "-changelog";
        TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(changelog, new BytesDeserializer(),
                new ByteArrayDeserializer());
        log.readKeyValuesToList(); // whatever the task wrote at start (the snapshot tag)
        String u = "http://a.example/c";
        discovered.pipeInput(IP_A, DiscoveredUrls.of(null, 0, 1L, List.of(entry(u, IP_A), entry(u, IP_A),
                entry("http://a.example/d", IP_A))));
        discovered.pipeInput(IP_A, url(u, 0));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url("http://never.seen/"), null, "dropped"));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), u, "dropped"));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), u, "dropped"));

        List<KeyValue<Bytes, byte[]>> written = log.readKeyValuesToList();
        assertThat(written).hasSize(2); // the discovered record's two admissions, then the first forget
        assertThat(JournalFormat.changes(written.stream().map(kv -> KeyValue.pair(kv.key.get(), kv.value)).toList()))
                .extracting(kv -> kv.value == null ? "delete " + kv.key : "put " + kv.key)
                .containsExactly("put " + fingerprintKey(Fingerprints.url(u)),
                        "put " + fingerprintKey(Fingerprints.url("http://a.example/d")),
                        "delete " + fingerprintKey(Fingerprints.url(u)));
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isEqualTo(3);
    }

    /** The service's {@code journal-snapshot-*} settings reach the URL-seen set's journal. */
    @Test
    void journalSnapshotSettings_reachTheUrlSeenStore() {
        open(DedupConfig.from(Settings.parse(DedupConfig.KEYS, Map.of(), "--bootstrap-servers", "unused:9092",
                "--topic-prefix", PREFIX, "--state-dir", DedupTestSupport.newStateDir().toString(),
                "--journal-snapshot-min-ops", "0", "--journal-snapshot-factor", "0.1")));
        String changelog = PREFIX + DedupService.APPLICATION_ID + "-" + DedupTopology.SEEN_STORE + "-changelog";
        TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(changelog, new BytesDeserializer(),
                new ByteArrayDeserializer());
        discovered.pipeInput(IP_A, url("http://a.example/s1", 0));
        discovered.pipeInput(IP_A, url("http://a.example/s2", 0));
        assertThat(log.readKeyValuesToList()).as("every commit snapshots with factor 0.1 and no minimum")
                .filteredOn(kv -> kv.value != null && kv.value[0] == JournalFormat.VERSION_CHUNK).hasSize(2);
    }

    private static Bytes fingerprintKey(long fingerprint) {
        return Bytes.wrap(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(fingerprint).array());
    }

    @Test
    void badRecordCounters_areRegisteredUpFront() {
        assertThat(bad(topics.discovered.name(), "malformed")).isZero();
        assertThat(bad(topics.forget.name(), "missing-key")).isZero();
    }

    @Test
    void seenFingerprints_areInTheDurableStore() {
        discovered.pipeInput(IP_A, url("http://a.example/stored", 0));
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(DedupTopology.SEEN_STORE);
        KeyValueFingerprintSet set = new KeyValueFingerprintSet(store);
        assertThat(set.contains(Fingerprints.url("http://a.example/stored"))).isTrue();
        assertThat(set.contains(Fingerprints.url("http://a.example/other"))).isFalse();
    }

    /**
     * Issue 19, work done in place: a result stands for its page's discovered URLs on its own partition. Those are
     * admitted exactly as a discovered record of them would be; the page's other links are not this record's (the
     * fetcher sent them as discovered records), and a result whose graph stands for nothing admits nothing.
     */
    @Test
    void aResult_admitsItsOwnPartitionsLinks_onlyThose() {
        String ipC = "10.0.0.3"; // partition 0 of 4; IP_A and IP_B are on partition 2
        assertThat(KeyPartitioner.partition(ipC, 4)).isNotEqualTo(KeyPartitioner.partition(IP_A, 4));
        assertThat(KeyPartitioner.partition(IP_B, 4)).isEqualTo(KeyPartitioner.partition(IP_A, 4));
        TestOutputTopic<String, DiscoveredUrls> back = driver.createOutputTopic(topics.discovered.name(),
                new StringDeserializer(), JsonSerde.of(DiscoveredUrls.class));
        results.pipeInput(IP_A, page("http://a.example/", 1, 4, link("http://a.example/1", IP_A),
                link("http://c.example/1", ipC), link("http://b.example/1", IP_B), link("http://a.example/1", IP_A)));

        assertThat(admitted.readKeyValuesToList()).containsExactly(KeyValue.pair(IP_A, AdmittedUrls.of(2, List.of(
                new AdmittedUrls.Entry("http://a.example/1", IP_A, Fingerprints.url("http://a.example/1")),
                new AdmittedUrls.Entry("http://b.example/1", IP_B, Fingerprints.url("http://b.example/1"))))));
        assertThat(back.isEmpty()).as("c is on another partition: the fetcher sent it there").isTrue();
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(3);

        results.pipeInput(IP_A, page("http://a.example/2", 1, 0, link("http://a.example/3", IP_A)));
        discovered.pipeInput(IP_B, DiscoveredUrls.of("http://x/", 1, 1L, List.of(entry("http://b.example/1", IP_B))));
        assertThat(admitted.isEmpty()).as("no URLs ride in the first; the second URL was admitted from a result")
                .isTrue();
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(4);
    }

    /**
     * The result names the partition count the fetcher grouped by, so a dedup configured with another count takes
     * exactly the links the fetcher left out, and sends those its own count puts elsewhere to their owner.
     */
    @Test
    void aResultGroupedByAnotherCount_isReadAsTheFetcherGroupedIt_andRerouted() {
        String ipC = "10.0.0.3";
        TestOutputTopic<String, DiscoveredUrls> back = driver.createOutputTopic(topics.discovered.name(),
                new StringDeserializer(), JsonSerde.of(DiscoveredUrls.class));
        results.pipeInput(IP_A, page("http://a.example/", 0, 1, link("http://a.example/1", IP_A),
                link("http://c.example/1", ipC)));

        assertThat(back.readKeyValuesToList()).containsExactly(KeyValue.pair(ipC, DiscoveredUrls.of(
                "http://a.example/", 1, 5L, List.of(entry("http://c.example/1", ipC)))));
        assertThat(admittedUrls()).extracting(a -> a.key() + " " + a.url() + " " + a.depth()).containsExactly(
                IP_A + " http://a.example/1 1", ipC + " http://c.example/1 1");
        assertThat(registry.counter(MetricNames.DEDUP_REROUTED).count()).isEqualTo(1);
    }

    /**
     * The first score the linking page gives its links (thirty-fourth session, {@code LinkShare}) goes on with the
     * URLs admitted from it: from a discovered record, from the links riding in a result, and through a reroute; a
     * record without one admits without one.
     */
    @Test
    void theLinkShare_goesOnWithTheAdmittedUrls_fromRecordsResultsAndReroutes() {
        String ipC = "10.0.0.3"; // partition 0 of 4; IP_A and IP_B are on partition 2
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://src/", 1, 1L, List.of(entry("http://a.example/s", IP_A),
                entry("http://c.example/s", ipC)), 0.25));
        results.pipeInput(IP_A, page("http://a.example/", 1, 4, link("http://b.example/r", IP_B))
                .withLinks(List.of(link("http://b.example/r", IP_B)), 4, 0.5));
        discovered.pipeInput(IP_A, DiscoveredUrls.of("http://src/", 1, 1L, List.of(entry("http://a.example/n", IP_A))));

        assertThat(admitted.readKeyValuesToList())
                .extracting(kv -> kv.value.urls().get(0).url(), kv -> kv.value.share())
                .containsExactly(Tuple.tuple("http://a.example/s", 0.25), Tuple.tuple("http://c.example/s", 0.25),
                        Tuple.tuple("http://b.example/r", 0.5), Tuple.tuple("http://a.example/n", null));
    }

    /** An undecodable result is counted once (by the content references, which read it too), a bad link skipped. */
    @Test
    void badResults_areCountedOnce_aLinkWithoutIpIsCounted_theRestAdmitted() {
        String t = topics.fetchResults.name();
        resultsRaw.pipeInput(IP_A, "{oops");
        results.pipeInput(IP_A, page("http://a.example/", 0, 1 << 21, link("http://a.example/x", IP_A)));
        results.pipeInput(IP_A, page("http://a.example/", 0, 4, link("http://a.example/1", " "), null,
                link("http://a.example/ok", IP_A)));

        assertThat(admittedUrls()).extracting(Admitted::url).containsExactly("http://a.example/ok");
        assertThat(bad(t, "malformed")).as("the undecodable record once, the impossible partition count")
                .isEqualTo(2);
        assertThat(bad(t, "missing-key")).isEqualTo(2);
    }
}
