package io.github.kcrawler.fetcher.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRulesMode;
import crawlercommons.robots.SimpleRobotRulesParser;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import it.unimi.dsi.fastutil.longs.Long2ObjectLinkedOpenHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * robots.txt for every site the fetcher visits: fetched once per site (scheme + host + port) through a
 * {@link Source} that goes through the same HTTP client and per-IP guard as pages, parsed with crawler-commons'
 * {@link SimpleRobotRulesParser} for our agent names, and kept in a bounded LRU with an expiry.
 *
 * <p>Verdicts follow RFC 9309 as crawler-commons maps them: 2xx → the parsed rules; other 4xx (and a redirect chain
 * that never ended) → allow all; 429, 5xx and no response at all → deferred: everything on the site is denied
 * until {@code errorTtlMillis} passes and robots.txt is fetched again (never fail open). A Crawl-delay above
 * {@code maxCrawlDelayMillis} is clamped to it rather than treated as "disallow all" (crawler-commons' choice) —
 * the guard then visits the site at the clamped pace.
 *
 * <p>Requests for a site whose robots.txt is being fetched wait for that fetch: one fetch per site, however many
 * requests arrive meanwhile. The fetch is made on behalf of the request that found no verdict: if that request is no
 * longer this instance's when the fetch would go out (its partition moved while it waited at the IP's guard), the
 * source sends nothing, no verdict is cached, and every waiter gets {@link RobotsRules#NOT_FETCHED} — a waiter still
 * owned here asks again, and its own fetch goes out. Thread-safe; callbacks run outside the lock, on the thread that completed the fetch
 * (or the caller's, when the answer was cached).
 *
 * <p>Memory: most sites serve one of a few robots.txt files (a CMS's default, a host's template, "allow all" with a
 * comment naming the site), so parsed rule sets are shared: a parse equal to one seen recently (crawler-commons'
 * {@code equals}: mode, rules in order, Crawl-delay, sitemaps) reuses that instance, and the allow-all and deferred
 * verdicts are single constants. A site then costs its entry in a primitive map keyed by the 64-bit fingerprint of
 * its name (≈ 36 bytes with the table's slack) and its {@link RobotsRules} wrapper (Crawl-delay, expiry; 48 bytes)
 * instead of its name, a map node and a parsed rule set of its own: 143 heap bytes per site on average where one
 * site in ten has a file of its own, 371 before ({@code RobotsMemoryProbe}). The set of shared parses is itself a
 * bounded LRU ({@value #SHARED_RULE_SETS} entries), so sites with unique files cannot grow it.
 */
public final class RobotsCache {
    /**
     * Fetches a robots.txt URL from the given IP; the future may complete exceptionally (treated as no response).
     * {@code wanted} says, at the moment the request would go out, whether the request that asked for the file is
     * still this instance's to fetch; when it is not, the source sends nothing and answers
     * {@link RobotsResponse#notFetched()}.
     */
    @FunctionalInterface
    public interface Source {
        CompletableFuture<RobotsResponse> fetch(String robotsUrl, String ip, BooleanSupplier wanted);
    }

    /** How a robots.txt fetch ended; the {@code result} tag of {@code ROBOTS_FETCHES}. */
    public enum FetchResultKind { PARSED, ALLOW_ALL, DEFERRED_HTTP, DEFERRED_NETWORK, NOT_FETCHED }

    private static final Logger LOG = LoggerFactory.getLogger(RobotsCache.class);
    private static final SimpleRobotRulesParser PARSER = new SimpleRobotRulesParser(Long.MAX_VALUE, 5);
    /** Distinct parsed rule sets kept for sharing between sites. */
    static final int SHARED_RULE_SETS = 4096;
    /** Never mutated after construction, so one instance serves every site that gets it. */
    private static final BaseRobotRules ALLOW_ALL = new SimpleRobotRules(RobotRulesMode.ALLOW_ALL);
    private static final BaseRobotRules DEFER_ALL = deferAll();
    /** "robots.txt NNN" for every HTTP status, so that a site's verdict does not carry a string of its own. */
    private static final String[] STATUS_REASONS = statusReasons();

    private final Collection<String> agents;
    private final long ttlMillis;
    private final long errorTtlMillis;
    private final long maxCrawlDelayMillis;
    private final CrawlClock clock;
    private final Source source;
    /** Verdicts by the 64-bit fingerprint of the site key, least recently used first. */
    private final Long2ObjectLinkedOpenHashMap<RobotsRules> lru = new Long2ObjectLinkedOpenHashMap<>(1024);
    private final int capacity;
    private final Map<BaseRobotRules, BaseRobotRules> shared = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<BaseRobotRules, BaseRobotRules> eldest) {
            return size() > SHARED_RULE_SETS;
        }
    };
    private final Map<String, List<Consumer<RobotsRules>>> pending = new HashMap<>();
    private final Map<FetchResultKind, Counter> fetches = new EnumMap<>(FetchResultKind.class);

    public RobotsCache(Collection<String> agents, int capacity, long ttlMillis, long errorTtlMillis,
                       long maxCrawlDelayMillis, CrawlClock clock, Source source, MeterRegistry registry) {
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("at least one robots agent name is needed");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("robots cache capacity must be >= 1, was " + capacity);
        }
        this.agents = SimpleRobotRulesParser.sanitizeRobotNames(agents);
        this.ttlMillis = ttlMillis;
        this.errorTtlMillis = errorTtlMillis;
        this.maxCrawlDelayMillis = maxCrawlDelayMillis;
        this.clock = clock;
        this.source = source;
        this.capacity = capacity;
        for (FetchResultKind k : FetchResultKind.values()) {
            fetches.put(k, Counter.builder(MetricNames.ROBOTS_FETCHES).description("robots.txt fetches")
                    .tag("result", k.name().toLowerCase(Locale.ROOT)).register(registry));
        }
    }

    /** The site key for a URL's scheme, host and port ({@code http://example.com:80}). */
    public static String siteKey(String scheme, String host, int port) {
        return scheme + "://" + host + ":" + port;
    }

    /** A still-valid verdict for the site, or null (no I/O). */
    public synchronized RobotsRules cached(String siteKey) {
        RobotsRules r = lru.getAndMoveToLast(Fingerprints.url(siteKey));
        return r != null && r.expiresAt() > clock.millis() ? r : null;
    }

    /** {@link #rules(String, String, BooleanSupplier, Consumer)} for a caller that always wants the verdict. */
    public void rules(String siteKey, String ip, Consumer<RobotsRules> callback) {
        rules(siteKey, ip, () -> true, callback);
    }

    /**
     * Calls {@code callback} with the site's verdict: at once if cached, else when the (single) robots.txt fetch
     * for the site completes. {@code ip} is where the site is reached; {@code wanted} is handed to the
     * {@link Source} when this call starts the fetch (see the class comment).
     */
    public void rules(String siteKey, String ip, BooleanSupplier wanted, Consumer<RobotsRules> callback) {
        RobotsRules hit;
        synchronized (this) {
            hit = lru.getAndMoveToLast(Fingerprints.url(siteKey));
            if (hit != null && hit.expiresAt() <= clock.millis()) {
                hit = null;
            }
            if (hit == null) {
                List<Consumer<RobotsRules>> waiters = pending.get(siteKey);
                if (waiters != null) {
                    waiters.add(callback);
                    return;
                }
                waiters = new ArrayList<>(2);
                waiters.add(callback);
                pending.put(siteKey, waiters);
            }
        }
        if (hit != null) {
            callback.accept(hit);
            return;
        }
        CompletableFuture<RobotsResponse> f;
        try {
            f = source.fetch(siteKey + "/robots.txt", ip, wanted);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((response, error) -> complete(siteKey, response != null ? response
                : RobotsResponse.failed(FetchOutcome.PROTOCOL_ERROR,
                String.valueOf(error))));
    }

    /** Sites with a verdict in the cache. */
    public synchronized int size() {
        return lru.size();
    }

    private void complete(String siteKey, RobotsResponse response) {
        RobotsRules rules = toRules(siteKey + "/robots.txt", response);
        List<Consumer<RobotsRules>> waiters;
        synchronized (this) {
            if (!rules.notFetched()) {
                lru.putAndMoveToLast(Fingerprints.url(siteKey), rules);
                if (lru.size() > capacity) {
                    lru.removeFirst();
                }
            }
            waiters = pending.remove(siteKey);
        }
        if (waiters != null) {
            for (Consumer<RobotsRules> w : waiters) {
                try {
                    w.accept(rules);
                } catch (RuntimeException e) {
                    LOG.error("robots.txt waiter for {} failed", siteKey, e);
                }
            }
        }
    }

    /** The verdict for one robots.txt response; a total function. */
    RobotsRules toRules(String robotsUrl, RobotsResponse r) {
        if (r.isNotFetched()) {
            fetches.get(FetchResultKind.NOT_FETCHED).increment();
            return RobotsRules.NOT_FETCHED;
        }
        long now = clock.millis();
        int status = r.status();
        if (r.networkFailure() != null || status == 0) {
            fetches.get(FetchResultKind.DEFERRED_NETWORK).increment();
            return deferred(now, r.networkFailure(), "robots.txt unreachable: " + r.error());
        }
        if (status >= 200 && status < 300) {
            BaseRobotRules parsed;
            try {
                parsed = PARSER.parseContent(robotsUrl, r.body(), r.contentType(), agents);
            } catch (RuntimeException e) {
                // crawler-commons' parser is total in practice; if it ever throws, deny for a while rather than allow
                fetches.get(FetchResultKind.DEFERRED_HTTP).increment();
                return deferred(now, null, "robots.txt unparsable: " + e);
            }
            fetches.get(FetchResultKind.PARSED).increment();
            long delay = parsed.getCrawlDelay();
            long clamped = delay == BaseRobotRules.UNSET_CRAWL_DELAY || delay < 0 ? 0
                    : Math.min(delay, maxCrawlDelayMillis);
            return new RobotsRules(share(parsed), clamped, now + ttlMillis, false, null, statusReason(status));
        }
        if (status == 429 || status >= 500) {
            fetches.get(FetchResultKind.DEFERRED_HTTP).increment();
            return deferred(now, null, "robots.txt " + status + ", retry later");
        }
        fetches.get(FetchResultKind.ALLOW_ALL).increment();
        return new RobotsRules(ALLOW_ALL, 0, now + ttlMillis, false, null, statusReason(status) + ", allow all");
    }

    /** The instance of an equal rule set parsed before, if one is still kept; else {@code parsed}, now kept. */
    private synchronized BaseRobotRules share(BaseRobotRules parsed) {
        BaseRobotRules seen = shared.putIfAbsent(parsed, parsed);
        return seen != null ? seen : parsed;
    }

    /** Distinct parsed rule sets currently kept for sharing. */
    synchronized int sharedRuleSets() {
        return shared.size();
    }

    private RobotsRules deferred(long now, FetchOutcome failure, String reason) {
        return new RobotsRules(DEFER_ALL, 0, now + errorTtlMillis, true, failure, reason);
    }

    private static BaseRobotRules deferAll() {
        SimpleRobotRules none = new SimpleRobotRules(RobotRulesMode.ALLOW_NONE);
        none.setDeferVisits(true);
        return none;
    }

    private static String statusReason(int status) {
        return status >= 0 && status < STATUS_REASONS.length ? STATUS_REASONS[status] : "robots.txt " + status;
    }

    private static String[] statusReasons() {
        String[] reasons = new String[600];
        for (int i = 0; i < reasons.length; i++) {
            reasons[i] = "robots.txt " + i;
        }
        return reasons;
    }
}
