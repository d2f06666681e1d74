package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.github.kcrawler.fetcher.dns.LookupFailure;
import io.github.kcrawler.fetcher.dns.NameLookup;
import io.github.kcrawler.fetcher.guard.IpGuard;
import io.github.kcrawler.fetcher.http.HttpClientSettings;
import io.github.kcrawler.fetcher.http.NettyHttpClient;
import io.github.kcrawler.fetcher.http.NettyTransport;
import io.github.kcrawler.fetcher.parse.LinkExtractor;
import io.github.kcrawler.fetcher.robots.RobotsCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real fetch pipeline (Netty client, guard, robots.txt, publisher) without Kafka: records land in lists. Used
 * by the hostile-web and security tests against loopback servers.
 */
final class PipelineHarness implements AutoCloseable {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final FetcherConfig config;
    final List<FetchResult> results = new CopyOnWriteArrayList<>();
    /** The entries of every discovered record, in the order produced. */
    final List<DiscoveredUrls.Entry> discovered = new CopyOnWriteArrayList<>();
    final List<DiscoveredUrls> discoveredRecords = new CopyOnWriteArrayList<>();
    final List<LinkList> links = new CopyOnWriteArrayList<>();
    /** URLs of the jobs dropped because their partition left ({@code Sink.abandoned}). */
    final List<String> abandoned = new CopyOnWriteArrayList<>();
    final Map<String, Integer> lookups = new ConcurrentHashMap<>();
    final FetchMetrics metrics;
    final FetchPipeline pipeline;
    /** Reads the sitemaps robots.txt names (null with {@code sitemaps=false}). */
    final io.github.kcrawler.fetcher.sitemap.SitemapDiscovery sitemaps;
    private final NettyTransport transport;
    private final NettyHttpClient client;

    /** Defaults for loopback tests: 127.0.0.0/8 allowed, 50 ms politeness, no WARC; overrides win. */
    PipelineHarness(Map<String, String> overrides, Map<String, List<InetAddress>> dnsAnswers) {
        Map<String, String> m = new HashMap<>(Map.of("allow-addresses", "127.0.0.0/8", "politeness-ms", "50",
                "warc-dir", "none", "connect-timeout-ms", "2000", "read-timeout-ms", "5000",
                "total-timeout-ms", "10000"));
        m.putAll(overrides);
        config = FetcherConfig.defaults(m);
        CrawlClock clock = CrawlClock.SYSTEM;
        transport = new NettyTransport(1, false);
        FetcherConfig.Http http = config.http();
        client = new NettyHttpClient(transport, new HttpClientSettings(http.userAgent(), http.connectTimeoutMs(),
                http.readTimeoutMs(), http.totalTimeoutMs(), null, 2, 100, 5_000, List.of(),
                http.firstByteTimeoutMs(), http.tlsInsecure()), clock);
        NameLookup dns = new NameLookup() {
            @Override
            public InetAddress cached(String host) {
                return null;
            }

            @Override
            public CompletableFuture<InetAddress> lookup(String host) {
                int n = lookups.merge(host, 1, Integer::sum);
                List<InetAddress> answers = dnsAnswers.get(host);
                if (answers == null || answers.isEmpty()) {
                    return CompletableFuture.failedFuture(
                            new LookupFailure(HostResolver.Failure.NOT_FOUND, host, null));
                }
                return CompletableFuture.completedFuture(answers.get(Math.min(n - 1, answers.size() - 1)));
            }

            @Override
            public void close() {
            }
        };
        HostResolver resolver = new HostResolver(dns, HostsFile.empty(), 4, registry);
        FetchSlots slots = new FetchSlots(config.limits().maxInFlight(), transport.scheduler());
        metrics = new FetchMetrics(registry, "req", slots::active);
        IpGuard guard = new IpGuard(clock, transport.scheduler(), config.limits().maxBackoffMs(),
                metrics.politenessWait);
        PagePublisher.Sink sink = new PagePublisher.Sink() {
            @Override
            public void result(String key, FetchResult value, Completion c) {
                if (value.linkList() != null) {
                    links.add(value.linkList());
                }
                discovered.addAll(PagePublisherTest.localLinks(key, value)); // the own partition's, in the result
                c.acked(null);
                // last: a test that saw the result sees its links, discovered URLs and finished slot too (CI,
                // 2026-12-02: HostileWebTest read `discovered` between the two)
                results.add(value);
            }

            @Override
            public void discovered(String key, DiscoveredUrls value, Completion c) {
                discoveredRecords.add(value);
                discovered.addAll(value.urls());
                c.acked(null);
            }

            @Override
            public int discoveredPartitions() {
                return 4;
            }

            @Override
            public void abandoned(FetchJob job) {
                abandoned.add(job.request.url());
            }
        };
        PagePublisher publisher = new PagePublisher(config, clock, resolver,
                new LinkExtractor(config.limits().maxOutlinks(), config.followNofollow()), null, sink, metrics,
                Runnable::run, (job, error) -> { });
        pipeline = new FetchPipeline(config, clock, transport.scheduler(), resolver, guard, slots, client,
                Runnable::run, metrics, publisher);
        pipeline.robots(new RobotsCache(List.of(config.robots().agent()), 100, 60_000, 60_000,
                config.robots().maxCrawlDelayMs(), clock, pipeline::fetchRobots, registry));
        sitemaps = config.sitemaps().enabled() ? new io.github.kcrawler.fetcher.sitemap.SitemapDiscovery(
                config.sitemaps(), config.scope().maxUrlLength(), pipeline::fetchSitemap, publisher.sitemapSink(),
                registry) : null;
        pipeline.sitemaps(sitemaps);
    }

    PipelineHarness(Map<String, String> overrides) {
        this(overrides, Map.of());
    }

    /** Submits a fetch of {@code url} under record key {@code key} (an IP, or null to resolve the host). */
    void submit(String key, String url) {
        submit(key, url, new OffsetTracker.Slot(new TopicPartition("req", 0), 0));
    }

    /** Submits a fetch of {@code url} under record key {@code key} in the given offset slot. */
    void submit(String key, String url, OffsetTracker.Slot slot) {
        FetchRequest r = FetchRequest.fresh(url, Fingerprints.url(url), 0, 1, 0);
        pipeline.submit(new FetchJob(key, r, slot));
    }

    /** Fetches one URL and waits (bounded) for its result. */
    FetchResult fetch(String key, String url, Duration limit) {
        int before = results.size();
        submit(key, url);
        long deadline = System.nanoTime() + limit.toNanos();
        while (results.size() <= before) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no result for " + url + " within " + limit);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        FetchResult r = results.get(before);
        assertThat(r.url()).isEqualTo(url);
        return r;
    }

    FetchResult fetch(String url) {
        return fetch("127.0.0.1", url, Duration.ofSeconds(15));
    }

    double outcomes(FetchOutcome o) {
        return metrics.fetchCount(o);
    }

    double rejected(String reason) {
        return registry.get("crawler.links.rejected").tag("reason", reason).counter().count();
    }

    @Override
    public void close() {
        client.close();
        transport.close();
    }
}
