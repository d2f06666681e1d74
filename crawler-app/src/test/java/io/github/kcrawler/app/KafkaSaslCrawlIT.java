package io.github.kcrawler.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.app.net.ListeningSockets;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.fetcher.FetcherService;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaConfig;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.ranker.RankerService;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerService;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9 item 5, "Kafka SASL/SSL settings passed through to every client": a broker whose only client listener is
 * SASL_PLAINTEXT (PLAIN), and the whole crawler in one process given {@code kafka.security.protocol},
 * {@code kafka.sasl.mechanism} and {@code kafka.sasl.jaas.config}. A client that missed the settings could not talk
 * to this broker at all, so a complete crawl with every stage counting records, the lag probe finding the crawl
 * quiet and the status page's tail reading results shows that every client got them. Every socket the process
 * listens on (broker, metrics, status page, websim) is on loopback. With a wrong password every
 * client fails with an authentication error within seconds, and neither password ever appears in a log line.
 * About 40 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaSaslCrawlIT {
    private static final String USER = "crawler";
    private static final String PASSWORD = "Pa55-" + Long.toHexString(System.nanoTime()) + "-secret";
    private static final String WRONG = "Wr0ng-" + Long.toHexString(System.nanoTime()) + "-secret";

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Map<String, Level> levelsBefore = new LinkedHashMap<>();
    private Path dir;
    private EmbeddedKafkaBroker broker;

    @BeforeAll
    void startBroker() {
        // everything this JVM logs while the test runs, with Kafka at INFO (its config dumps) and ours at DEBUG
        logs.start();
        root().addAppender(logs);
        for (String name : List.of("org.apache.kafka", "kafka", "io.github.kcrawler")) {
            Logger l = (Logger) LoggerFactory.getLogger(name);
            levelsBefore.put(name, l.getLevel());
            l.setLevel(name.startsWith("io.") ? Level.DEBUG : Level.INFO);
        }
        dir = KafkaTestCluster.newTemporaryDirectory("sasl-crawl-");
        broker = EmbeddedKafkaBroker.start(EmbeddedKafkaConfig.of(dir.resolve("kafka")).withSaslPlain(USER, PASSWORD));
    }

    @AfterAll
    void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
        root().detachAppender(logs);
        levelsBefore.forEach((name, level) -> ((Logger) LoggerFactory.getLogger(name)).setLevel(level));
        TestDirs.deleteRecursively(dir);
    }

    @Test
    void everyServiceCrawlsThroughASaslListener() throws Exception {
        WebSimConfig web = WebSimConfig.builder().generate(200).ips(8).politenessMs(20).meanPagesPerHost(10)
                .hostsFile(dir.resolve("hosts")).build();
        try (WebSim websim = WebSim.start(web)) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("politeness-ms", "20");
            settings.put("hosts-file", websim.hostsFile().toString());
            settings.put("allow-addresses", "127.0.0.0/8");
            settings.put("max-depth", "1000");
            settings.put("warc-dir", dir.resolve("warc").toString());
            security(PASSWORD).forEach((k, v) -> settings.put(Settings.KAFKA_PREFIX + k, v));
            Path crawl = dir.resolve("crawl");
            try (CrawlSession session = CrawlSession.start(crawl, Optional.of(broker.bootstrapServers()), "", 2,
                    settings, "127.0.0.1", 0)) {
                String status = session.startStatusPage("127.0.0.1", 0);
                List<String> seeded = SeedInjector.inject(session.runtime().kafka(),
                        session.runtime().topics().discovered, websim.seedUrls(),
                        SeedInjector.resolver(websim.layout().hostToIp()), System.currentTimeMillis());
                assertThat(seeded).isNotEmpty();
                session.awaitQuiet(Duration.ofMinutes(3), null, () -> false);
                assertThat(session.monitor().finished()).as("the lag probe saw every group catch up").isTrue();

                BitSet missing = websim.reachablePages(1000);
                int reachable = missing.cardinality();
                missing.andNot(websim.fetchedPages());
                assertThat(reachable).isGreaterThan(50);
                assertThat(missing.cardinality()).as("reachable pages never fetched").isZero();
                assertThat(websim.stats().politenessViolations()).isZero();
                MeterRegistry registry = session.registry();
                assertThat(count(registry, MetricNames.DEDUP_TESTS)).as("dedup read discovered URLs").isPositive();
                assertThat(count(registry, MetricNames.DEDUP_NEW)).as("dedup admitted URLs").isPositive();
                assertThat(count(registry, MetricNames.SCHEDULER_RELEASED)).as("scheduler released").isPositive();
                assertThat(count(registry, MetricNames.FETCHES)).as("fetcher fetched").isGreaterThanOrEqualTo(reachable);
                assertThat(count(registry, MetricNames.LINKS_DISCOVERED)).as("fetcher produced outlinks").isPositive();
                assertThat(count(registry, MetricNames.RANK_UPDATES)).as("ranker updated scores").isPositive();
                assertThat(session.runtime().healthy()).isTrue();
                if (ListeningSockets.available()) { // broker, metrics endpoint, status page, websim: loopback only
                    assertThat(ListeningSockets.ofThisProcess()).extracting(ListeningSockets.Listener::port)
                            .contains(broker.port(), session.metricsPort(), websim.port());
                    assertThat(ListeningSockets.ofThisProcess()).allSatisfy(l -> assertThat(
                            l.address().isLoopbackAddress()).as("%s is loopback", l).isTrue());
                }
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    JsonNode activity = statusJson(status).path("activity");
                    assertThat(activity.path("read").asLong()).as("status page tail read fetch results").isPositive();
                    assertThat(activity.path("problem").isNull() || activity.path("problem").isMissingNode())
                            .as("tail problem: %s", activity.path("problem")).isTrue();
                });
            }
        }
        assertNoPasswordLogged();
    }

    /** Each client the crawler creates, given a wrong password, stops with "Authentication failed", not a hang. */
    @Test
    void aWrongPasswordFailsEveryClientQuicklyAndClearly() {
        Map<String, String> wrong = security(WRONG);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> CrawlSession.start(dir.resolve("wrong"), Optional.of(broker.bootstrapServers()), "",
                2, prefixed(wrong), "127.0.0.1", 0))
                .as("runtime: topic creation with the admin client").hasStackTraceContaining("Authentication failed");
        assertThat(seconds(t0)).isLessThan(30);

        KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), "", 2, dir.resolve("wrong-state"), wrong);
        t0 = System.nanoTime();
        assertThatThrownBy(() -> SeedInjector.inject(kafka, kafka.topics().discovered, List.of("http://a.test/"),
                h -> Optional.of("127.0.0.1"), 0))
                .as("seed producer").hasStackTraceContaining("Authentication failed");
        assertThat(seconds(t0)).isLessThan(30);

        // each service alone, its Kafka settings coming from CRAWLER_* variables as in a container
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CRAWLER_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        env.put("CRAWLER_PARTITIONS", "2");
        env.put("CRAWLER_STATE_DIR", dir.resolve("wrong-state").toString());
        wrong.forEach((k, v) -> env.put(Settings.kafkaEnvName(k), v));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, String> fetcherEnv = new LinkedHashMap<>(env);
        fetcherEnv.put("CRAWLER_WARC_DIR", dir.resolve("wrong-warc").toString());
        List<Function<Settings, CrawlerService>> services = List.of(
                s -> new DedupService(DedupConfig.from(s), registry),
                s -> new SchedulerService(SchedulerConfig.from(s), registry, CrawlClock.SYSTEM),
                s -> new RankerService(RankerConfig.from(s), registry),
                s -> new FetcherService(FetcherConfig.from(s), registry, CrawlClock.SYSTEM));
        List<Set<String>> keys = List.of(DedupConfig.KEYS, SchedulerConfig.KEYS, RankerConfig.KEYS, FetcherConfig.KEYS);
        for (int i = 0; i < services.size(); i++) {
            Settings s = Settings.parse(keys.get(i), i == 3 ? fetcherEnv : env);
            assertThat(s.kafkaOverrides()).containsEntry("sasl.jaas.config", wrong.get("sasl.jaas.config"));
            int before = authenticationFailures();
            long started = System.nanoTime();
            try (CrawlerService service = services.get(i).apply(s)) {
                service.start();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> !service.isHealthy());
                assertThat(authenticationFailures()).as(service.name() + " logged the authentication failure")
                        .isGreaterThan(before);
                assertThat(seconds(started)).as(service.name() + " seconds to fail").isLessThan(60);
            }
        }
        assertNoPasswordLogged();
    }

    private static Map<String, String> security(String password) {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", new EmbeddedKafkaConfig.SaslPlain(USER, password).clientJaasConfig());
    }

    private static Map<String, String> prefixed(Map<String, String> kafka) {
        Map<String, String> out = new LinkedHashMap<>();
        kafka.forEach((k, v) -> out.put(Settings.KAFKA_PREFIX + k, v));
        return out;
    }

    private int authenticationFailures() {
        return (int) events().stream().filter(e -> text(e).contains("Authentication failed")).count();
    }

    private void assertNoPasswordLogged() {
        List<ILoggingEvent> all = events();
        assertThat(all).as("log events captured").hasSizeGreaterThan(100);
        for (ILoggingEvent e : all) {
            String line = text(e);
            assertThat(line).as("log line of %s", e.getLoggerName()).doesNotContain(PASSWORD).doesNotContain(WRONG);
        }
    }

    private List<ILoggingEvent> events() {
        synchronized (logs) {
            return new ArrayList<>(logs.list);
        }
    }

    /** The message as printed, its raw arguments and every throwable's message in the chain. */
    private static String text(ILoggingEvent e) {
        StringBuilder b = new StringBuilder(e.getFormattedMessage());
        if (e.getArgumentArray() != null) {
            for (Object a : e.getArgumentArray()) {
                b.append(' ').append(a);
            }
        }
        for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
            b.append(' ').append(t.getClassName()).append(": ").append(t.getMessage());
        }
        return b.toString();
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static JsonNode statusJson(String pageUrl) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(pageUrl + (pageUrl.endsWith("/") ? "" : "/") + "api/status")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return JsonSerde.MAPPER.readTree(r.body());
    }
}
