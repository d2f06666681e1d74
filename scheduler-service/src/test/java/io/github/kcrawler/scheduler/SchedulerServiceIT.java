package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler service against a real in-process broker, with exactly-once Streams: admitted URLs come out as
 * polite fetch requests, and URLs still pending when the service stops come out after a restart that has lost its
 * local state (restored from the changelog), each exactly once.
 */
class SchedulerServiceIT {
    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static KafkaTestCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaTestCluster.startTemporary();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static SchedulerConfig config(String prefix, Path stateDir, long politenessMs) {
        KafkaSettings settings = new KafkaSettings(kafka.bootstrapServers(), prefix, PARTITIONS, stateDir, Map.of());
        // No fetcher here, so no fetch results: a short step timeout lets the wheel step on without them.
        SchedulerConfig c = SchedulerConfig.defaults(settings).withPoliteness(politenessMs, 20);
        return c.withWheel(new SchedulerConfig.Wheel(SchedulerConfig.Order.PRIORITY, 64, 64, politenessMs));
    }

    /** Creates the pipeline's topics and the scheduler's changelog up front (DESIGN §7, KAFKA-15591). */
    private static void createTopics(SchedulerConfig config, SchedulerService service) {
        List<NewTopic> topics = new ArrayList<>();
        config.kafka().topics().allNames().forEach(n -> topics.add(new NewTopic(n, PARTITIONS, (short) 1)));
        service.internalTopics().forEach(n -> topics.add(new NewTopic(n, PARTITIONS, (short) 1)
                .configs(Map.of("cleanup.policy", "compact"))));
        kafka.createTopics(topics);
    }

    /** The URLs of one IP as one admitted record, as dedup writes them. */
    private static void admit(Topics topics, String ip, List<String> urls) {
        List<AdmittedUrls.Entry> entries = new ArrayList<>();
        for (String url : urls) {
            entries.add(new AdmittedUrls.Entry(url, ip, Fingerprints.url(url)));
        }
        kafka.send(List.of(new ProducerRecord<>(topics.admitted.name(), ip, json(AdmittedUrls.of(1, entries)))));
    }

    private static String json(Object value) {
        try {
            return JsonSerde.MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static FetchRequest request(TopicRecord r) {
        try {
            return JsonSerde.MAPPER.readValue(r.value(), FetchRequest.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertPolite(List<TopicRecord> records, long politenessMs) {
        Map<String, List<Long>> times = new HashMap<>();
        records.forEach(r -> times.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(request(r).notBefore()));
        times.forEach((ip, list) -> {
            list.sort(Comparator.naturalOrder());
            for (int i = 1; i < list.size(); i++) {
                assertThat(list.get(i) - list.get(i - 1)).as("gap %d for %s", i, ip).isGreaterThanOrEqualTo(
                        politenessMs);
            }
        });
    }

    @Test
    void shouldReleaseAdmittedUrlsPolitelyAndExactlyOnce() {
        SchedulerConfig config = config("it1.", KafkaTestCluster.newTemporaryDirectory("scheduler-state-"), 300);
        Topics topics = config.kafka().topics();
        List<String> expected = new ArrayList<>();
        try (SchedulerService service = new SchedulerService(config, new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            createTopics(config, service);
            for (int ip = 1; ip <= 3; ip++) {
                List<String> urls = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    urls.add("http://10.1.0." + ip + "/page" + i);
                }
                admit(topics, "10.1.0." + ip, urls);
                expected.addAll(urls);
            }
            service.start();
            await().atMost(TIMEOUT).until(service::isHealthy);
            kafka.awaitRecords(topics.fetchRequests.name(), expected.size(), TIMEOUT);
            await().atMost(TIMEOUT).until(() -> service.frontierSize() == 0 && service.released() == expected.size());
        }
        List<TopicRecord> requests = kafka.readAll(topics.fetchRequests.name(), TIMEOUT);
        assertThat(requests).extracting(r -> request(r).url()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(requests).allSatisfy(r -> assertThat(request(r).url()).contains("/" + r.key() + "/"));
        assertPolite(requests, 300);
    }

    @Test
    void shouldReleaseStillPendingUrlsAfterARestartThatLostItsLocalState() throws IOException {
        Path stateDir = KafkaTestCluster.newTemporaryDirectory("scheduler-state-");
        SchedulerConfig config = config("it2.", stateDir, 1500);
        Topics topics = config.kafka().topics();
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            urls.add("http://10.2.0.1/page" + i);
        }
        try (SchedulerService first = new SchedulerService(config, new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            createTopics(config, first);
            admit(topics, "10.2.0.1", urls);
            first.start();
            kafka.awaitRecords(topics.fetchRequests.name(), 1, TIMEOUT);
        }
        deleteRecursively(stateDir); // the next instance must restore the pending URLs from the changelog
        int releasedBefore = kafka.readAll(topics.fetchRequests.name(), TIMEOUT).size();
        assertThat(releasedBefore).isBetween(1, urls.size());

        try (SchedulerService second = new SchedulerService(config, new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            second.start();
            kafka.awaitRecords(topics.fetchRequests.name(), urls.size(), TIMEOUT);
            await().atMost(TIMEOUT).until(() -> second.isHealthy() && second.frontierSize() == 0
                    && second.released() == urls.size() - releasedBefore);
        }
        List<TopicRecord> requests = kafka.readAll(topics.fetchRequests.name(), TIMEOUT);
        assertThat(requests).extracting(r -> request(r).url()).containsExactlyInAnyOrderElementsOf(urls);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
