package io.github.kcrawler.ranker;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.github.kcrawler.ranker.processor.RankPage;
import io.github.kcrawler.ranker.processor.RankPageCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The real ranker service against a real (embedded, KRaft) broker with 4-partition topics: link lists in, final
 * scores out, every delta and score batch on the partition that Kafka's own partitioner gives each of its entries'
 * hosts, same-partition work done in place exactly where Kafka would have routed it, and score changes committed
 * but not yet published when the service stops published by the next instance after a changelog restore.
 */
class RankerServiceIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 4;
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

    private static <T> T read(TopicRecord r, Class<T> type) {
        return JsonSerde.of(type).deserialize(r.topic(), r.value().getBytes(StandardCharsets.UTF_8));
    }

    private static String ipOf(int host) {
        return "10.3.0." + host;
    }

    private static String url(int host, int page) {
        return "http://h" + host + ".example/p" + page;
    }

    private static RankerConfig config(String prefix, int partitions, long flushMs, RankerConfig.Ranking ranking) {
        return RankerConfig.of(new KafkaSettings(kafka.bootstrapServers(), prefix, partitions,
                        KafkaTestCluster.newTemporaryDirectory("ranker-state-"), Map.of())).withCommitMs(100)
                .withFlushMs(flushMs).withRanking(ranking);
    }

    private static void createTopics(RankerConfig config) {
        List<NewTopic> all = new ArrayList<>();
        config.kafka().topics().allNames().forEach(n -> all.add(new NewTopic(n, PARTITIONS, (short) 1)));
        RankerService.internalTopics(config).forEach(n ->
                all.add(new NewTopic(n, PARTITIONS, (short) 1).configs(Map.of("cleanup.policy", "compact"))));
        kafka.createTopics(all);
    }

    /** Latest published score per URL (a URL's scores share a partition and arrive in order). */
    private static Map<String, Double> latestScores(List<TopicRecord> records) {
        Map<String, Double> latest = new HashMap<>();
        for (TopicRecord r : records) {
            for (RankScore s : read(r, RankScoreBatch.class).scores()) {
                latest.put(s.url(), s.score());
            }
        }
        return latest;
    }

    /** Every entry of every batch on the partition Kafka gave the record, i.e. the one Kafka gives its host. */
    private static void assertEntriesOnTheirHostsPartition(List<TopicRecord> records) {
        for (TopicRecord r : records) {
            List<String> ips = r.topic().endsWith("deltas")
                    ? read(r, RankDeltaBatch.class).deltas().stream().map(RankDelta::ip).toList()
                    : read(r, RankScoreBatch.class).scores().stream().map(RankScore::ip).toList();
            assertThat(ips).isNotEmpty();
            for (String ip : ips) {
                assertThat(KeyPartitioner.partition(ip, PARTITIONS)).as("%s in a record on partition %d of %s", ip,
                        r.partition(), r.topic()).isEqualTo(r.partition());
            }
        }
    }

    /**
     * 16 source pages on 8 hosts, each with 4 distinct outlinks to pages that are never fetched, spread over 12
     * hosts: every share is 1/4 and every sum of shares exact, so the scores do not depend on arrival order.
     */
    private static List<ProducerRecord<String, String>> fetches(Topics topics, Map<String, Double> expected,
                                                                int[] sameAndOther) {
        List<ProducerRecord<String, String>> input = new ArrayList<>();
        for (int s = 0; s < 16; s++) {
            int sourceHost = s % 8;
            String source = url(sourceHost, 1000 + s);
            List<LinkList.Link> links = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int host = (s * 5 + i * 7) % 12;
                String target = url(host, (s + i) % 5);
                if (links.stream().anyMatch(l -> l.url().equals(target))) {
                    continue;
                }
                links.add(new LinkList.Link(target, Fingerprints.url(target), ipOf(host)));
            }
            while (links.size() < 4) { // keep the out-degree 4
                int host = 8 + links.size();
                String target = url(host, 900 + s);
                links.add(new LinkList.Link(target, Fingerprints.url(target), ipOf(host)));
            }
            for (LinkList.Link l : links) {
                expected.merge(l.url(), 0.25, Double::sum);
                boolean same = KeyPartitioner.partition(l.ip(), PARTITIONS)
                        == KeyPartitioner.partition(ipOf(sourceHost), PARTITIONS);
                sameAndOther[same ? 0 : 1]++;
            }
            // the page's result carries its graph, as the fetcher writes it (issue 19)
            input.add(new ProducerRecord<>(topics.fetchResults.name(), ipOf(sourceHost),
                    json(new FetchResult(FetchResult.VERSION, source, Fingerprints.url(source), 0, 1L, FetchKind.NEW,
                            200, FetchOutcome.OK, 1L, 0L, 1L, null, 100L, "text/html", null, null, null, links.size(),
                            null, null).withLinks(links))));
        }
        return input;
    }

    @Test
    void incrementalPageRank_doesSamePartitionWorkInPlace_exactlyWhereKafkaRoutes_andBatchesTheRest() {
        RankerConfig config = config("ripr.", PARTITIONS, 200, RankerConfig.Ranking.IPR_DL1);
        Topics topics = config.kafka().topics();
        createTopics(config);
        Map<String, Double> expected = new HashMap<>();
        int[] sameAndOther = new int[2];
        List<ProducerRecord<String, String>> input = fetches(topics, expected, sameAndOther);
        assertThat(sameAndOther[0]).as("the layout has same-partition links").isPositive();
        assertThat(sameAndOther[1]).as("and cross-partition links").isPositive();

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RankerService service = new RankerService(config, registry)) {
            service.start();
            kafka.send(input);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    latestScores(kafka.readAll(topics.rankScores.name(), WAIT)).equals(expected));
            assertThat(service.isHealthy()).isTrue();

            List<TopicRecord> deltas = kafka.readAll(topics.rankDeltas.name(), WAIT);
            assertEntriesOnTheirHostsPartition(deltas);
            assertEntriesOnTheirHostsPartition(kafka.readAll(topics.rankScores.name(), WAIT));
            // Exactly the shares Kafka's partitioner sends elsewhere travelled; the stream task of a source's
            // partition applied the others in place (the scores above include them).
            assertThat(deltas.stream().mapToInt(d -> read(d, RankDeltaBatch.class).deltas().size()).sum())
                    .isEqualTo(sameAndOther[1]);
            assertThat(deltas).as("at most P − 1 records per fetched page").hasSizeLessThanOrEqualTo(16 * 3);
        }
    }

    @Test
    void scoreChangesCommittedButNotPublished_whenTheServiceStops_arePublishedByTheNextInstance() {
        RankerConfig quiet = config("rrst.", PARTITIONS, 3_600_000, RankerConfig.Ranking.IPR_DL1);
        Topics topics = quiet.kafka().topics();
        createTopics(quiet);
        Map<String, Double> expected = new HashMap<>();
        List<ProducerRecord<String, String>> input = fetches(topics, expected, new int[2]);
        String changelog = RankerService.internalTopics(quiet).get(0);

        try (RankerService first = new RankerService(quiet, new SimpleMeterRegistry())) {
            first.start();
            kafka.send(input);
            // Wait until every score change is committed (the changelog is read read_committed).
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                Map<String, Double> stored = new HashMap<>();
                for (KeyValue<Bytes, byte[]> change : kafka.readStoreChanges(changelog, WAIT)) {
                    RankPage page = change.value == null ? null : RankPageCodec.decode(change.value); // binary
                    if (page != null && page.url() != null && !page.fetched()) {
                        stored.put(page.url(), page.score());
                    }
                }
                return stored.equals(expected);
            });
        }
        assertThat(kafka.readAll(topics.rankScores.name(), WAIT)).as("no flush yet").isEmpty();

        // A new instance with a fresh state directory restores the page store from the changelog, as after a crash
        // or on another machine.
        RankerConfig flushing = config("rrst.", PARTITIONS, 200, RankerConfig.Ranking.IPR_DL1);
        try (RankerService second = new RankerService(flushing, new SimpleMeterRegistry())) {
            second.start();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                    latestScores(kafka.readAll(topics.rankScores.name(), WAIT)).equals(expected));
            List<TopicRecord> scores = kafka.readAll(topics.rankScores.name(), WAIT);
            assertThat(scores.stream().mapToInt(r -> read(r, RankScoreBatch.class).scores().size()).sum())
                    .as("each changed score published once").isEqualTo(expected.size());
            assertThat(scores).as("one record per partition").hasSizeLessThanOrEqualTo(PARTITIONS);
        }
    }

    @Test
    void start_refusesAPartitionSettingThatDiffersFromTheTopics() {
        RankerConfig four = config("rbad.", PARTITIONS, 200, RankerConfig.Ranking.IPR_DL1);
        createTopics(four);
        RankerConfig three = config("rbad.", 3, 200, RankerConfig.Ranking.IPR_DL1);
        try (RankerService service = new RankerService(three, new SimpleMeterRegistry())) {
            assertThatThrownBy(service::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has 4 partitions but partitions=3");
        }
    }
}
