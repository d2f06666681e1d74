package io.github.kcrawler.dedup;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.AdmittedUrl;
import io.github.kcrawler.common.model.DiscoveredUrl;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dedup topology on Kafka's TopologyTestDriver, with the real Streams settings and a real RocksDB store. */
class DedupTopologyTest {
    private static final String PREFIX = "t1.";
    private static final String IP_A = "10.0.0.1";
    private static final String IP_B = "10.0.0.2";

    private final Topics topics = Topics.withPrefix(PREFIX);
    private SimpleMeterRegistry registry;
    private TopologyTestDriver driver;
    private TestInputTopic<String, DiscoveredUrl> discovered;
    private TestInputTopic<String, String> discoveredRaw;
    private TestInputTopic<String, ForgetUrl> forget;
    private TestInputTopic<String, String> forgetRaw;
    private TestOutputTopic<String, AdmittedUrl> admitted;

    @BeforeEach
    void setUp() {
        registry = new SimpleMeterRegistry();
        DedupConfig config = DedupTestSupport.config("unused:9092", PREFIX, DedupTestSupport.newStateDir());
        driver = new TopologyTestDriver(DedupTopology.build(topics, config, registry),
                StreamsDefaults.properties(config.kafka(), DedupService.APPLICATION_ID, 1, config.commitMs()));
        discovered = driver.createInputTopic(topics.discovered.name(), new StringSerializer(),
                JsonSerde.of(DiscoveredUrl.class));
        discoveredRaw = driver.createInputTopic(topics.discovered.name(), new StringSerializer(), new StringSerializer());
        forget = driver.createInputTopic(topics.forget.name(), new StringSerializer(), JsonSerde.of(ForgetUrl.class));
        forgetRaw = driver.createInputTopic(topics.forget.name(), new StringSerializer(), new StringSerializer());
        admitted = driver.createOutputTopic(topics.admitted.name(), new StringDeserializer(),
                JsonSerde.of(AdmittedUrl.class));
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private static DiscoveredUrl url(String url, int depth) {
        return DiscoveredUrl.of(url, depth, null, 1_000L);
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

        List<KeyValue<String, AdmittedUrl>> out = admitted.readKeyValuesToList();
        assertThat(out).containsExactly(KeyValue.pair(IP_A,
                AdmittedUrl.of("http://a.example/", 2, Fingerprints.url("http://a.example/"))));
        assertThat(out.get(0).value.v()).isEqualTo(AdmittedUrl.VERSION);
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_NEW)).isEqualTo(1);
    }

    @Test
    void tiers_duplicateIsAnsweredByTheLru_newUrlGoesToTheStore() {
        discovered.pipeInput(IP_A, url("http://a.example/t", 1));
        discovered.pipeInput(IP_A, url("http://a.example/t", 1));

        assertThat(admitted.readValuesToList()).hasSize(1);
        assertThat(registry.get(MetricNames.DEDUP_LRU_HITS).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.DEDUP_SBFL_POSITIVES).functionCounter().count()).isZero();
        assertThat(registry.get(MetricNames.DEDUP_STORAGE_LOOKUPS).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.DEDUP_STORAGE_HITS).functionCounter().count()).isZero();
    }

    @Test
    void duplicate_isSuppressed_evenAtAnotherDepthOrSource() {
        discovered.pipeInput(IP_A, url("http://a.example/x", 1));
        discovered.pipeInput(IP_A, url("http://a.example/x", 1));
        discovered.pipeInput(IP_A, DiscoveredUrl.of("http://a.example/x", 5, "http://other/", 2_000L));

        assertThat(admitted.readValuesToList()).extracting(AdmittedUrl::url).containsExactly("http://a.example/x");
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

        assertThat(admitted.readValuesToList()).extracting(AdmittedUrl::url, AdmittedUrl::depth)
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

        assertThat(admitted.readValuesToList()).hasSize(2);
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isEqualTo(2);
    }

    @Test
    void forgetWhoseUrlDoesNotMatchItsFingerprint_isSkippedAndCounted() {
        String u = "http://a.example/keep";
        discovered.pipeInput(IP_A, url(u, 0));
        forget.pipeInput(IP_A, ForgetUrl.of(Fingerprints.url(u), "http://a.example/other", "dropped"));
        discovered.pipeInput(IP_A, url(u, 0));

        assertThat(admitted.readValuesToList()).hasSize(1);
        assertThat(bad(topics.forget.name(), "fingerprint-mismatch")).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_FORGOTTEN)).isZero();
    }

    @Test
    void keysArePreserved_perHostIp() {
        discovered.pipeInput(IP_A, url("http://a.example/1", 0));
        discovered.pipeInput(IP_B, url("http://b.example/1", 0));
        discovered.pipeInput(IP_B, url("http://b.example/2", 1));

        assertThat(admitted.readKeyValuesToList()).extracting(kv -> kv.key + " " + kv.value.url())
                .containsExactly(IP_A + " http://a.example/1", IP_B + " http://b.example/1",
                        IP_B + " http://b.example/2");
    }

    @Test
    void badJson_isSkippedAndCounted_andProcessingContinues() {
        discoveredRaw.pipeInput(IP_A, "{not json");
        discoveredRaw.pipeInput(IP_A, "[1,2,3]");
        forgetRaw.pipeInput(IP_A, "\u0000\u0001garbage");
        discovered.pipeInput(IP_A, url("http://a.example/after", 0));

        assertThat(admitted.readValuesToList()).extracting(AdmittedUrl::url).containsExactly("http://a.example/after");
        assertThat(bad(topics.discovered.name(), "malformed")).isEqualTo(2);
        assertThat(bad(topics.forget.name(), "malformed")).isEqualTo(1);
        assertThat(count(MetricNames.DEDUP_TESTS)).isEqualTo(1);
    }

    @Test
    void invalidRecords_areSkippedWithTheirReason() {
        discovered.pipeInput(IP_A, url("  ", 0));
        discovered.pipeInput(IP_A, new DiscoveredUrl(1, null, 0, null, 0));
        discovered.pipeInput(IP_A, url("http://a.example/neg", -1));
        discovered.pipeInput(IP_A, new DiscoveredUrl(DiscoveredUrl.VERSION + 1, "http://a.example/v2", 0, null, 0));
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
}
