package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.config.KafkaSettings;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the fetcher can be told, validated once: politeness, timeouts, limits, robots.txt, DNS, WARC and the
 * Kafka client loop. Every default is in {@link #DEFAULTS} (which {@code --help} prints); the constructor names the
 * bad value, and an impolite interval is warned about loudly (BUbiNG warns below 100 ms per IP).
 *
 * @param maxInFlight       concurrent network fetches (pages and robots.txt); requests waiting for politeness hold none
 * @param maxPending        fetch requests accepted from Kafka and not yet finished (waiting for not-before, DNS,
 *                          robots.txt, the guard or a fetch slot); partitions pause at the limit
 * @param politenessMs      T: minimum time between two accesses to one IP
 * @param maxCrawlDelayMs   robots.txt Crawl-delay is honoured up to this
 * @param maxBodyBytes      response bodies (decoded) are cut here: outcome TOO_LARGE, not parsed, not archived
 * @param maxPages          pages (responses) this instance fetches before answering BUDGET_EXHAUSTED; 0 = no limit
 * @param proxy             HTTP proxy host:port for all requests (https via CONNECT, http in absolute form), or null
 * @param hostsFile         static host → IP table consulted before DNS, or null
 * @param warcDir           where WARC files go, or null for no archive
 * @param ioThreads         Netty event-loop threads (HTTP, DNS, timers)
 * @param workerThreads     threads that parse pages, hash, archive and produce
 * @param scope             which outlinks are followed (keys {@code max-depth}, {@code scope}, {@code allow}, ...)
 * @param addressPolicy     which addresses may be connected to ({@code allow-addresses}); applied to every fetch
 *                          and every outlink after DNS
 * @param firstByteTimeoutMs request written → response head, at most this long (TIMEOUT)
 * @param maxPagesPerHost   responses this instance fetches from one host before answering HOST_BUDGET_EXHAUSTED;
 *                          0 = no limit
 * @param maxRedirects      longest redirect chain followed (REDIRECT_LIMIT beyond; a target already in its chain
 *                          is REDIRECT_LOOP)
 * @param maxBackoffMs      the per-IP back-off (429/503, Retry-After, errors, slowness) never exceeds this
 * @param tlsInsecure       turns TLS certificate and host-name verification off; logged loudly; default false
 * @param commitIntervalMs  the results of finished requests and their offsets are committed in one transaction at
 *                          most this long after they finish (a transaction only when something moved). Until then
 *                          they are invisible: what a fetcher finished since its last transaction is fetched again
 *                          by the next owner when it dies, so the duplicates per failure are about its pages per
 *                          second times half this interval (plus what was on the network). 50 ms costs at most 20
 *                          transactions a second per fetcher (Kafka Streams commits every 100 ms under exactly-once)
 * @param instanceId        this instance's name in its {@code transactional.id} ({@code <prefix>fetcher-<id>}): unique
 *                          among live fetchers, the same when the same instance restarts; empty = the host name and
 *                          the lowest free slot under {@code state-dir} ({@link InstanceId})
 * @param bounds            limits on server-controlled values before they enter a record (issue 20; docs/HOSTILE.md,
 *                          "Bounded values"): {@code max-etag-bytes} (ETag kept up to this many bytes, else dropped;
 *                          0..2048), {@code max-last-modified-bytes} (likewise; 0..256), {@code max-content-type-bytes}
 *                          (Content-Type cut here; 16..4096), {@code max-retry-after-bytes} (a longer Retry-After is
 *                          ignored; 0..256), {@code max-error-bytes} (error text cut here; 64..65536),
 *                          {@code max-link-list-bytes} (a page's LinkList record holds links up to about this many
 *                          bytes of JSON; 4096..67108864); redirect targets longer than {@code max-url-length} are
 *                          dropped
 * @param batchLimits       a page's discovered URLs go out as one record per target partition, cut into several
 *                          above {@code batch-max-urls} entries or {@code batch-max-bytes} (estimated JSON) so a page
 *                          with 100,000 links never makes a record the broker refuses ({@link UrlBatches})
 * @param warcCdx           {@code warc-cdx}: write a sorted pywb CDXJ index {@code NAME.cdxj} beside each finished
 *                          WARC file (default true; {@code crawler cdx FILE} rebuilds one)
 * @param sitemaps          {@code sitemaps}, {@code sitemap-max-bytes}, {@code sitemap-max-urls},
 *                          {@code sitemap-max-per-host}, {@code sitemap-max-depth} ({@link SitemapSettings})
 */
public record FetcherConfig(KafkaSettings kafka, String userAgent, String robotsAgent, int maxInFlight, int maxPending,
                            long politenessMs, long maxCrawlDelayMs, int connectTimeoutMs, int readTimeoutMs,
                            int totalTimeoutMs, int maxBodyBytes, int robotsMaxBytes, long maxPages,
                            int maxOutlinks, boolean followNofollow, InetSocketAddress proxy, Path hostsFile,
                            int dnsMaxConcurrent, int dnsMaxTtlSeconds, int dnsNegativeTtlSeconds,
                            int dnsQueryTimeoutMs, int robotsCacheSize, long robotsTtlMs, long robotsErrorTtlMs,
                            Path warcDir, String warcPrefix, long warcMaxBytes, int warcGzipLevel, int ioThreads,
                            int workerThreads, int maxIdleConnections, int maxIdlePerRoute, long keepAliveMs,
                            long commitIntervalMs, long revokeWaitMs, boolean nativeTransport, CrawlScope scope,
                            AddressPolicy addressPolicy, int firstByteTimeoutMs, long maxPagesPerHost,
                            int maxRedirects, long maxBackoffMs, boolean tlsInsecure, ValueBounds.Limits bounds,
                            String instanceId,
                            UrlBatches.Limits batchLimits, boolean warcCdx, SitemapSettings sitemaps) {
    private static final Logger LOG = LoggerFactory.getLogger(FetcherConfig.class);

    public static final String DEFAULT_USER_AGENT = "kcrawler/0.1 (+https://github.com/kcrawler)";
    public static final int CORES = Runtime.getRuntime().availableProcessors();

    /** Every key with its default, in the order {@code --help} prints them. */
    public static final Map<String, String> DEFAULTS = defaults();

    /** Keys read by {@link #from(Settings)} (fetcher keys, Kafka keys, metrics endpoint). */
    public static final Set<String> KEYS = keys();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("user-agent", DEFAULT_USER_AGENT);
        d.put("robots-agent", "kcrawler");
        d.put("max-in-flight", "512");
        d.put("max-pending", "16384");
        d.put("politeness-ms", "1000");
        d.put("max-crawl-delay-ms", "30000");
        d.put("connect-timeout-ms", "10000");
        d.put("read-timeout-ms", "15000");
        d.put("first-byte-timeout-ms", "30000");
        d.put("total-timeout-ms", "60000");
        d.put("max-body-bytes", String.valueOf(10 * 1024 * 1024));
        d.put("robots-max-bytes", String.valueOf(512 * 1024));
        d.put("max-pages", "0");
        d.put("max-pages-per-host", "100000");
        d.put("max-redirects", "10");
        d.put("max-backoff-ms", "600000");
        d.put("tls-insecure", "false");
        d.put("max-outlinks", "5000");
        ValueBounds.Limits b = ValueBounds.Limits.DEFAULTS;
        d.put("max-etag-bytes", String.valueOf(b.etagBytes()));
        d.put("max-last-modified-bytes", String.valueOf(b.lastModifiedBytes()));
        d.put("max-content-type-bytes", String.valueOf(b.contentTypeBytes()));
        d.put("max-retry-after-bytes", String.valueOf(b.retryAfterBytes()));
        d.put("max-error-bytes", String.valueOf(b.errorBytes()));
        d.put("max-link-list-bytes", String.valueOf(b.linkListBytes()));
        d.put("follow-nofollow", "false");
        d.put("proxy", "");
        d.put("hosts-file", "");
        d.put("dns-max-concurrent", "256");
        d.put("dns-max-ttl-s", "3600");
        d.put("dns-negative-ttl-s", "60");
        d.put("dns-query-timeout-ms", "5000");
        d.put("robots-cache-size", "100000");
        d.put("robots-ttl-ms", String.valueOf(24L * 3600 * 1000));
        d.put("robots-error-ttl-ms", "120000");
        d.put("warc-dir", "data/warc");
        d.put("warc-prefix", "kcrawler");
        d.put("warc-max-bytes", String.valueOf(1024L * 1024 * 1024));
        d.put("warc-gzip-level", "1");
        d.put("warc-cdx", "true");
        d.putAll(SitemapSettings.DEFAULTS);
        d.put("io-threads", String.valueOf(Math.max(1, CORES / 2)));
        d.put("worker-threads", String.valueOf(CORES));
        d.put("max-idle-connections", "10000");
        d.put("max-idle-per-route", "2");
        d.put("keep-alive-ms", "15000");
        d.put("commit-interval-ms", "50");
        d.put("revoke-wait-ms", "2000");
        d.put("instance-id", "");
        d.put("native-transport", "true");
        d.putAll(UrlBatches.Limits.DEFAULTS); // batch-max-urls, batch-max-bytes
        d.put("metrics-host", "127.0.0.1");
        d.put("metrics-port", "0");
        return java.util.Collections.unmodifiableMap(d);
    }

    private static Set<String> keys() {
        Set<String> k = new TreeSet<>(DEFAULTS.keySet());
        k.addAll(KafkaSettings.KEYS);
        k.addAll(CrawlScope.KEYS);
        k.addAll(AddressPolicy.KEYS);
        return java.util.Collections.unmodifiableSet(k);
    }

    public FetcherConfig {
        check(userAgent != null && !userAgent.isBlank() && userAgent.indexOf('\n') < 0 && userAgent.indexOf('\r') < 0,
                "user-agent must be one non-empty line, was '" + userAgent + "'");
        check(robotsAgent != null && robotsAgent.matches("[A-Za-z_-]+"),
                "robots-agent must be a product token of letters, '_' and '-', was '" + robotsAgent + "'");
        check(maxInFlight >= 1 && maxInFlight <= 1_000_000, "max-in-flight must be in 1..1000000, was " + maxInFlight);
        check(maxPending >= maxInFlight && maxPending <= 10_000_000, "max-pending must be in max-in-flight ("
                + maxInFlight + ")..10000000, was " + maxPending);
        check(politenessMs >= 0, "politeness-ms must be >= 0, was " + politenessMs);
        check(maxCrawlDelayMs >= 0, "max-crawl-delay-ms must be >= 0, was " + maxCrawlDelayMs);
        check(connectTimeoutMs >= 1, "connect-timeout-ms must be >= 1, was " + connectTimeoutMs);
        check(readTimeoutMs >= 1, "read-timeout-ms must be >= 1, was " + readTimeoutMs);
        check(totalTimeoutMs >= 1, "total-timeout-ms must be >= 1, was " + totalTimeoutMs);
        check(maxBodyBytes >= 1, "max-body-bytes must be >= 1, was " + maxBodyBytes);
        check(robotsMaxBytes >= 1024, "robots-max-bytes must be >= 1024, was " + robotsMaxBytes);
        check(maxPages >= 0, "max-pages must be >= 0 (0 = unlimited), was " + maxPages);
        check(maxOutlinks >= 0, "max-outlinks must be >= 0, was " + maxOutlinks);
        check(dnsMaxConcurrent >= 1, "dns-max-concurrent must be >= 1, was " + dnsMaxConcurrent);
        check(dnsMaxTtlSeconds >= 0, "dns-max-ttl-s must be >= 0, was " + dnsMaxTtlSeconds);
        check(dnsNegativeTtlSeconds >= 0, "dns-negative-ttl-s must be >= 0, was " + dnsNegativeTtlSeconds);
        check(dnsQueryTimeoutMs >= 1, "dns-query-timeout-ms must be >= 1, was " + dnsQueryTimeoutMs);
        check(robotsCacheSize >= 1, "robots-cache-size must be >= 1, was " + robotsCacheSize);
        check(robotsTtlMs >= 1, "robots-ttl-ms must be >= 1, was " + robotsTtlMs);
        check(robotsErrorTtlMs >= 1, "robots-error-ttl-ms must be >= 1, was " + robotsErrorTtlMs);
        check(warcPrefix != null && warcPrefix.matches("[A-Za-z0-9._-]+"),
                "warc-prefix may only contain [A-Za-z0-9._-], was '" + warcPrefix + "'");
        check(warcMaxBytes >= 1024 * 1024, "warc-max-bytes must be >= 1 MiB, was " + warcMaxBytes);
        check(warcGzipLevel >= 1 && warcGzipLevel <= 9, "warc-gzip-level must be in 1..9, was " + warcGzipLevel);
        check(ioThreads >= 1 && ioThreads <= 256, "io-threads must be in 1..256, was " + ioThreads);
        check(workerThreads >= 1 && workerThreads <= 256, "worker-threads must be in 1..256, was " + workerThreads);
        check(maxIdleConnections >= 0, "max-idle-connections must be >= 0, was " + maxIdleConnections);
        check(maxIdlePerRoute >= 0, "max-idle-per-route must be >= 0, was " + maxIdlePerRoute);
        check(keepAliveMs >= 0, "keep-alive-ms must be >= 0, was " + keepAliveMs);
        check(commitIntervalMs >= 10, "commit-interval-ms must be >= 10, was " + commitIntervalMs);
        check(revokeWaitMs >= 0, "revoke-wait-ms must be >= 0, was " + revokeWaitMs);
        check(instanceId != null && (instanceId.isEmpty() || instanceId.matches("[A-Za-z0-9._-]{1,"
                + InstanceId.MAX_LENGTH + "}")), "instance-id must be empty (automatic) or up to "
                + InstanceId.MAX_LENGTH + " of [A-Za-z0-9._-], was '" + instanceId + "'");
        check(kafka != null, "kafka settings are required");
        check(scope != null, "crawl scope is required");
        check(addressPolicy != null, "address policy is required");
        check(bounds != null, "value bounds are required");
        check(bounds.urlLength() == scope.maxUrlLength(), "value bounds must use the scope's max-url-length ("
                + scope.maxUrlLength() + "), was " + bounds.urlLength());
        check(batchLimits != null, "batch limits are required");
        check(sitemaps != null, "sitemap settings are required");
        check(firstByteTimeoutMs >= 1, "first-byte-timeout-ms must be >= 1, was " + firstByteTimeoutMs);
        check(maxPagesPerHost >= 0, "max-pages-per-host must be >= 0 (0 = unlimited), was " + maxPagesPerHost);
        check(maxRedirects >= 0 && maxRedirects <= 100, "max-redirects must be in 0..100, was " + maxRedirects);
        check(maxBackoffMs >= politenessMs, "max-backoff-ms (" + maxBackoffMs + ") must be >= politeness-ms ("
                + politenessMs + ")");
        if (tlsInsecure) {
            LOG.warn("tls-insecure=true: TLS certificates and host names are NOT verified. Anyone on the path can "
                    + "impersonate any https site. Use it only against servers you run.");
        }
        check(totalTimeoutMs >= connectTimeoutMs, "total-timeout-ms (" + totalTimeoutMs
                + ") must be >= connect-timeout-ms (" + connectTimeoutMs + ")");
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

    /** Reads and validates every fetcher key (unset keys take {@link #DEFAULTS}). */
    public static FetcherConfig from(Settings s) {
        return new FetcherConfig(KafkaSettings.from(s), str(s, "user-agent"), str(s, "robots-agent"),
                i(s, "max-in-flight"), i(s, "max-pending"), l(s, "politeness-ms"), l(s, "max-crawl-delay-ms"),
                i(s, "connect-timeout-ms"),
                i(s, "read-timeout-ms"), i(s, "total-timeout-ms"), i(s, "max-body-bytes"), i(s, "robots-max-bytes"),
                l(s, "max-pages"), i(s, "max-outlinks"), b(s, "follow-nofollow"),
                proxy(str(s, "proxy")), path(str(s, "hosts-file")), i(s, "dns-max-concurrent"),
                i(s, "dns-max-ttl-s"), i(s, "dns-negative-ttl-s"), i(s, "dns-query-timeout-ms"),
                i(s, "robots-cache-size"), l(s, "robots-ttl-ms"), l(s, "robots-error-ttl-ms"),
                warcDir(str(s, "warc-dir")), str(s, "warc-prefix"), l(s, "warc-max-bytes"), i(s, "warc-gzip-level"),
                i(s, "io-threads"), i(s, "worker-threads"), i(s, "max-idle-connections"), i(s, "max-idle-per-route"),
                l(s, "keep-alive-ms"), l(s, "commit-interval-ms"), l(s, "revoke-wait-ms"),
                b(s, "native-transport"), CrawlScope.from(s), AddressPolicy.from(s), i(s, "first-byte-timeout-ms"),
                l(s, "max-pages-per-host"), i(s, "max-redirects"), l(s, "max-backoff-ms"), b(s, "tls-insecure"),
                bounds(s, CrawlScope.from(s)), str(s, "instance-id").trim(),
                UrlBatches.Limits.from(s), b(s, "warc-cdx"), sitemaps(s));
    }

    private static SitemapSettings sitemaps(Settings s) {
        return new SitemapSettings(b(s, "sitemaps"), i(s, "sitemap-max-bytes"), i(s, "sitemap-max-urls"),
                i(s, "sitemap-max-per-host"), i(s, "sitemap-max-depth"));
    }

    private static ValueBounds.Limits bounds(Settings s, CrawlScope scope) {
        return new ValueBounds.Limits(i(s, "max-etag-bytes"), i(s, "max-last-modified-bytes"),
                i(s, "max-content-type-bytes"), i(s, "max-retry-after-bytes"), i(s, "max-error-bytes"),
                i(s, "max-link-list-bytes"), scope.maxUrlLength());
    }

    /** Defaults only, with the given Kafka settings (tests and embedding). */
    public static FetcherConfig defaults(Map<String, String> overrides) {
        String[] args = overrides.entrySet().stream()
                .flatMap(e -> java.util.stream.Stream.of("--" + e.getKey(), e.getValue())).toArray(String[]::new);
        return from(Settings.parse(KEYS, Map.of(), args));
    }

    /** max(T, Crawl-delay) for a host, the Crawl-delay already clamped to {@link #maxCrawlDelayMs}. */
    public long intervalFor(long crawlDelayMillis) {
        return Math.max(politenessMs, Math.min(crawlDelayMillis, maxCrawlDelayMs));
    }

    /** The help text: every key with its default and its environment variable. */
    public static String help() {
        StringBuilder sb = new StringBuilder("fetcher-service settings (--key value, or environment CRAWLER_KEY):\n");
        Map<String, String> all = new LinkedHashMap<>(DEFAULTS);
        all.put("bootstrap-servers", KafkaSettings.DEFAULT_BOOTSTRAP);
        all.put("topic-prefix", "");
        all.put("partitions", String.valueOf(KafkaSettings.DEFAULT_PARTITIONS));
        all.put("state-dir", KafkaSettings.DEFAULT_STATE_DIR.toString());
        all.put("max-depth", String.valueOf(CrawlScope.DEFAULT_MAX_DEPTH));
        all.put("max-url-length", String.valueOf(CrawlScope.DEFAULT_MAX_URL_LENGTH));
        all.put("max-repeated-segments", String.valueOf(CrawlScope.DEFAULT_MAX_REPEATED_SEGMENTS));
        all.put("max-query-params", String.valueOf(CrawlScope.DEFAULT_MAX_QUERY_PARAMS));
        all.put("scope", CrawlScope.DEFAULT_MODE.name().toLowerCase(Locale.ROOT));
        all.put("allow", "");
        all.put("deny", "");
        all.put("allow-addresses", "");
        for (Map.Entry<String, String> e : all.entrySet()) {
            sb.append(String.format(Locale.ROOT, "  --%-22s %-45s %s%n", e.getKey(),
                    e.getValue().isEmpty() ? "(none)" : e.getValue(), Settings.envName(e.getKey())));
        }
        sb.append(Settings.KAFKA_HELP).append('\n');
        return sb.toString();
    }

    private static String str(Settings s, String key) {
        return s.string(key, DEFAULTS.get(key));
    }

    private static int i(Settings s, String key) {
        return s.integer(key, Integer.parseInt(DEFAULTS.get(key)));
    }

    private static long l(Settings s, String key) {
        return s.longValue(key, Long.parseLong(DEFAULTS.get(key)));
    }

    private static boolean b(Settings s, String key) {
        return s.bool(key, Boolean.parseBoolean(DEFAULTS.get(key)));
    }

    private static Path path(String v) {
        return v == null || v.isBlank() ? null : Path.of(v.trim());
    }

    private static Path warcDir(String v) {
        return v == null || v.isBlank() || v.trim().equalsIgnoreCase("none") ? null : Path.of(v.trim());
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
