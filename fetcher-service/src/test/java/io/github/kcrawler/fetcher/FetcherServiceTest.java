package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.websim.WebSimStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fetcher end to end: a real in-process Kafka broker, a simulated web on loopback (reached through a hosts
 * file, never real DNS), fetch requests in, results, discovered URLs and link lists out — and the server's own
 * account that no IP was accessed twice within T.
 */
class FetcherServiceTest {
    private static final long T = 300;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KafkaTestCluster kafka;
    private WebSim web;

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

    /** A fresh simulated web per test, so that its politeness account covers one fetcher only. */
    @BeforeEach
    void startWeb() throws Exception {
        web = WebSim.start(WebSimConfig.builder().generate(300).seed(17).ips(4).meanPagesPerHost(20)
                .politenessMs(T).robotsDisallowFraction(0.5).ioThreads(1).build());
    }

    @AfterEach
    void stopWeb() {
        if (web != null) {
            web.close();
        }
    }

    private static Topics topics(String prefix) {
        Topics t = Topics.withPrefix(prefix);
        kafka.createTopics(2, t.allNames().toArray(new String[0]));
        return t;
    }

    private FetcherConfig config(String prefix, Path warc, Map<String, String> extra) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bootstrap-servers", kafka.bootstrapServers());
        m.put("topic-prefix", prefix);
        m.put("partitions", "2");
        m.put("state-dir", KafkaTestCluster.newTemporaryDirectory("fetcher-state-").toString());
        m.put("hosts-file", web.hostsFile().toString());
        m.put("allow-addresses", "127.0.0.0/8");
        m.put("politeness-ms", String.valueOf(T));
        m.put("warc-dir", warc == null ? "none" : warc.toString());
        m.put("io-threads", "1");
        m.put("worker-threads", "2");
        m.put("commit-interval-ms", "100");
        m.put("kafka.session.timeout.ms", "10000");
        m.putAll(extra);
        return FetcherConfig.defaults(m);
    }

    private static String request(String url, long step) {
        return new String(JsonSerde.of(FetchRequest.class).serialize("t",
                FetchRequest.fresh(url, Fingerprints.url(url), 0, step, 0)), java.nio.charset.StandardCharsets.UTF_8);
    }

    private String ipOf(int page) {
        SiteLayout layout = web.layout();
        return layout.ipOfHost(layout.hostOf(page));
    }

    private static <V> List<V> values(List<TopicRecord> records, Class<V> type) {
        JsonSerde<V> serde = JsonSerde.of(type);
        List<V> out = new ArrayList<>();
        for (TopicRecord r : records) {
            out.add(serde.deserialize(r.topic(), r.value().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        return out;
    }

    @Test
    void fetchesPagesPolitelyAndProducesResultsOutlinksAndLinks() throws Exception {
        String prefix = "it1.";
        Topics topics = topics(prefix);
        Path warc = KafkaTestCluster.newTemporaryDirectory("warc-");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SiteLayout layout = web.layout();
        // pages of the first hosts (several per IP, so the guard has to space them), allowed by robots.txt
        List<Integer> pages = new ArrayList<>();
        Integer disallowed = null;
        for (int p = 0; p < layout.numPages() && pages.size() < 12; p++) {
            if (layout.isDisallowed(p)) {
                disallowed = disallowed == null ? p : disallowed;
            } else if (layout.hostOf(p) < 6) {
                pages.add(p);
            }
        }
        if (disallowed == null) {
            disallowed = layout.disallowedPages().nextSetBit(0);
        }
        Map<String, String> expected = new HashMap<>(); // url -> outcome
        List<org.apache.kafka.clients.producer.ProducerRecord<String, String>> in = new ArrayList<>();
        long step = 0;
        for (int p : pages) {
            in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), ipOf(p),
                    request(web.url(p), step++)));
            expected.put(web.url(p), FetchOutcome.OK.name());
        }
        String missing = web.url(pages.get(0)).replaceFirst("/p/\\d+$", "/nothing-here");
        in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), ipOf(pages.get(0)),
                request(missing, step++)));
        expected.put(missing, FetchOutcome.HTTP_ERROR.name());
        if (disallowed >= 0) {
            in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(),
                    ipOf(disallowed), request(web.url(disallowed), step++)));
            expected.put(web.url(disallowed), FetchOutcome.ROBOTS_DENIED.name());
        }
        in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), "127.1.0.1",
                request("mailto:nobody@example.com", step++)));
        expected.put("mailto:nobody@example.com", FetchOutcome.MALFORMED_URL.name());
        in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), "127.1.0.1",
                request("http://unknown-host.websim.test/p/1", step++)));
        // the key is trusted as the address; nothing listens on port 80 there, so robots.txt cannot be read
        expected.put("http://unknown-host.websim.test/p/1", FetchOutcome.CONNECT_FAILURE.name());
        in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), "127.1.0.2",
                "{not json"));
        WebSimStats before = web.stats();

        try (FetcherService fetcher = new FetcherService(config(prefix, warc, Map.of()), registry,
                CrawlClock.SYSTEM)) {
            fetcher.start();
            kafka.send(in);
            List<FetchResult> results = values(kafka.awaitRecords(topics.fetchResults.name(), expected.size(), WAIT),
                    FetchResult.class);
            Map<String, String> got = new HashMap<>();
            for (FetchResult r : results) {
                got.put(r.url(), r.outcome().name());
            }
            for (Map.Entry<String, String> e : expected.entrySet()) {
                assertThat(got).as("outcome of %s (all: %s)", e.getKey(), results).containsEntry(e.getKey(),
                        e.getValue());
            }
            FetchResult ok = results.stream().filter(r -> r.outcome() == FetchOutcome.OK).findFirst().orElseThrow();
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.contentHash()).hasSize(32);
            assertThat(ok.contentType()).startsWith("text/html");
            assertThat(ok.etag()).isNotBlank();
            assertThat(ok.length()).isPositive();

            // link graphs: one per OK page, in its result (issue 19: no crawl.links record), keyed by the page's IP,
            // every link with the IP of its host
            List<TopicRecord> linkRecords = kafka.awaitRecords(topics.fetchResults.name(), expected.size(), WAIT)
                    .stream().filter(r -> values(List.of(r), FetchResult.class).get(0).links() != null).toList();
            assertThat(linkRecords).hasSize(pages.size());
            Map<String, String> hostToIp = layout.hostToIp();
            for (TopicRecord r : linkRecords) {
                LinkList list = values(List.of(r), FetchResult.class).get(0).linkList();
                assertThat(r.key()).isEqualTo(ipOf(web.pageOf(list.source())));
                FetchResult result = results.stream().filter(x -> x.url().equals(list.source())).findFirst()
                        .orElseThrow();
                assertThat(list.outlinks()).hasSize(result.outlinks());
                for (LinkList.Link l : list.outlinks()) {
                    assertThat(web.pageOf(l.url())).as("canonical websim URL %s", l.url()).isNotNegative();
                    assertThat(l.ip()).isEqualTo(hostToIp.get(new java.net.URI(l.url()).getHost()));
                    assertThat(l.fingerprint()).isEqualTo(Fingerprints.url(l.url()));
                }
            }
            int totalLinks = values(linkRecords, FetchResult.class).stream().mapToInt(l -> l.links().size()).sum();
            assertThat(totalLinks).isPositive();

            // discovered URLs: those on the page's own partition ride in its result (issue 19), the others go as one
            // record per page and other partition, keyed by one of its entries' IPs, every entry on the key's
            // partition with its own IP, one level deeper, with their source
            int localUrls = 0;
            for (TopicRecord r : linkRecords) {
                FetchResult result = values(List.of(r), FetchResult.class).get(0);
                assertThat(result.localLinkPartitions()).isEqualTo(2);
                localUrls += PagePublisherTest.localLinks(r.key(), result).size();
            }
            assertThat(localUrls).as("same-host links share the page's partition").isPositive();
            int recordUrls = totalLinks - localUrls;
            List<TopicRecord> discoveredRecords = new ArrayList<>();
            await().atMost(WAIT).untilAsserted(() -> {
                discoveredRecords.clear();
                discoveredRecords.addAll(kafka.readAll(topics.discovered.name(), WAIT));
                assertThat(values(discoveredRecords, DiscoveredUrls.class).stream()
                        .mapToInt(d -> d.urls().size()).sum()).isGreaterThanOrEqualTo(recordUrls);
            });
            Map<String, Integer> recordsPerSource = new HashMap<>();
            for (TopicRecord r : discoveredRecords) {
                DiscoveredUrls d = values(List.of(r), DiscoveredUrls.class).get(0);
                assertThat(d.depth()).isEqualTo(1);
                assertThat(d.source()).isNotNull();
                recordsPerSource.merge(d.source(), 1, Integer::sum);
                assertThat(d.urls()).extracting(DiscoveredUrls.Entry::ip).contains(r.key());
                for (DiscoveredUrls.Entry e : d.urls()) {
                    assertThat(web.pageOf(e.url())).isNotNegative();
                    assertThat(e.ip()).isEqualTo(hostToIp.get(new java.net.URI(e.url()).getHost()));
                    assertThat(KeyPartitioner.partition(e.ip(), 2)).isEqualTo(r.partition());
                }
            }
            assertThat(recordsPerSource.values()).as("at most one record per page and other partition (2 partitions)")
                    .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(1));

            // at-least-once bookkeeping: every request offset is eventually committed
            await().atMost(WAIT).untilAsserted(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin()
                        .listConsumerGroupOffsets(prefix + "fetcher").partitionsToOffsetAndMetadata().get();
                Map<TopicPartition, Long> end = kafka.endOffsets(topics.fetchRequests.name());
                for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                    assertThat(committed.get(e.getKey())).as("commit of %s", e.getKey()).isNotNull();
                    assertThat(committed.get(e.getKey()).offset()).isEqualTo(e.getValue());
                }
            });
            assertThat(fetcher.isHealthy()).isTrue();
            assertThat(fetcher.pending()).isZero();
            assertThat(fetcher.activeFetches()).isZero();
        }

        WebSimStats after = web.stats();
        assertThat(after.politenessViolations()).isEqualTo(before.politenessViolations()).isZero();
        assertThat(after.disallowedFetched()).isZero();
        assertThat(after.robotsFetches() - before.robotsFetches()).isPositive();
        assertThat(registry.get("crawler.records.bad").counter().count()).isEqualTo(1);
        assertThat(registry.get("crawler.fetch").tag("outcome", "OK").tag("status", "2xx").counter().count())
                .isEqualTo(pages.size());
        assertThat(registry.get("crawler.robots.denied").counter().count()).isPositive();
        assertThat(registry.get("crawler.links.discovered").counter().count()).isPositive();

        // WARC: a response record for every complete response (the pages and the 404)
        int responses = 0;
        try (Stream<Path> files = Files.list(warc)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".warc.gz")).toList()) {
                try (WarcReader reader = new WarcReader(f)) {
                    for (WarcRecord r : reader) {
                        if (r instanceof WarcResponse) {
                            responses++;
                        }
                    }
                }
            }
        }
        assertThat(responses).isEqualTo(pages.size() + 1);
    }

    @Test
    void spentBudgetAnswersWithoutNetworkAccess() {
        String prefix = "it2.";
        Topics topics = topics(prefix);
        SiteLayout layout = web.layout();
        List<org.apache.kafka.clients.producer.ProducerRecord<String, String>> in = new ArrayList<>();
        int n = 0;
        for (int p = 0; p < layout.numPages() && n < 6; p++) {
            if (!layout.isDisallowed(p) && layout.hostOf(p) >= 6) {
                in.add(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.fetchRequests.name(), ipOf(p),
                        request(web.url(p), n++)));
            }
        }
        long pagesBefore = web.stats().pagesFetched();
        try (FetcherService fetcher = new FetcherService(config(prefix, null, Map.of("max-pages", "2")),
                new SimpleMeterRegistry(), CrawlClock.SYSTEM)) {
            fetcher.start();
            kafka.send(in);
            List<FetchResult> results = values(kafka.awaitRecords(topics.fetchResults.name(), in.size(), WAIT),
                    FetchResult.class);
            assertThat(results).filteredOn(r -> r.outcome() == FetchOutcome.OK).hasSize(2);
            assertThat(results).filteredOn(r -> r.outcome() == FetchOutcome.BUDGET_EXHAUSTED).hasSize(in.size() - 2)
                    .allSatisfy(r -> assertThat(r.fetchedAt()).isZero());
            assertThat(fetcher.pagesFetched()).isEqualTo(2);
        }
        assertThat(web.stats().pagesFetched() - pagesBefore).isEqualTo(2);
        assertThat(web.stats().politenessViolations()).isZero();
    }
}
