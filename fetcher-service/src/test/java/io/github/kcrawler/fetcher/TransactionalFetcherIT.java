package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.github.kcrawler.fetcher.HostileServer.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transactional fetcher against a real broker and real HTTP servers on loopback addresses, counting fetches at
 * the servers: a request whose result was committed is never fetched again — after a crash (a fetcher JVM killed
 * with SIGKILL mid-crawl), for requests finished above the committed watermark (listed in the commit's metadata),
 * and for pages fetched while the broker was away; and a fenced zombie's results never become visible to
 * read_committed consumers.
 */
class TransactionalFetcherIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final JsonSerde<FetchResult> RESULTS = JsonSerde.of(FetchResult.class);

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

    /** Servers on their own loopback addresses (one politeness queue each), each serving /p/0 ... /p/n-1. */
    private static List<HostileServer> servers(int count, int firstOctet) throws IOException {
        List<HostileServer> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new HostileServer("127.9." + firstOctet + "." + (i + 1)));
        }
        return out;
    }

    private static String url(HostileServer s, int page) {
        return "http://" + address(s) + ":" + s.port() + "/p/" + page;
    }

    private static String address(HostileServer s) {
        return s.address();
    }

    private static ProducerRecord<String, String> request(String topic, HostileServer s, int page, long step) {
        String url = url(s, page);
        String json = new String(JsonSerde.of(FetchRequest.class).serialize(topic,
                FetchRequest.fresh(url, Fingerprints.url(url), 0, step, 0)), StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, address(s), json);
    }

    private static Map<String, String> settings(String prefix, int partitions, Map<String, String> extra) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bootstrap-servers", kafka.bootstrapServers());
        m.put("topic-prefix", prefix);
        m.put("partitions", String.valueOf(partitions));
        m.put("state-dir", KafkaTestCluster.newTemporaryDirectory("fetcher-state-").toString());
        m.put("allow-addresses", "127.0.0.0/8");
        m.put("politeness-ms", "100");
        m.put("warc-dir", "none");
        m.put("io-threads", "1");
        m.put("worker-threads", "2");
        m.put("kafka.session.timeout.ms", "6000");
        m.put("kafka.heartbeat.interval.ms", "1000");
        m.putAll(extra);
        return m;
    }

    /** Every result in the topic, read_committed (the default of the test cluster's consumers) or not. */
    private static List<FetchResult> results(String topic, boolean committedOnly) {
        Map<String, Object> props = kafka.consumerProps(null);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, committedOnly ? "read_committed" : "read_uncommitted");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        List<FetchResult> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(RESULTS.deserialize(topic, r.value()));
                }
            }
        }
        return out;
    }

    private static Map<String, Integer> countByUrl(List<FetchResult> results) {
        Map<String, Integer> n = new HashMap<>();
        for (FetchResult r : results) {
            n.merge(r.url(), 1, Integer::sum);
        }
        return n;
    }

    private static long hits(List<HostileServer> servers, String url) {
        for (HostileServer s : servers) {
            String base = "http://" + address(s) + ":" + s.port();
            if (url.startsWith(base + "/")) {
                return s.hits(url.substring(base.length()));
            }
        }
        throw new IllegalArgumentException(url);
    }

    /**
     * (a) A fetcher JVM is killed (SIGKILL) mid-crawl; a new instance of the same name takes over. Every request
     * has exactly one committed result, and no request whose result the dead instance committed is fetched again:
     * only what it had on the network or finished after its last transaction is.
     */
    @Test
    void aCrashedFetchersCommittedWorkIsNeverFetchedAgain() throws Exception {
        String prefix = "txa.";
        Topics topics = Topics.withPrefix(prefix);
        kafka.createTopics(2, topics.allNames().toArray(new String[0]));
        List<HostileServer> servers = servers(4, 1);
        int pagesPerServer = 40;
        try {
            List<ProducerRecord<String, String>> in = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (int p = 0; p < pagesPerServer; p++) {
                for (HostileServer s : servers) {
                    s.on("/p/" + p, html("<html><body>page " + p + "</body></html>"));
                    in.add(request(topics.fetchRequests.name(), s, p, p));
                    urls.add(url(s, p));
                }
            }
            // a long commit interval: an at-least-once fetcher would have produced results it had not committed
            Map<String, String> m = settings(prefix, 2, Map.of("commit-interval-ms", "1000", "instance-id", "a",
                    "politeness-ms", "150"));
            Path log = Files.createTempFile("fetcher-child-", ".log");
            Process child = startChild(m, log);
            long killedAt;
            try {
                kafka.send(in);
                await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> !child.isAlive()
                        || results(topics.fetchResults.name(), true).size() >= urls.size() / 4);
                assertThat(child.isAlive()).as("the child fetcher runs (log %s)", log).isTrue();
                killedAt = System.currentTimeMillis();
                child.destroyForcibly(); // SIGKILL: no final transaction, no leave-group
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                child.destroyForcibly();
            }
            int committedByTheDead = results(topics.fetchResults.name(), true).size();
            assertThat(committedByTheDead).as("killed mid-crawl").isLessThan(urls.size());

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try (FetcherService next = new FetcherService(FetcherConfig.defaults(m), registry, CrawlClock.SYSTEM)) {
                next.start(); // same instance id: its initTransactions aborts what the dead one left open
                await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                        countByUrl(results(topics.fetchResults.name(), true)).size() == urls.size());
                assertThat(next.isHealthy()).isTrue();
                // both Kafka clients' own metrics are exported (issue 23: consumer lag and rates for scaling)
                assertThat(registry.find("kafka.consumer.fetch.manager.records.consumed.total").tag("service", "fetcher")
                        .functionCounter()).as("the request consumer's meters").isNotNull();
                assertThat(registry.find("kafka.producer.record.send.total").tag("service", "fetcher")
                        .functionCounter()).as("the transactional producer's meters").isNotNull();
            }
            List<FetchResult> committed = results(topics.fetchResults.name(), true);
            Map<String, Integer> perUrl = countByUrl(committed);
            assertThat(perUrl.keySet()).containsExactlyInAnyOrderElementsOf(urls);
            assertThat(perUrl).as("one committed result per request").allSatisfy((u, n) -> assertThat(n).isOne());
            assertThat(committed).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(FetchOutcome.OK));
            int byTheDead = 0;
            int again = 0;
            for (FetchResult r : committed) {
                if (r.fetchedAt() < killedAt) {
                    byTheDead++;
                    assertThat(hits(servers, r.url())).as("fetches of %s, committed by the dead instance", r.url())
                            .isOne();
                }
            }
            for (String u : urls) {
                if (hits(servers, u) > 1) {
                    again++;
                }
                assertThat(hits(servers, u)).as("fetches of %s", u).isBetween(1L, 2L);
            }
            System.out.printf("crash: %d of %d requests committed by the killed fetcher (%d visible at the kill), "
                    + "%d fetched again (on the network or not yet committed when it died)%n", byTheDead,
                    urls.size(), committedByTheDead, again);
            assertThat(byTheDead).as("the killed instance committed work before it died")
                    .isGreaterThanOrEqualTo(committedByTheDead).isPositive();
        } finally {
            for (HostileServer s : servers) {
                s.close();
            }
        }
    }

    /**
     * (b) One partition: its first request hangs at the server while the later ones finish; the instance closes
     * (committing the oldest unfinished offset as the watermark, the finished ones above it in the metadata). The
     * next owner fetches the hanging request again and skips every request listed as finished.
     */
    @Test
    void requestsFinishedAboveTheWatermarkAreSkippedByTheNextOwner() throws Exception {
        String prefix = "txb.";
        Topics topics = Topics.withPrefix(prefix);
        kafka.createTopics(1, topics.allNames().toArray(new String[0]));
        List<HostileServer> servers = servers(3, 2);
        try {
            HostileServer slow = servers.get(0);
            AtomicInteger slowHits = new AtomicInteger();
            CountDownLatch release = new CountDownLatch(1);
            slow.on("/p/0", (c, head) -> {
                if (slowHits.incrementAndGet() == 1) {
                    try {
                        release.await(20, TimeUnit.SECONDS); // the first delivery never gets an answer in time
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    c.close();
                    return;
                }
                html("<html>slow page</html>").handle(c, head);
            });
            List<ProducerRecord<String, String>> in = new ArrayList<>();
            in.add(request(topics.fetchRequests.name(), slow, 0, 0));
            List<String> quick = new ArrayList<>();
            for (int p = 0; p < 6; p++) {
                for (HostileServer s : servers.subList(1, 3)) {
                    s.on("/p/" + p, html("<html>page " + p + "</html>"));
                    in.add(request(topics.fetchRequests.name(), s, p, p + 1));
                    quick.add(url(s, p));
                }
            }
            Map<String, String> m = settings(prefix, 1, Map.of("instance-id", "b1", "revoke-wait-ms", "500"));
            try (FetcherService first = new FetcherService(FetcherConfig.defaults(m), new SimpleMeterRegistry(),
                    CrawlClock.SYSTEM)) {
                first.start();
                kafka.send(in);
                await().atMost(WAIT).until(() -> results(topics.fetchResults.name(), true).size() == quick.size());
            } // closes while /p/0 of the slow server is still unanswered: commits the watermark below it
            release.countDown();
            var committed = kafka.admin().listConsumerGroupOffsets(prefix + "fetcher").partitionsToOffsetAndMetadata()
                    .get().get(new TopicPartition(topics.fetchRequests.name(), 0));
            assertThat(committed.offset()).as("the watermark: the hanging request's offset").isZero();
            assertThat(committed.metadata()).as("the finished requests above it").startsWith(FinishedOffsets.PREFIX);
            assertThat(FinishedOffsets.decode(committed.offset(), committed.metadata()).count())
                    .isEqualTo(quick.size());

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Map<String, String> m2 = new LinkedHashMap<>(m);
            m2.put("instance-id", "b2");
            try (FetcherService next = new FetcherService(FetcherConfig.defaults(m2), registry, CrawlClock.SYSTEM)) {
                next.start();
                await().atMost(WAIT).until(() -> results(topics.fetchResults.name(), true).size() == quick.size() + 1);
                await().atMost(WAIT).until(() ->
                        registry.get("crawler.fetch.redelivered.skipped").counter().count() == quick.size());
            }
            assertThat(slowHits.get()).as("the request that was on the network is fetched again").isEqualTo(2);
            for (String u : quick) {
                assertThat(hits(servers, u)).as("fetches of %s", u).isOne();
            }
            assertThat(countByUrl(results(topics.fetchResults.name(), true))).allSatisfy((u, n) ->
                    assertThat(n).as("results of %s", u).isOne());
        } finally {
            for (HostileServer s : servers) {
                s.close();
            }
        }
    }

    /**
     * (d) The broker goes away (stopped, away 10 s) while pages are on the network and comes back: their results
     * were fetched but could not be committed. Every page is fetched once and has exactly one committed result —
     * whether the group kept this member (here, after a clean stop, it does: the results go into the next
     * transaction) or put it out and gave it its partitions again (after a SIGKILL in FaultsIT it did: results kept
     * across the rebalance answer the new deliveries, {@link TransactionalOutput}; KeptResultsIT).
     */
    @Test
    void pagesFetchedWhileTheBrokerIsAwayAreNotFetchedAgainAfterItsRestart() throws Exception {
        String prefix = "txd.";
        Topics topics = Topics.withPrefix(prefix);
        kafka.createTopics(1, topics.allNames().toArray(new String[0]));
        List<HostileServer> servers = servers(3, 4);
        CountDownLatch brokerAway = new CountDownLatch(1);
        try {
            List<ProducerRecord<String, String>> in = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (HostileServer s : servers) {
                s.on("/p/0", (c, head) -> {
                    try {
                        brokerAway.await(60, TimeUnit.SECONDS); // answered only once the broker is gone
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    html("<html>page</html>").handle(c, head);
                });
                in.add(request(topics.fetchRequests.name(), s, 0, 0));
                urls.add(url(s, 0));
            }
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Map<String, String> m = settings(prefix, 1, Map.of("instance-id", "d1"));
            try (FetcherService fetcher = new FetcherService(FetcherConfig.defaults(m), registry, CrawlClock.SYSTEM)) {
                fetcher.start();
                kafka.send(in);
                await().atMost(WAIT).until(() -> urls.stream().allMatch(u -> hits(servers, u) == 1));
                int port = kafka.broker().port();
                // away for longer than the session timeout, as a SIGKILLed broker's restart is (FaultsIT: 15-25 s)
                Thread restart = new Thread(() -> kafka.restart(Duration.ofSeconds(10)), "broker-restart");
                restart.start();
                await().atMost(WAIT).until(() -> !listening(port)); // closed: the answers now cannot be committed
                brokerAway.countDown();
                restart.join(TimeUnit.MINUTES.toMillis(2));
                assertThat(restart.isAlive()).isFalse();
                await().atMost(WAIT).until(() -> results(topics.fetchResults.name(), true).size() == urls.size());
                System.out.printf("broker restart: %.0f requests answered by results kept across a rebalance%n",
                        registry.get("crawler.fetch.redelivered.answered").counter().count());
            }
            for (String u : urls) {
                assertThat(hits(servers, u)).as("fetches of %s", u).isOne();
            }
            assertThat(countByUrl(results(topics.fetchResults.name(), true))).allSatisfy((u, n) ->
                    assertThat(n).as("results of %s", u).isOne());
        } finally {
            brokerAway.countDown();
            for (HostileServer s : servers) {
                s.close();
            }
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * (c) A zombie: an instance stalls inside a transaction (its records sent, its offsets not yet) until the group
     * has given its partition to another instance, then wakes up. Its offsets carry the old generation, so its
     * transaction aborts: read_uncommitted consumers see its records, read_committed consumers never do, and every
     * request has exactly one committed result — the new owner's.
     */
    @Test
    void aFencedZombiesResultsAreNeverVisibleToReadCommittedConsumers() throws Exception {
        String prefix = "txc.";
        Topics topics = Topics.withPrefix(prefix);
        kafka.createTopics(1, topics.allNames().toArray(new String[0]));
        List<HostileServer> servers = servers(3, 3);
        try {
            List<ProducerRecord<String, String>> in = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (int p = 0; p < 10; p++) {
                for (HostileServer s : servers) {
                    s.on("/p/" + p, html("<html>page " + p + "</html>"));
                    in.add(request(topics.fetchRequests.name(), s, p, p));
                    urls.add(url(s, p));
                }
            }
            // max.poll.interval.ms: a consumer thread held longer than this is put out of the group
            Map<String, String> zm = settings(prefix, 1, Map.of("instance-id", "zombie",
                    "kafka.max.poll.interval.ms", "4000", "commit-interval-ms", "300"));
            SimpleMeterRegistry zombieMetrics = new SimpleMeterRegistry();
            CountDownLatch stalled = new CountDownLatch(1);
            CountDownLatch wake = new CountDownLatch(1);
            AtomicInteger transactions = new AtomicInteger();
            try (FetcherService zombie = new FetcherService(FetcherConfig.defaults(zm), zombieMetrics,
                    CrawlClock.SYSTEM)) {
                zombie.start();
                zombie.beforeOffsets(jobs -> {
                    if (jobs > 0 && transactions.incrementAndGet() == 1) { // the first with results
                        System.out.println("zombie: stalls in its first transaction at " + java.time.Instant.now());
                        stalled.countDown();
                        try {
                            wake.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                kafka.send(in);
                assertThat(stalled.await(60, TimeUnit.SECONDS)).as("the zombie's first transaction").isTrue();
                await("records sent in the open transaction").atMost(WAIT).until(() ->
                        !results(topics.fetchResults.name(), false).isEmpty());
                assertThat(results(topics.fetchResults.name(), true)).as("invisible while it is open").isEmpty();

                SimpleMeterRegistry ownerMetrics = new SimpleMeterRegistry();
                Map<String, String> om = settings(prefix, 1, Map.of("instance-id", "owner"));
                try (FetcherService owner = new FetcherService(FetcherConfig.defaults(om), ownerMetrics,
                        CrawlClock.SYSTEM)) {
                    owner.start();
                    // the new owner's results stay invisible while the zombie's transaction is open: read them
                    // uncommitted to know it is done
                    await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
                        var c = kafka.admin().listConsumerGroupOffsets(prefix + "fetcher")
                                .partitionsToOffsetAndMetadata().get()
                                .get(new TopicPartition(topics.fetchRequests.name(), 0));
                        return c != null && c.offset() == in.size();
                    });
                    wake.countDown(); // the zombie goes on: sends its offsets with its old generation
                    await().atMost(WAIT).until(() -> zombieMetrics.get("crawler.fetch.transactions")
                            .tag("result", "aborted").counter().count() >= 1);
                    await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                            countByUrl(results(topics.fetchResults.name(), true)).size() == urls.size());
                    assertThat(owner.isHealthy()).isTrue();
                }
            } finally {
                wake.countDown();
            }
            List<FetchResult> visible = results(topics.fetchResults.name(), true);
            List<FetchResult> all = results(topics.fetchResults.name(), false);
            assertThat(countByUrl(visible)).as("one committed result per request").allSatisfy((u, n) ->
                    assertThat(n).as("results of %s", u).isOne());
            assertThat(countByUrl(visible).keySet()).containsExactlyInAnyOrderElementsOf(urls);
            assertThat(all.size()).as("the zombie's aborted records are in the log, invisible")
                    .isGreaterThan(visible.size());
            System.out.printf("zombie: %d records in its aborted transaction; %d visible results for %d requests%n",
                    all.size() - visible.size(), visible.size(), urls.size());
        } finally {
            for (HostileServer s : servers) {
                s.close();
            }
        }
    }

    /** {@code FetcherMain} in a JVM of its own, on this test's class path, logging to {@code log}. */
    private static Process startChild(Map<String, String> settings, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                FetcherMain.class.getName()));
        for (Map.Entry<String, String> e : settings.entrySet()) {
            cmd.add("--" + e.getKey() + "=" + e.getValue());
        }
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
