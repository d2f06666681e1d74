package io.github.kcrawler.ranker;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankScore;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real ranker service against a real (embedded, KRaft) broker with 4-partition topics: link lists in, final
 * back-link counts out, every delta and score on the partition of its target's host.
 */
class RankerServiceIT {
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

    private static String json(Object value) {
        try {
            return JsonSerde.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RankScore score(TopicRecord r) {
        return JsonSerde.of(RankScore.class).deserialize(r.topic(), r.value().getBytes(StandardCharsets.UTF_8));
    }

    private static String ipOf(int host) {
        return "10.3.0." + host;
    }

    private static String url(int host, int page) {
        return "http://h" + host + ".example/p" + page;
    }

    /** Latest published score per URL (a URL's scores share a key, hence a partition, and arrive in order). */
    private static Map<String, Double> latestScores(List<TopicRecord> records) {
        Map<String, Double> latest = new HashMap<>();
        for (TopicRecord r : records) {
            RankScore s = score(r);
            latest.put(s.url(), s.score());
        }
        return latest;
    }

    @Test
    void backlinkCounts_endUpOnTheTargetsPartition() {
        RankerConfig config = RankerConfig.of(new KafkaSettings(kafka.bootstrapServers(), "rit.", 4,
                KafkaTestCluster.newTemporaryDirectory("ranker-state-"), Map.of())).withCommitMs(100).withFlushMs(200)
                .withRanking(RankerConfig.Ranking.BACKLINKS);
        Topics topics = config.kafka().topics();
        List<NewTopic> all = new ArrayList<>();
        topics.allNames().forEach(n -> all.add(new NewTopic(n, 4, (short) 1)));
        RankerService.internalTopics(config).forEach(n ->
                all.add(new NewTopic(n, 4, (short) 1).configs(Map.of("cleanup.policy", "compact"))));
        kafka.createTopics(all);

        // 12 source pages on 6 hosts; page (h, p) links to (h+1, 0), (h+2, p), a repeat of (h+1, 0) and itself.
        Map<String, Integer> expected = new LinkedHashMap<>();
        List<ProducerRecord<String, String>> input = new ArrayList<>();
        for (int h = 0; h < 6; h++) {
            for (int p = 0; p < 2; p++) {
                String source = url(h, p);
                List<LinkList.Link> links = new ArrayList<>();
                for (int[] t : new int[][] {{(h + 1) % 6, 0}, {(h + 2) % 6, p}, {(h + 1) % 6, 0}, {h, p}}) {
                    String target = url(t[0], t[1]);
                    links.add(new LinkList.Link(target, Fingerprints.url(target), ipOf(t[0])));
                }
                links.stream().map(LinkList.Link::url).distinct().filter(u -> !u.equals(source))
                        .forEach(u -> expected.merge(u, 1, Integer::sum));
                input.add(new ProducerRecord<>(topics.links.name(), ipOf(h),
                        json(new LinkList(LinkList.VERSION, source, Fingerprints.url(source), links))));
            }
        }
        input.add(new ProducerRecord<>(topics.links.name(), ipOf(0), "[\"not a link list\"]"));

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RankerService service = new RankerService(config, registry)) {
            service.start();
            kafka.send(input);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    latestScores(kafka.readAll(topics.rankScores.name(), WAIT)).equals(toDoubles(expected)));
            assertThat(service.isHealthy()).isTrue();

            List<TopicRecord> deltas = kafka.readAll(topics.rankDeltas.name(), WAIT);
            int expectedDeltas = expected.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(deltas).hasSize(expectedDeltas);
            Map<String, Integer> partitionOfKey = new HashMap<>();
            for (TopicRecord d : deltas) {
                partitionOfKey.merge(d.key(), d.partition(), (a, b) -> {
                    assertThat(a).as("one partition per IP").isEqualTo(b);
                    return a;
                });
            }
            for (TopicRecord r : kafka.readAll(topics.rankScores.name(), WAIT)) {
                RankScore s = score(r);
                int host = Integer.parseInt(s.url().substring("http://h".length(), s.url().indexOf('.')));
                assertThat(r.key()).as("key of %s", s.url()).isEqualTo(ipOf(host));
                assertThat(r.partition()).as("partition of %s", s.url()).isEqualTo(partitionOfKey.get(r.key()));
                assertThat(s.fingerprint()).isEqualTo(Fingerprints.url(s.url()));
            }
            double updates = registry.counter(MetricNames.RANK_UPDATES).count();
            assertThat(updates).isBetween((double) expected.size(), (double) expectedDeltas);
            assertThat(registry.get(MetricNames.BAD_RECORDS).tag("topic", topics.links.name())
                    .tag("reason", "malformed").counter().count()).isEqualTo(1);
        }
    }

    private static Map<String, Double> toDoubles(Map<String, Integer> counts) {
        return counts.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> (double) e.getValue()));
    }
}
