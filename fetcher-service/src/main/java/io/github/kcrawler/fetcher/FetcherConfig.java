package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.scope.AddressPolicy;
import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.fetcher.http.ValueBounds;
import io.github.kcrawler.fetcher.sitemap.SitemapSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the fetcher can be told, validated once: politeness, timeouts, limits, robots.txt, DNS, WARC and the
 * Kafka client loop, in groups ({@link Http}, {@link Dns}, {@link Robots}, {@link Warc}, {@link Limits}, plus the
 * shared scope, address, batch, sitemap, metrics and Kafka settings). Each key is declared once as a {@link Setting}
 * in its group; {@link #SETTINGS} lists them all, and parsing, {@code --help} and docs/CONFIGURATION.md come from
 * there. The constructors name a bad value, and an impolite interval is warned about loudly (BUbiNG warns below
 * 100 ms per IP).
 *
 * @param politenessMs     T: minimum time between two accesses to one IP
 * @param http             the HTTP client: agent, timeouts, redirects, proxy, connection pool, TLS
 * @param dns              the resolver: hosts file, concurrency, TTLs
 * @param robots           robots.txt: agent token, size, cache, TTLs, the Crawl-delay cap
 * @param warc             the archive: directory, file names and sizes, compression, CDXJ index
 * @param limits           how much: concurrency, bodies, pages, outlinks, back-off, server-controlled values
 * @param ioThreads        Netty event-loop threads (HTTP, DNS, timers)
 * @param workerThreads    threads that parse pages, hash, archive and produce
 * @param commitIntervalMs the results of finished requests and their offsets are committed in one transaction at
 *                         most this long after they finish (a transaction only when something moved). Until then
 *                         they are invisible: what a fetcher finished since its last transaction is fetched again
 *                         by the next owner when it dies, so the duplicates per failure are about its pages per
 *                         second times half this interval (plus what was on the network). 50 ms costs at most 20
 *                         transactions a second per fetcher (Kafka Streams commits every 100 ms under exactly-once)
 * @param revokeWaitMs     on a partition revocation or shutdown, running fetches get this long to finish
 * @param instanceId       this instance's name in its {@code transactional.id} ({@code <prefix>fetcher-<id>}): unique
 *                         among live fetchers, the same when the same instance restarts; empty = the host name and
 *                         the lowest free slot under {@code state-dir} ({@link InstanceId})
 * @param followNofollow   follow links marked rel=nofollow (and pages with a nofollow robots meta tag)
 * @param scope            which outlinks are followed (keys {@code max-depth}, {@code scope}, {@code allow}, ...)
 * @param addressPolicy    which addresses may be connected to ({@code allow-addresses}); applied to every fetch
 *                         and every outlink after DNS
 * @param batchLimits      a page's discovered URLs go out as one record per target partition, cut into several
 *                         above {@code batch-max-urls} entries or {@code batch-max-bytes} (estimated JSON) so a page
 *                         with 100,000 links never makes a record the broker refuses ({@link UrlBatches})
 * @param sitemaps         {@code sitemaps}, {@code sitemap-max-bytes}, ... ({@link SitemapSettings})
 */
public record FetcherConfig(KafkaSettings kafka, long politenessMs, Http http, Dns dns, Robots robots, Warc warc,
                            Limits limits, int ioThreads, int workerThreads, long commitIntervalMs, long revokeWaitMs,
                            String instanceId, boolean followNofollow, CrawlScope scope, AddressPolicy addressPolicy,
                            UrlBatches.Limits batchLimits, SitemapSettings sitemaps) {
    private static final Logger LOG = LoggerFactory.getLogger(FetcherConfig.class);

    public static final String DEFAULT_USER_AGENT = "kcrawler/0.1 (+https://github.com/kcrawler)";
    public static final int CORES = Runtime.getRuntime().availableProcessors();

    /**
     * The HTTP client ({@link io.github.kcrawler.fetcher.http.HttpClientSettings} is built from it).
     *
     * @param firstByteTimeoutMs request written → response head, at most this long (TIMEOUT)
     * @param maxRedirects       longest redirect chain followed (REDIRECT_LIMIT beyond; a target already in its
     *                           chain is REDIRECT_LOOP)
     * @param proxy              HTTP proxy for all requests (https via CONNECT, http in absolute form), or null
     * @param tlsInsecure        turns TLS certificate and host-name verification off; logged loudly; default false
     */
    public record Http(String userAgent, int connectTimeoutMs, int readTimeoutMs, int firstByteTimeoutMs,
                       int totalTimeoutMs, int maxRedirects, InetSocketAddress proxy, int maxIdleConnections,
                       int maxIdlePerRoute, long keepAliveMs, boolean tlsInsecure, boolean nativeTransport) {
        public static final Setting<String> USER_AGENT = Setting.string("user-agent", DEFAULT_USER_AGENT,
                Check.of(v -> v != null && !v.isBlank() && v.indexOf('\n') < 0 && v.indexOf('\r') < 0,
                        "must be one non-empty line"), "the User-Agent header of every request");
        public static final Setting<Integer> CONNECT_TIMEOUT_MS = Setting.integer("connect-timeout-ms", 10_000,
                Check.atLeast(1), "TCP and TLS connection set-up, at most this long");
        public static final Setting<Integer> READ_TIMEOUT_MS = Setting.integer("read-timeout-ms", 15_000,
                Check.atLeast(1), "no byte received for this long ends a fetch (TIMEOUT)");
        public static final Setting<Integer> FIRST_BYTE_TIMEOUT_MS = Setting.integer("first-byte-timeout-ms", 30_000,
                Check.atLeast(1), "request written to response head, at most this long (TIMEOUT)");
        public static final Setting<Integer> TOTAL_TIMEOUT_MS = Setting.integer("total-timeout-ms", 60_000,
                Check.atLeast(1), "a whole fetch, at most this long (>= connect-timeout-ms)");
        public static final Setting<Integer> MAX_REDIRECTS = Setting.integer("max-redirects", 10, Check.range(0, 100),
                "longest redirect chain followed (REDIRECT_LIMIT beyond)");
        public static final Setting<String> PROXY = Setting.string("proxy", "", Check.any(),
                "HTTP proxy host:port for every request (https via CONNECT); empty = none");
        public static final Setting<Integer> MAX_IDLE_CONNECTIONS = Setting.integer("max-idle-connections", 10_000,
                Check.atLeast(0), "idle keep-alive connections kept in all");
        public static final Setting<Integer> MAX_IDLE_PER_ROUTE = Setting.integer("max-idle-per-route", 2,
                Check.atLeast(0), "idle keep-alive connections kept per scheme, IP and port");
        public static final Setting<Long> KEEP_ALIVE_MS = Setting.longValue("keep-alive-ms", 15_000L,
                Check.atLeast(0), "an idle connection is closed after this long");
        public static final Setting<Boolean> TLS_INSECURE = Setting.bool("tls-insecure", false,
                "turn TLS certificate and host-name verification off (only against servers you run)");
        public static final Setting<Boolean> NATIVE_TRANSPORT = Setting.bool("native-transport", true,
                "use Netty's epoll transport where available");
        public static final SettingSet SETTINGS = SettingSet.of(USER_AGENT, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS,
                FIRST_BYTE_TIMEOUT_MS, TOTAL_TIMEOUT_MS, MAX_REDIRECTS, PROXY, MAX_IDLE_CONNECTIONS,
                MAX_IDLE_PER_ROUTE, KEEP_ALIVE_MS, TLS_INSECURE, NATIVE_TRANSPORT);

        public Http {
            USER_AGENT.check(userAgent);
            CONNECT_TIMEOUT_MS.check(connectTimeoutMs);
            READ_TIMEOUT_MS.check(readTimeoutMs);
            TOTAL_TIMEOUT_MS.check(totalTimeoutMs);
            FIRST_BYTE_TIMEOUT_MS.check(firstByteTimeoutMs);
            MAX_REDIRECTS.check(maxRedirects);
            MAX_IDLE_CONNECTIONS.check(maxIdleConnections);
            MAX_IDLE_PER_ROUTE.check(maxIdlePerRoute);
            KEEP_ALIVE_MS.check(keepAliveMs);
            check(totalTimeoutMs >= connectTimeoutMs, "total-timeout-ms (" + totalTimeoutMs
                    + ") must be >= connect-timeout-ms (" + connectTimeoutMs + ")");
            if (tlsInsecure) {
                LOG.warn("tls-insecure=true: TLS certificates and host names are NOT verified. Anyone on the path can "
                        + "impersonate any https site. Use it only against servers you run.");
            }
        }

        static Http from(Settings s) {
            return new Http(s.get(USER_AGENT), s.get(CONNECT_TIMEOUT_MS), s.get(READ_TIMEOUT_MS),
                    s.get(FIRST_BYTE_TIMEOUT_MS), s.get(TOTAL_TIMEOUT_MS), s.get(MAX_REDIRECTS),
                    FetcherConfig.proxy(s.get(PROXY)), s.get(MAX_IDLE_CONNECTIONS), s.get(MAX_IDLE_PER_ROUTE),
                    s.get(KEEP_ALIVE_MS), s.get(TLS_INSECURE), s.get(NATIVE_TRANSPORT));
        }
    }

    /**
     * The resolver.
     *
     * @param hostsFile static host → IP table consulted before DNS, or null
     */
    public record Dns(Path hostsFile, int maxConcurrent, int maxTtlSeconds, int negativeTtlSeconds,
                      int queryTimeoutMs) {
        public static final Setting<String> HOSTS_FILE = Setting.string("hosts-file", "", Check.any(),
                "static host-to-IP table (/etc/hosts format) consulted before DNS; empty = none");
        public static final Setting<Integer> MAX_CONCURRENT = Setting.integer("dns-max-concurrent", 256,
                Check.atLeast(1), "DNS queries in flight at once");
        public static final Setting<Integer> MAX_TTL_S = Setting.integer("dns-max-ttl-s", 3600, Check.atLeast(0),
                "a DNS answer is cached at most this many seconds, whatever its TTL");
        public static final Setting<Integer> NEGATIVE_TTL_S = Setting.integer("dns-negative-ttl-s", 60,
                Check.atLeast(0), "a failed lookup is cached this many seconds");
        public static final Setting<Integer> QUERY_TIMEOUT_MS = Setting.integer("dns-query-timeout-ms", 5000,
                Check.atLeast(1), "one DNS query, at most this long");
        public static final SettingSet SETTINGS = SettingSet.of(HOSTS_FILE, MAX_CONCURRENT, MAX_TTL_S,
                NEGATIVE_TTL_S, QUERY_TIMEOUT_MS);

        public Dns {
            MAX_CONCURRENT.check(maxConcurrent);
            MAX_TTL_S.check(maxTtlSeconds);
            NEGATIVE_TTL_S.check(negativeTtlSeconds);
            QUERY_TIMEOUT_MS.check(queryTimeoutMs);
        }

        static Dns from(Settings s) {
            String hosts = s.get(HOSTS_FILE);
            return new Dns(hosts == null || hosts.isBlank() ? null : Path.of(hosts.trim()), s.get(MAX_CONCURRENT),
                    s.get(MAX_TTL_S), s.get(NEGATIVE_TTL_S), s.get(QUERY_TIMEOUT_MS));
        }
    }

    /**
     * robots.txt.
     *
     * @param agent           the product token matched against robots.txt groups
     * @param maxCrawlDelayMs robots.txt Crawl-delay is honoured up to this
     */
    public record Robots(String agent, int maxBytes, int cacheSize, long ttlMs, long errorTtlMs,
                         long maxCrawlDelayMs) {
        public static final Setting<String> AGENT = Setting.string("robots-agent", "kcrawler",
                Check.of(v -> v != null && v.matches("[A-Za-z_-]+"),
                        "must be a product token of letters, '_' and '-'"),
                "the product token robots.txt groups are matched against");
        public static final Setting<Integer> MAX_BYTES = Setting.integer("robots-max-bytes", 512 * 1024,
                Check.atLeast(1024), "robots.txt is read up to this many bytes");
        public static final Setting<Integer> CACHE_SIZE = Setting.integer("robots-cache-size", 100_000,
                Check.atLeast(1), "hosts whose robots.txt rules are kept in memory");
        public static final Setting<Long> TTL_MS = Setting.longValue("robots-ttl-ms", 24L * 3600 * 1000,
                Check.atLeast(1), "a robots.txt is fetched again after this long");
        public static final Setting<Long> ERROR_TTL_MS = Setting.longValue("robots-error-ttl-ms", 120_000L,
                Check.atLeast(1), "after a robots.txt error (5xx, timeout) it is tried again after this long");
        public static final Setting<Long> MAX_CRAWL_DELAY_MS = Setting.longValue("max-crawl-delay-ms", 30_000L,
                Check.atLeast(0), "robots.txt Crawl-delay is honoured up to this");
        public static final SettingSet SETTINGS = SettingSet.of(AGENT, MAX_BYTES, CACHE_SIZE, TTL_MS, ERROR_TTL_MS,
                MAX_CRAWL_DELAY_MS);

        public Robots {
            AGENT.check(agent);
            MAX_BYTES.check(maxBytes);
            CACHE_SIZE.check(cacheSize);
            TTL_MS.check(ttlMs);
            ERROR_TTL_MS.check(errorTtlMs);
            MAX_CRAWL_DELAY_MS.check(maxCrawlDelayMs);
        }

        static Robots from(Settings s) {
            return new Robots(s.get(AGENT), s.get(MAX_BYTES), s.get(CACHE_SIZE), s.get(TTL_MS), s.get(ERROR_TTL_MS),
                    s.get(MAX_CRAWL_DELAY_MS));
        }
    }

    /**
     * The WARC archive.
     *
     * @param dir where WARC files go, or null for no archive
     * @param cdx write a sorted pywb CDXJ index {@code NAME.cdxj} beside each finished WARC file
     *            ({@code crawler cdx FILE} rebuilds one)
     */
    public record Warc(Path dir, String prefix, long maxBytes, int gzipLevel, boolean cdx) {
        public static final Setting<String> DIR = Setting.string("warc-dir", Path.of("data", "warc").toString(),
                Check.any(), "where WARC files go; none (or empty) = no archive");
        public static final Setting<String> PREFIX = Setting.string("warc-prefix", "kcrawler",
                Check.of(v -> v != null && v.matches("[A-Za-z0-9._-]+"), "may only contain [A-Za-z0-9._-]"),
                "start of every WARC file name");
        public static final Setting<Long> MAX_BYTES = Setting.longValue("warc-max-bytes", 1024L * 1024 * 1024,
                Check.of(v -> v >= 1024 * 1024, "must be >= 1 MiB"), "a WARC file is closed beyond this size");
        public static final Setting<Integer> GZIP_LEVEL = Setting.integer("warc-gzip-level", 1, Check.range(1, 9),
                "gzip level of the WARC records");
        public static final Setting<Boolean> CDX = Setting.bool("warc-cdx", true,
                "write a sorted CDXJ index NAME.cdxj beside each finished WARC file");
        public static final SettingSet SETTINGS = SettingSet.of(DIR, PREFIX, MAX_BYTES, GZIP_LEVEL, CDX);

        public Warc {
            PREFIX.check(prefix);
            MAX_BYTES.check(maxBytes);
            GZIP_LEVEL.check(gzipLevel);
        }

        static Warc from(Settings s) {
            String d = s.get(DIR);
            Path dir = d == null || d.isBlank() || d.trim().equalsIgnoreCase("none") ? null : Path.of(d.trim());
            return new Warc(dir, s.get(PREFIX), s.get(MAX_BYTES), s.get(GZIP_LEVEL), s.get(CDX));
        }
    }

    /**
     * How much the fetcher takes on.
     *
     * @param maxInFlight     concurrent network fetches (pages and robots.txt); requests waiting for politeness hold
     *                        none
     * @param maxPending      fetch requests accepted from Kafka and not yet finished (waiting for not-before, DNS,
     *                        robots.txt, the guard or a fetch slot); partitions pause at the limit
     * @param maxBodyBytes    response bodies (decoded) are cut here: outcome TOO_LARGE, not parsed, not archived
     * @param maxPages        pages (responses) this instance fetches before answering BUDGET_EXHAUSTED; 0 = no limit
     * @param maxPagesPerHost responses this instance fetches from one host before answering HOST_BUDGET_EXHAUSTED;
     *                        0 = no limit
     * @param maxBackoffMs    the per-IP back-off (429/503, Retry-After, errors, slowness) never exceeds this
     * @param bounds          limits on server-controlled values before they enter a record (issue 20; docs/HOSTILE.md,
     *                        "Bounded values"); redirect targets longer than {@code max-url-length} are dropped
     */
    public record Limits(int maxInFlight, int maxPending, int maxBodyBytes, long maxPages, long maxPagesPerHost,
                         int maxOutlinks, long maxBackoffMs, ValueBounds.Limits bounds) {
        public static final Setting<Integer> MAX_IN_FLIGHT = Setting.integer("max-in-flight", 512,
                Check.range(1, 1_000_000), "concurrent network fetches (pages and robots.txt)");
        public static final Setting<Integer> MAX_PENDING = Setting.integer("max-pending", 16_384,
                Check.of(v -> v <= 10_000_000, "must be in max-in-flight..10000000"),
                "fetch requests accepted and not yet finished; partitions pause at the limit");
        public static final Setting<Integer> MAX_BODY_BYTES = Setting.integer("max-body-bytes", 10 * 1024 * 1024,
                Check.atLeast(1), "response bodies (decoded) are cut here: TOO_LARGE, not parsed, not archived");
        public static final Setting<Long> MAX_PAGES = Setting.longValue("max-pages", 0L,
                Check.of(v -> v >= 0, "must be >= 0 (0 = unlimited)"),
                "pages (responses) this instance fetches before answering BUDGET_EXHAUSTED; 0 = no limit");
        public static final Setting<Long> MAX_PAGES_PER_HOST = Setting.longValue("max-pages-per-host", 100_000L,
                Check.of(v -> v >= 0, "must be >= 0 (0 = unlimited)"),
                "pages this instance fetches from one host before answering HOST_BUDGET_EXHAUSTED");
        public static final Setting<Integer> MAX_OUTLINKS = Setting.integer("max-outlinks", 5000, Check.atLeast(0),
                "links taken from one page");
        public static final Setting<Long> MAX_BACKOFF_MS = Setting.longValue("max-backoff-ms", 600_000L,
                Check.any(), "the per-IP back-off (429/503, Retry-After, errors) never exceeds this (>= T)");
        public static final SettingSet SETTINGS = SettingSet.of(MAX_IN_FLIGHT, MAX_PENDING, MAX_BODY_BYTES, MAX_PAGES,
                MAX_PAGES_PER_HOST, MAX_OUTLINKS, MAX_BACKOFF_MS, ValueBounds.Limits.SETTINGS);

        public Limits {
            MAX_IN_FLIGHT.check(maxInFlight);
            check(maxPending >= maxInFlight && MAX_PENDING.accepts(maxPending), "max-pending must be in max-in-flight ("
                    + maxInFlight + ")..10000000, was " + maxPending);
            MAX_BODY_BYTES.check(maxBodyBytes);
            MAX_PAGES.check(maxPages);
            MAX_PAGES_PER_HOST.check(maxPagesPerHost);
            MAX_OUTLINKS.check(maxOutlinks);
            check(bounds != null, "value bounds are required");
        }

        static Limits from(Settings s, CrawlScope scope) {
            return new Limits(s.get(MAX_IN_FLIGHT), s.get(MAX_PENDING), s.get(MAX_BODY_BYTES), s.get(MAX_PAGES),
                    s.get(MAX_PAGES_PER_HOST), s.get(MAX_OUTLINKS), s.get(MAX_BACKOFF_MS),
                    ValueBounds.Limits.from(s, scope.maxUrlLength()));
        }
    }

    public static final Setting<Long> POLITENESS_MS = CommonSettings.POLITENESS_MS;
    public static final Setting<Boolean> FOLLOW_NOFOLLOW = Setting.bool("follow-nofollow", false,
            "follow links marked rel=nofollow");
    public static final Setting<Integer> IO_THREADS = Setting.integer("io-threads",
            Setting.derived("max(1, cores / 2)", s -> Math.max(1, CORES / 2)), Check.range(1, 256),
            "Netty event-loop threads (HTTP, DNS, timers)");
    public static final Setting<Integer> WORKER_THREADS = Setting.integer("worker-threads",
            Setting.derived("cores", s -> CORES), Check.range(1, 256),
            "threads that parse pages, hash, archive and produce");
    public static final Setting<Long> COMMIT_INTERVAL_MS = Setting.longValue("commit-interval-ms", 50L,
            Check.atLeast(10), "finished results and their offsets are committed in one transaction at most this late");
    public static final Setting<Long> REVOKE_WAIT_MS = Setting.longValue("revoke-wait-ms", 2000L, Check.atLeast(0),
            "on a revocation or shutdown, running fetches get this long to finish");
    public static final Setting<String> INSTANCE_ID = Setting.string("instance-id", "",
            Check.of(v -> v != null && (v.isEmpty() || v.matches("[A-Za-z0-9._-]{1," + InstanceId.MAX_LENGTH + "}")),
                    "must be empty (automatic) or up to " + InstanceId.MAX_LENGTH + " of [A-Za-z0-9._-]"),
            "this instance's name in its transactional.id; empty = host name and a free slot under state-dir");

    /** Every key the fetcher reads, by group, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(POLITENESS_MS, FOLLOW_NOFOLLOW, Http.SETTINGS,
            Dns.SETTINGS, Robots.SETTINGS, Warc.SETTINGS, Limits.SETTINGS, SitemapSettings.SETTINGS, IO_THREADS,
            WORKER_THREADS, COMMIT_INTERVAL_MS, REVOKE_WAIT_MS, INSTANCE_ID, UrlBatches.Limits.SETTINGS,
            CrawlScope.SETTINGS, AddressPolicy.SETTINGS, CommonSettings.METRICS, KafkaSettings.SETTINGS);

    /** Every key with its default as {@code --help} shows it (a formula for a derived one). */
    public static final Map<String, String> DEFAULTS = SETTINGS.defaults();

    /** Keys read by {@link #from(Settings)} (fetcher keys, Kafka keys, metrics endpoint). */
    public static final Set<String> KEYS = SETTINGS.keys();

    public FetcherConfig {
        check(kafka != null, "kafka settings are required");
        POLITENESS_MS.check(politenessMs);
        check(http != null && dns != null && robots != null && warc != null && limits != null,
                "http, dns, robots, warc and limits settings are required");
        IO_THREADS.check(ioThreads);
        WORKER_THREADS.check(workerThreads);
        COMMIT_INTERVAL_MS.check(commitIntervalMs);
        REVOKE_WAIT_MS.check(revokeWaitMs);
        INSTANCE_ID.check(instanceId);
        check(scope != null, "crawl scope is required");
        check(addressPolicy != null, "address policy is required");
        check(limits.bounds().urlLength() == scope.maxUrlLength(), "value bounds must use the scope's max-url-length ("
                + scope.maxUrlLength() + "), was " + limits.bounds().urlLength());
        check(batchLimits != null, "batch limits are required");
        check(sitemaps != null, "sitemap settings are required");
        check(limits.maxBackoffMs() >= politenessMs, "max-backoff-ms (" + limits.maxBackoffMs()
                + ") must be >= politeness-ms (" + politenessMs + ")");
        if (politenessMs < 100) {
            LOG.warn("politeness-ms={} is below 100 ms per IP: this crawler will hammer servers. Use it only against "
                    + "servers you run.", politenessMs);
        }
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Reads and validates every fetcher key (unset keys take their declared defaults). */
    public static FetcherConfig from(Settings s) {
        CrawlScope scope = CrawlScope.from(s);
        return new FetcherConfig(KafkaSettings.from(s), s.get(POLITENESS_MS), Http.from(s), Dns.from(s),
                Robots.from(s), Warc.from(s), Limits.from(s, scope), s.get(IO_THREADS), s.get(WORKER_THREADS),
                s.get(COMMIT_INTERVAL_MS), s.get(REVOKE_WAIT_MS), s.get(INSTANCE_ID).trim(), s.get(FOLLOW_NOFOLLOW),
                scope, AddressPolicy.from(s), UrlBatches.Limits.from(s), SitemapSettings.from(s));
    }

    /** Defaults only, with the given Kafka settings (tests and embedding). */
    public static FetcherConfig defaults(Map<String, String> overrides) {
        String[] args = overrides.entrySet().stream()
                .flatMap(e -> java.util.stream.Stream.of("--" + e.getKey(), e.getValue())).toArray(String[]::new);
        return from(SETTINGS.parse(Map.of(), args));
    }

    /** max(T, Crawl-delay) for a host, the Crawl-delay already clamped to {@code max-crawl-delay-ms}. */
    public long intervalFor(long crawlDelayMillis) {
        return Math.max(politenessMs, Math.min(crawlDelayMillis, robots.maxCrawlDelayMs()));
    }

    /** The help text: every key with its type, default, environment variable and description. */
    public static String help() {
        return SETTINGS.help("fetcher-service: fetches crawl.fetch.requests politely and writes results, links and "
                + "WARC files.");
    }

    static InetSocketAddress proxy(String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        String t = v.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException("proxy must be host:port, was '" + v + "'");
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("proxy must be host:port, was '" + v + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("proxy port must be in 1..65535, was '" + v + "'");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** Every key known to the fetcher, for {@code Settings.parse}. */
    public static List<String> keyList() {
        return List.copyOf(KEYS);
    }
}
