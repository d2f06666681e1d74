package io.github.kcrawler.dedup;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real dedup service against a real (embedded, KRaft) broker with 4-partition topics: end results on the
 * output topic as a read_committed consumer sees them, and state surviving a restart of the service.
 */
class DedupServiceIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static KafkaTestCluster kafka;

    @BeforeAll
    static void startKafka() {
        kafka = KafkaTestCluster.startTemporary();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static DedupConfig config(String prefix, Path stateDir) {
        return DedupConfig.of(new KafkaSettings(kafka.bootstrapServers(), prefix, 4, stateDir, Map.of()))
                .withCommitMs(100);
    }

    /** Creates the pipeline topics and the service's changelog up front (see DESIGN §7 on fresh topics). */
    private static Topics createTopics(DedupConfig config) {
        Topics topics = config.kafka().topics();
        List<NewTopic> all = new ArrayList<>();
        for (String name : topics.allNames()) {
            all.add(new NewTopic(name, 4, (short) 1));
        }
        for (String name : DedupService.internalTopics(config)) {
            all.add(new NewTopic(name, 4, (short) 1).configs(Map.of("cleanup.policy", "compact")));
        }
        kafka.createTopics(all);
        return topics;
    }

    private static String json(Object value) {
        try {
            return JsonSerde.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AdmittedUrls admitted(TopicRecord r) {
        return JsonSerde.of(AdmittedUrls.class).deserialize(r.topic(), r.value().getBytes(StandardCharsets.UTF_8));
    }

    /** The admitted entries of these records, in order. */
    private static List<AdmittedUrls.Entry> entries(List<TopicRecord> records) {
        return records.stream().flatMap(r -> admitted(r).urls().stream()).toList();
    }

    private static String one(String url, String ip, int depth, long at) {
        return json(DiscoveredUrls.of(null, depth, at, List.of(new DiscoveredUrls.Entry(url, ip))));
    }

    private static double count(SimpleMeterRegistry registry, String name) {
        return registry.counter(name).count();
    }

    @Test
    void admitsEachUrlOnce_onItsHostsPartition_andAgainAfterForget() {
        DedupConfig config = config("it1.", KafkaTestCluster.newTemporaryDirectory("dedup-state-"));
        Topics topics = createTopics(config);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, String> ipOfUrl = new LinkedHashMap<>();
        List<ProducerRecord<String, String>> input = new ArrayList<>();
        for (int h = 0; h < 8; h++) {
            String ip = "10.1.0." + h;
            for (int p = 0; p < 5; p++) {
                String url = "http://h" + h + ".example/p" + p;
                ipOfUrl.put(url, ip);
            }
        }
        for (int round = 0; round < 2; round++) { // every URL discovered twice, the URLs of one IP in one record
            for (int h = 0; h < 8; h++) {
                String ip = "10.1.0." + h;
                List<DiscoveredUrls.Entry> group = new ArrayList<>();
                ipOfUrl.forEach((url, i) -> {
                    if (i.equals(ip)) {
                        group.add(new DiscoveredUrls.Entry(url, ip));
                    }
                });
                input.add(new ProducerRecord<>(topics.discovered.name(), ip,
                        json(DiscoveredUrls.of("http://seed/", 1, 1L, group))));
            }
        }
        input.add(new ProducerRecord<>(topics.discovered.name(), "10.1.0.0", "{definitely not json"));

        try (DedupService service = new DedupService(config, registry)) {
            service.start();
            kafka.send(input);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    count(registry, MetricNames.DEDUP_TESTS) == 80
                            && entries(kafka.readAll(topics.admitted.name(), WAIT)).size() >= 40);
            assertThat(service.isHealthy()).isTrue();

            List<TopicRecord> out = kafka.readAll(topics.admitted.name(), WAIT);
            assertThat(out).as("one admitted record per discovered record with new URLs").hasSize(8);
            assertThat(entries(out)).extracting(AdmittedUrls.Entry::url)
                    .containsExactlyInAnyOrderElementsOf(ipOfUrl.keySet());
            Map<String, Integer> inputPartitionOfKey = new HashMap<>();
            for (TopicRecord r : kafka.readAll(topics.discovered.name(), WAIT)) {
                inputPartitionOfKey.put(r.key(), r.partition());
            }
            for (TopicRecord r : out) {
                for (AdmittedUrls.Entry a : admitted(r).urls()) {
                    assertThat(a.ip()).as("IP of %s", a.url()).isEqualTo(ipOfUrl.get(a.url()));
                    assertThat(r.key()).as("key of %s", a.url()).isEqualTo(a.ip());
                    assertThat(r.partition()).as("partition of %s", a.url())
                            .isEqualTo(inputPartitionOfKey.get(r.key()));
                    assertThat(a.fingerprint()).isEqualTo(Fingerprints.url(a.url()));
                }
            }
            assertThat(count(registry, MetricNames.DEDUP_NEW)).isEqualTo(40);
            assertThat(registry.get(MetricNames.BAD_RECORDS).tag("topic", topics.discovered.name())
                    .tag("reason", "malformed").counter().count()).isEqualTo(1);

            String again = "http://h3.example/p2";
            kafka.produce(topics.forget.name(), "10.1.0.3", json(ForgetUrl.of(Fingerprints.url(again), again, "test")));
            await().atMost(WAIT).until(() -> count(registry, MetricNames.DEDUP_FORGOTTEN) == 1);
            kafka.produce(topics.discovered.name(), "10.1.0.3", one(again, "10.1.0.3", 4, 2L));
            List<TopicRecord> after = kafka.awaitRecords(topics.admitted.name(), 9, WAIT);
            assertThat(after.stream().map(DedupServiceIT::admitted)
                    .filter(a -> a.urls().stream().anyMatch(e -> e.url().equals(again))))
                    .extracting(AdmittedUrls::depth).containsExactlyInAnyOrder(1, 4);
        }
    }

    @Test
    void restartedService_onTheSameStateDir_stillKnowsSeenUrls() {
        DedupConfig config = config("it2.", KafkaTestCluster.newTemporaryDirectory("dedup-state-"));
        Topics topics = createTopics(config);
        String ip = "10.2.0.1";
        String seen = "http://restart.example/seen";
        String fresh = "http://restart.example/fresh";

        try (DedupService first = new DedupService(config, new SimpleMeterRegistry())) {
            first.start();
            kafka.produce(topics.discovered.name(), ip, one(seen, ip, 0, 1L));
            kafka.awaitRecords(topics.admitted.name(), 1, WAIT);
        }

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (DedupService second = new DedupService(config, registry)) {
            second.start();
            kafka.produce(topics.discovered.name(), ip, one(seen, ip, 0, 2L));
            kafka.produce(topics.discovered.name(), ip, one(fresh, ip, 0, 3L));
            // Same key, so same partition and processing order: once 'fresh' is committed, so is 'seen'.
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    entries(kafka.readAll(topics.admitted.name(), WAIT)).stream().anyMatch(e -> e.url().equals(fresh)));
            assertThat(entries(kafka.readAll(topics.admitted.name(), WAIT))).extracting(AdmittedUrls.Entry::url)
                    .containsExactly(seen, fresh);
            assertThat(count(registry, MetricNames.DEDUP_TESTS)).isEqualTo(2);
            assertThat(count(registry, MetricNames.DEDUP_NEW)).isEqualTo(1);
            // The clean stop saved the LRU and SBFL and this start reloaded them: 'seen' never reached the store.
            assertThat(functionCount(registry, MetricNames.DEDUP_LRU_HITS)).isEqualTo(1);
            assertThat(functionCount(registry, MetricNames.DEDUP_STORAGE_LOOKUPS)).isEqualTo(1);
        }
    }

    /**
     * A start on an empty state directory rebuilds the set from the changelog alone, through the journal store's own
     * restore: every URL admitted before is still known, the forgotten one is not. The changelog holds one record
     * per commit that changed the set (at most one per input record here, plus a cache-snapshot tag per task at the
     * clean stop), not one per URL.
     */
    @Test
    void restartedService_onAnEmptyStateDir_restoresTheSetFromItsJournal() {
        DedupConfig config = config("it3.", KafkaTestCluster.newTemporaryDirectory("dedup-state-"));
        Topics topics = createTopics(config);
        List<ProducerRecord<String, String>> input = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        for (int h = 0; h < 8; h++) {
            String ip = "10.3.0." + h;
            List<DiscoveredUrls.Entry> group = new ArrayList<>();
            for (int p = 0; p < 25; p++) {
                String url = "http://j" + h + ".example/p" + p;
                urls.add(url);
                group.add(new DiscoveredUrls.Entry(url, ip));
            }
            input.add(new ProducerRecord<>(topics.discovered.name(), ip,
                    json(DiscoveredUrls.of("http://seed/", 1, 1L, group))));
        }
        String forgotten = "http://j5.example/p7";
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        try (DedupService service = new DedupService(config, first)) {
            service.start();
            kafka.send(input);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    count(first, MetricNames.DEDUP_NEW) == urls.size());
            kafka.produce(topics.forget.name(), "10.3.0.5",
                    json(ForgetUrl.of(Fingerprints.url(forgotten), forgotten, "test")));
            await().atMost(WAIT).until(() -> count(first, MetricNames.DEDUP_FORGOTTEN) == 1);
        }
        String changelog = DedupService.internalTopics(config).get(0);
        assertThat(changelog).endsWith(DedupTopology.SEEN_STORE + "-changelog");
        List<TopicRecord> journal = kafka.readAll(changelog, WAIT);
        assertThat(journal).as("journal records: at most one per input record, and a snapshot tag per task")
                .hasSizeLessThanOrEqualTo(input.size() + 1 + 4);

        String fresh = "http://j5.example/fresh";
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        DedupConfig elsewhere = config("it3.", KafkaTestCluster.newTemporaryDirectory("dedup-state-"));
        try (DedupService service = new DedupService(elsewhere, second)) {
            service.start();
            kafka.send(input);
            kafka.produce(topics.discovered.name(), "10.3.0.5", one(fresh, "10.3.0.5", 2, 3L));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    count(second, MetricNames.DEDUP_TESTS) == urls.size() + 1);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    entries(kafka.readAll(topics.admitted.name(), WAIT)).size() >= urls.size() + 2);
            List<AdmittedUrls.Entry> all = entries(kafka.readAll(topics.admitted.name(), WAIT));
            assertThat(all).extracting(AdmittedUrls.Entry::url).hasSize(urls.size() + 2)
                    .containsAll(urls).contains(fresh)
                    .filteredOn(u -> u.equals(forgotten)).hasSize(2);
            assertThat(count(second, MetricNames.DEDUP_NEW)).isEqualTo(2);
        }
    }

    private static double functionCount(SimpleMeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }
}
