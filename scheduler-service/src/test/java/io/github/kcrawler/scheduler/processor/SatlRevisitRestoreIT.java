package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerService;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 22: the SAT/L revisit store survives losing its instance. A scheduler applies first fetches of N pages, lets
 * some come due as REVISIT requests (their state leaves the store and travels on the request), and stops; its local
 * state is deleted; a second instance restores the SAT/L buckets from the compacted changelog alone. Then every
 * fetched page is scheduled exactly once: each of the N pages is requested as a REVISIT exactly once across both
 * instances (no page lost, none twice) — nothing answers the requests, so nothing is rescheduled. The requests'
 * states, echoed back as the fetcher does, put every page back into the store with one more visit.
 */
class SatlRevisitRestoreIT {
    private static final int PARTITIONS = 2;
    private static final int PAGES = 60;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
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

    private static SchedulerConfig config(Path stateDir) {
        KafkaSettings settings = new KafkaSettings(kafka.bootstrapServers(), "satl.", PARTITIONS, stateDir, Map.of());
        SchedulerConfig c = SchedulerConfig.defaults(settings).withPoliteness(50, 10);
        return c.withWheel(new SchedulerConfig.Wheel(SchedulerConfig.Order.PRIORITY, 64, 64, 50))
                .withRevisit(new SchedulerConfig.Revisit(true, 100, 3_000, 100, 60_000, 1 << 20));
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

    private static String ip(int page) {
        return "10.9.0." + (page % 20 + 1);
    }

    private static String url(int page) {
        return "http://" + ip(page) + "/p" + page;
    }

    /** The fetcher's part: a result for {@code req}, echoing its kind, step and revisit state. */
    private static FetchResult result(FetchRequest req, int status, String etag) {
        FetchOutcome outcome = status == 304 ? FetchOutcome.NOT_MODIFIED : FetchOutcome.OK;
        return new FetchResult(FetchResult.VERSION, req.url(), req.fingerprint(), req.depth(), req.step(), req.kind(),
                status, outcome, System.currentTimeMillis(), 0, 1, status == 200 ? "c0ffee" : null, 10,
                "text/html", null, etag, null, 0, null, req.revisit());
    }

    /** The latest value per key of a changelog, read to its committed end. */
    private static Map<Long, byte[]> latest(String topic) {
        Map<String, Object> props = kafka.consumerProps(null);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Map<Long, byte[]> latest = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : c.partitionsFor(topic, TIMEOUT)) {
                parts.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("read %s to its end", topic).isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    long key = ByteBuffer.wrap(r.key()).getLong();
                    if (r.value() == null) {
                        latest.remove(key);
                    } else {
                        latest.put(key, r.value());
                    }
                }
            }
        }
        return latest;
    }

    @Test
    void everyFetchedPageIsScheduledExactlyOnceAfterARestartThatLostItsLocalState() {
        Path stateDir = KafkaTestCluster.newTemporaryDirectory("satl-state-");
        SchedulerConfig config = config(stateDir);
        Topics topics = config.kafka().topics();
        String changelog = SchedulerTopology.revisitChangelogTopic(config);
        assertThat(changelog).isEqualTo("satl.scheduler-scheduler-revisit-satl-changelog");
        Map<Long, String> pages = new HashMap<>();
        try (SchedulerService first = new SchedulerService(config, new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            List<NewTopic> all = new ArrayList<>();
            topics.allNames().forEach(n -> all.add(new NewTopic(n, PARTITIONS, (short) 1)));
            first.internalTopics().forEach(n -> all.add(new NewTopic(n, PARTITIONS, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact"))));
            kafka.createTopics(all);
            first.start();
            await().atMost(TIMEOUT).until(first::isHealthy);
            // first fetches in two halves: every page gets a fresh state, due 3 s after its result
            for (int half = 0; half < 2; half++) {
                List<ProducerRecord<String, String>> results = new ArrayList<>();
                for (int p = half * PAGES / 2; p < (half + 1) * PAGES / 2; p++) {
                    FetchRequest fresh = FetchRequest.fresh(url(p), Fingerprints.url(url(p)), 1, 0, 0);
                    pages.put(fresh.fingerprint(), fresh.url());
                    results.add(new ProducerRecord<>(topics.fetchResults.name(), ip(p),
                            json(result(fresh, 200, "\"v" + p + "\""))));
                }
                kafka.send(results);
                if (half == 0) { // the first half comes due and is requested (the state leaves the store)
                    kafka.awaitRecords(topics.fetchRequests.name(), 1, TIMEOUT);
                }
            }
            // stop while the second half waits in the store and the first is on requests
            await().atMost(TIMEOUT).until(() -> latest(changelog).size() >= PAGES / 2);
        }
        List<FetchRequest> byFirst = kafka.readAll(topics.fetchRequests.name(), TIMEOUT).stream()
                .map(SatlRevisitRestoreIT::request).toList();
        assertThat(byFirst.size()).as("stopped mid-revisit").isBetween(1, PAGES - 1);
        KafkaTestCluster.deleteRecursively(stateDir); // the next instance has only the changelogs

        // one more page whose record is of the earlier form (due unit, then JSON), as a changelog written before the
        // binary codec holds: it restores and is revisited like the others
        int legacy = PAGES;
        long now = System.currentTimeMillis();
        RevisitState old = new RevisitState(RevisitState.VERSION, url(legacy), Fingerprints.url(url(legacy)),
                ip(legacy), 1, "\"vL\"", null, "c0ffee", 0, 0, 0, 30, now - 1_000, now / 100, now - 1_000, 0,
                io.github.kcrawler.common.model.ChangeIntervals.EMPTY);
        pages.put(old.fingerprint(), old.url());
        Map<String, Object> props = kafka.producerProps();
        props.put(org.apache.kafka.clients.producer.ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        props.put(org.apache.kafka.clients.producer.ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> p =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(props)) {
            int partition = org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils
                    .murmur2(ip(legacy).getBytes(java.nio.charset.StandardCharsets.UTF_8))) % PARTITIONS;
            byte[] record = RevisitRecords.jsonRecord(old);
            assertThat(record[RevisitRecords.HEADER_BYTES]).isEqualTo((byte) '{');
            p.send(new ProducerRecord<>(changelog, partition, ByteBuffer.allocate(8).putLong(old.fingerprint())
                    .array(), record)).get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        }

        try (SchedulerService second = new SchedulerService(config, new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            second.start();
            kafka.awaitRecords(topics.fetchRequests.name(), PAGES + 1, TIMEOUT);
            long settle = System.currentTimeMillis() + 2_000; // 20 units more: a duplicate would have come by now
            await().atMost(TIMEOUT).until(() -> System.currentTimeMillis() > settle);
            List<FetchRequest> requests = kafka.readAll(topics.fetchRequests.name(), TIMEOUT).stream()
                    .map(SatlRevisitRestoreIT::request).toList();
            Map<String, Long> perUrl = requests.stream().collect(Collectors.groupingBy(FetchRequest::url,
                    Collectors.counting()));
            assertThat(perUrl.keySet()).as("no fetched page lost").containsExactlyInAnyOrderElementsOf(pages.values());
            assertThat(perUrl).as("none scheduled twice").allSatisfy((u, n) -> assertThat(n).as(u).isEqualTo(1));
            assertThat(requests).allSatisfy(r -> {
                assertThat(r.kind()).isEqualTo(FetchKind.REVISIT);
                assertThat(r.revisit()).as("state travels with %s", r.url()).isNotNull();
                assertThat(r.revisit().contentHash()).isEqualTo("c0ffee");
                assertThat(r.revisit().etag()).startsWith("\"v");
                assertThat(r.etag()).as("the validators are sent once, in the memo").isNull();
            });
            assertThat(latest(changelog)).as("every page's state is on its request, none left in the store")
                    .isEmpty();

            // the fetcher answers: 304 for each, echoing the state; each page comes back with one more visit
            List<ProducerRecord<String, String>> answers = new ArrayList<>();
            for (FetchRequest r : requests) {
                answers.add(new ProducerRecord<>(topics.fetchResults.name(), ip(Integer.parseInt(
                        r.url().substring(r.url().lastIndexOf('p') + 1))), json(result(r, 304, null))));
            }
            kafka.send(answers);
            await().atMost(TIMEOUT).until(() -> latest(changelog).size() == PAGES + 1);
            Map<Long, RevisitState> states = latest(changelog).entrySet().stream().collect(Collectors.toMap(
                    Map.Entry::getKey, e -> RevisitRecords.state(e.getValue(), e.getValue().length)));
            assertThat(states.keySet()).containsExactlyInAnyOrderElementsOf(pages.keySet());
            assertThat(latest(changelog).values()).as("written back in the binary form").allSatisfy(v ->
                    assertThat(v[0]).isEqualTo(io.github.kcrawler.scheduler.revisit.RevisitStateCodec.FORMAT));
            assertThat(states.values()).allSatisfy(s -> {
                assertThat(s).isNotNull();
                assertThat(s.visits()).isEqualTo(1);
                assertThat(s.changes()).isZero();
                assertThat(s.etag()).as("a 304 without ETag keeps the one it had").startsWith("\"v");
                assertThat(s.firstFetchedMs()).isPositive().isLessThan(s.lastFetchedMs());
            });
            Function<Long, String> urlOf = pages::get;
            assertThat(states).allSatisfy((fp, s) -> assertThat(s.url()).isEqualTo(urlOf.apply(fp)));
        }
    }
}
