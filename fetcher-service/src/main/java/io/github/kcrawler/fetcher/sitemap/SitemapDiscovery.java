package io.github.kcrawler.fetcher.sitemap;

import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.fetcher.robots.SitemapParsing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sitemaps (sitemaps.org protocol 0.9) named by a site's robots.txt: fetched, parsed ({@link SitemapParsing}, in the robots package, which owns crawler-commons) and
 * turned into discovered URLs, with every server-controlled quantity bounded (issue 20) and every request as polite
 * as a page's.
 *
 * <p>Politeness, exactly: a sitemap is fetched only from the host whose robots.txt named it, so from the IP this
 * instance already paces (the IP of the fetch request that read robots.txt, owned by this instance's partition),
 * and through the same per-IP guard as pages and robots.txt ({@link Source}: {@code max(T, Crawl-delay, back-off)}
 * since that IP's previous request ended). A sitemap on another host (or a redirect to one) would be a request to
 * an IP another fetcher may own and pace, so it is skipped ({@code other_host}) rather than sent around that
 * fetcher's guard. The files of one site are fetched one after the other, and the run stops once this instance no
 * longer owns the IP ({@code partition_moved}: the new owner reads robots.txt, and the sitemaps, again). The
 * alternative — emitting each sitemap URL as a discovered URL of a special kind, paced by the scheduler's wheel —
 * would need a new kind on three topics and in two other services; the guard is already exact, as for robots.txt.
 *
 * <p>Bounds: {@code sitemap-max-per-host} files per robots.txt read (index files included), {@code sitemap-max-depth}
 * levels of index, {@code sitemap-max-bytes} per file after decompression, {@code sitemap-max-urls} per file; a
 * sitemap URL seen twice in one run (an index naming itself) is fetched once. Sites waiting for a turn are bounded
 * ({@value #MAX_WAITING_SITES}; beyond, a site's sitemaps are skipped with {@code queue_full}) and at most
 * {@value #MAX_ACTIVE_SITES} files are in flight at once, so the memory held is at most that many bodies of
 * {@code sitemap-max-bytes}.
 *
 * <p>The URLs found go to the {@link Sink} as discovered URLs at the depth given (the publisher applies the scope
 * and the URL-seen test follows, as for outlinks); only URLs of the site's own host are kept (the protocol: a
 * sitemap speaks for its host), others counted ({@code other_host}).
 *
 * <p>Metrics (registered up front): {@value MetricNames#SITEMAP_FETCHES} by {@code result}, {@value
 * MetricNames#SITEMAP_SKIPPED} by {@code reason}, {@value MetricNames#SITEMAP_URLS} by {@code outcome}. Never
 * throws into its caller: every failure is a reason code.
 */
public final class SitemapDiscovery {
    private static final Logger LOG = LoggerFactory.getLogger(SitemapDiscovery.class);
    static final int MAX_ACTIVE_SITES = 4;
    static final int MAX_WAITING_SITES = 10_000;
    /** Redirects followed for one sitemap URL (same host only). */
    static final int MAX_REDIRECTS = 3;

    /** Fetches one sitemap file from {@code ip} through the per-IP guard (never completes exceptionally). */
    @FunctionalInterface
    public interface Source {
        CompletableFuture<SitemapResponse> fetch(String url, String ip, long crawlDelayMillis);
    }

    /** Where the URLs of a sitemap go: discovered URLs of {@code ip}, found on {@code sitemapUrl}. */
    @FunctionalInterface
    public interface Sink {
        /** @param done to be run once the URLs are handed on (committed or dropped) */
        void found(String sitemapUrl, String ip, int depth, List<String> urls, Runnable done);
    }

    /** How a sitemap fetch ended: the {@code result} tag. */
    public enum Result { PARSED, HTTP_ERROR, NETWORK, TOO_LARGE, INFLATED_TOO_LARGE, MALFORMED }

    /** Why a sitemap file was not fetched: the {@code reason} tag. */
    public enum Skip { OTHER_HOST, BAD_URL, DUPLICATE, HOST_LIMIT, TOO_DEEP, QUEUE_FULL, PARTITION_MOVED, REDIRECT_LIMIT }

    /** What became of a URL listed in a sitemap: the {@code outcome} tag. */
    public enum UrlOutcome { FOUND, OTHER_HOST, MALFORMED, LIMIT }

    private final SitemapSettings settings;
    private final int maxUrlLength;
    private final Source source;
    private final Sink sink;
    private final Map<Result, Counter> results = new EnumMap<>(Result.class);
    private final Map<Skip, Counter> skips = new EnumMap<>(Skip.class);
    private final Map<UrlOutcome, Counter> urls = new EnumMap<>(UrlOutcome.class);
    private final ArrayDeque<Run> waiting = new ArrayDeque<>();
    private int active;
    /** Runs started and not yet finished, URLs handed on included (idle detection). */
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param maxUrlLength a sitemap URL longer than this ({@code max-url-length}) is not fetched ({@code bad_url}):
     *                     it would become the {@code source} of discovered records
     */
    public SitemapDiscovery(SitemapSettings settings, int maxUrlLength, Source source, Sink sink,
                            MeterRegistry registry) {
        this.settings = settings;
        this.maxUrlLength = maxUrlLength;
        this.source = source;
        this.sink = sink;
        for (Result r : Result.values()) {
            results.put(r, Counter.builder(MetricNames.SITEMAP_FETCHES).description("sitemap files fetched")
                    .tag("result", tag(r)).register(registry));
        }
        for (Skip s : Skip.values()) {
            skips.put(s, Counter.builder(MetricNames.SITEMAP_SKIPPED).description("sitemap files not fetched")
                    .tag("reason", tag(s)).register(registry));
        }
        for (UrlOutcome u : UrlOutcome.values()) {
            urls.put(u, Counter.builder(MetricNames.SITEMAP_URLS).description("URLs listed in sitemaps")
                    .tag("outcome", tag(u)).register(registry));
        }
    }

    /** Sitemap runs not yet finished (fetching, waiting for a turn, or handing URLs on). */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Reads the sitemaps robots.txt named for a site, in the background; returns at once.
     *
     * @param host             the site's host (sitemaps and their URLs must be on it)
     * @param ip               the IP the site is fetched from
     * @param sitemaps         the {@code Sitemap:} URLs of its robots.txt
     * @param depth            the depth its URLs are discovered at
     * @param crawlDelayMillis the site's (clamped) Crawl-delay
     */
    public void discover(String host, String ip, List<String> sitemaps, int depth, long crawlDelayMillis) {
        if (!settings.enabled() || sitemaps == null || sitemaps.isEmpty() || host == null) {
            return;
        }
        try {
            Run run = new Run(host.toLowerCase(Locale.ROOT), ip, depth, crawlDelayMillis);
            for (String s : sitemaps) {
                run.offer(s, 1);
            }
            if (run.queue.isEmpty()) {
                return;
            }
            boolean start;
            synchronized (this) {
                if (active >= MAX_ACTIVE_SITES && waiting.size() >= MAX_WAITING_SITES) {
                    skips.get(Skip.QUEUE_FULL).increment(run.queue.size());
                    return;
                }
                inFlight.incrementAndGet();
                start = active < MAX_ACTIVE_SITES;
                if (start) {
                    active++;
                } else {
                    waiting.add(run);
                }
            }
            if (start) {
                run.next();
            }
        } catch (RuntimeException e) {
            LOG.warn("sitemaps of {} not read", host, e);
        }
    }

    private void filesDone(Run run) {
        Run next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                active--;
            }
        }
        if (next != null) {
            next.next();
        }
    }

    private static String tag(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** One site's sitemaps, fetched one after the other. Only one thread works on a run at a time. */
    private final class Run {
        final String host;
        final String ip;
        final int depth;
        final long crawlDelayMillis;
        final ArrayDeque<Object[]> queue = new ArrayDeque<>(); // {url, level, redirects}
        final Set<String> seen = new HashSet<>();
        int fetched;
        /** URL batches handed to the sink and not yet done, plus one while files remain. */
        final AtomicInteger open = new AtomicInteger(1);

        Run(String host, String ip, int depth, long crawlDelayMillis) {
            this.host = host;
            this.ip = ip;
            this.depth = depth;
            this.crawlDelayMillis = crawlDelayMillis;
        }

        void offer(String raw, int level) {
            offer(raw, level, 0);
        }

        void offer(String raw, int level, int redirects) {
            String url = raw == null || raw.length() > 4 * maxUrlLength ? null
                    : UrlNormalizer.normalize(raw.trim()).orElse(null);
            if (url == null || url.length() > maxUrlLength
                    || !(url.startsWith("http://") || url.startsWith("https://"))) {
                skips.get(Skip.BAD_URL).increment();
            } else if (!host.equals(UrlNormalizer.host(url))) {
                skips.get(Skip.OTHER_HOST).increment();
            } else if (level > settings.maxDepth()) {
                skips.get(Skip.TOO_DEEP).increment();
            } else if (seen.contains(url)) {
                skips.get(Skip.DUPLICATE).increment();
            } else if (seen.size() >= settings.maxPerHost()) {
                skips.get(Skip.HOST_LIMIT).increment(); // seen holds at most sitemap-max-per-host URLs
            } else {
                seen.add(url);
                queue.add(new Object[] {url, level, redirects});
            }
        }

        /** Fetches the next file, or ends the run. */
        void next() {
            Object[] item = queue.poll();
            if (item == null) {
                filesDone(this); // the next site may fetch; this run lasts until its URLs are handed on
                release();
                return;
            }
            String url = (String) item[0];
            int level = (Integer) item[1];
            int redirects = (Integer) item[2];
            fetched++;
            CompletableFuture<SitemapResponse> f;
            try {
                f = source.fetch(url, ip, crawlDelayMillis);
            } catch (RuntimeException e) {
                f = CompletableFuture.completedFuture(SitemapResponse.failed(String.valueOf(e)));
            }
            f.whenComplete((r, e) -> {
                try {
                    handle(url, level, redirects, r != null ? r : SitemapResponse.failed(String.valueOf(e)));
                } catch (RuntimeException | StackOverflowError ex) {
                    results.get(Result.MALFORMED).increment();
                    LOG.debug("sitemap {} failed", url, ex);
                }
                next();
            });
        }

        private void handle(String url, int level, int redirects, SitemapResponse r) {
            if (r.notOwned()) {
                skips.get(Skip.PARTITION_MOVED).increment(1 + queue.size());
                queue.clear();
                return;
            }
            if (r.status() == 0) {
                results.get(Result.NETWORK).increment();
                return;
            }
            if (r.status() >= 300 && r.status() < 400 && r.location() != null) {
                results.get(Result.HTTP_ERROR).increment();
                if (redirects >= MAX_REDIRECTS) {
                    skips.get(Skip.REDIRECT_LIMIT).increment();
                } else {
                    String target = UrlNormalizer.normalize(url, r.location()).orElse(null);
                    offer(target, level, redirects + 1);
                }
                return;
            }
            if (r.status() < 200 || r.status() >= 300) {
                results.get(Result.HTTP_ERROR).increment();
                return;
            }
            SitemapParsing.Parsed p = SitemapParsing.parse(url, r.body(), r.length(), r.contentType(),
                    r.truncated(), settings.maxBytes(), settings.maxUrls());
            Result result = r.inflated() ? Result.INFLATED_TOO_LARGE : p.problem() == null ? Result.PARSED
                    : Result.valueOf(p.problem().name());
            results.get(result).increment();
            if (p.index()) {
                for (String child : p.urls()) {
                    offer(child, level + 1);
                }
                if (p.dropped() > 0) {
                    skips.get(Skip.HOST_LIMIT).increment(p.dropped());
                }
                return;
            }
            urls.get(UrlOutcome.LIMIT).increment(p.dropped());
            List<String> keep = new ArrayList<>(p.urls().size());
            for (String u : p.urls()) {
                String n = UrlNormalizer.normalize(u).orElse(null);
                if (n == null) {
                    urls.get(UrlOutcome.MALFORMED).increment();
                } else if (!host.equals(UrlNormalizer.host(n))) {
                    urls.get(UrlOutcome.OTHER_HOST).increment();
                } else {
                    keep.add(n);
                }
            }
            if (keep.isEmpty()) {
                return;
            }
            urls.get(UrlOutcome.FOUND).increment(keep.size());
            open.incrementAndGet();
            try {
                sink.found(url, ip, depth, keep, this::release);
            } catch (RuntimeException e) {
                LOG.warn("URLs of sitemap {} not handed on", url, e);
                release();
            }
        }

        /** One open part of the run is over; the last one ends it. */
        void release() {
            if (open.decrementAndGet() == 0) {
                inFlight.decrementAndGet();
            }
        }
    }
}
