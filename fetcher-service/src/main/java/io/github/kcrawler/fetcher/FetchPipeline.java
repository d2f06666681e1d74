package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.scope.AddressDecision;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.IpLiterals;
import io.github.kcrawler.fetcher.guard.HostBackoff;
import io.github.kcrawler.fetcher.guard.IpGuard;
import io.github.kcrawler.fetcher.guard.TaskScheduler;
import io.github.kcrawler.fetcher.http.HttpFailure;
import io.github.kcrawler.fetcher.http.HttpFetch;
import io.github.kcrawler.fetcher.http.HttpFetchResponse;
import io.github.kcrawler.fetcher.http.NettyHttpClient;
import io.github.kcrawler.fetcher.http.ValueBounds;
import io.github.kcrawler.fetcher.robots.RobotsCache;
import io.github.kcrawler.fetcher.robots.RobotsResponse;
import io.github.kcrawler.fetcher.robots.RobotsRules;
import io.github.kcrawler.fetcher.sitemap.SitemapDiscovery;
import io.github.kcrawler.fetcher.sitemap.SitemapResponse;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * The life of one fetch request, as a chain of asynchronous steps that never block a thread: wait for
 * {@code notBefore} (a timer), check the page budget, parse the URL, find the address (the record key when it is
 * an IP, else DNS) and apply the address policy, get the site's robots.txt verdict (cached, or one shared fetch),
 * wait at the per-IP guard for {@code max(T, Crawl-delay)}, take one of the {@code max-in-flight} fetch slots,
 * send the request, give slot and guard back, and hand the response to {@link PagePublisher} on a worker thread.
 * Every exit produces exactly one {@code FetchResult}.
 *
 * <p>Addresses: the fetcher connects to the IP in the record key when it is one — the address the host resolved
 * to when the URL was discovered, which is also the address the scheduler paced — so a fetch needs no DNS lookup;
 * a record without an IP key (or a URL with an IP-literal host) is resolved or used as is.
 *
 * <p>robots.txt is fetched through the same guard and client as pages ({@link RobotsFetches}), on behalf of the
 * request that found no verdict, and not sent if that request's partition has left this instance by then.
 *
 * <p>Hostile servers: every answer feeds the IP's {@link HostBackoff} (429/503 and Retry-After, errors,
 * slowness), which can only lengthen the guard's interval beyond {@code max(T, Crawl-delay)}; a host that has
 * given {@code max-pages-per-host} responses to this instance answers HOST_BUDGET_EXHAUSTED without network.
 *
 * <p>Budget: a page fetch reserves one unit of {@code max-pages} just before the request is sent and gives it
 * back if no response arrives, so the instance never receives more than {@code max-pages} responses and, once the
 * budget is spent, answers BUDGET_EXHAUSTED without touching the network.
 */
final class FetchPipeline {
    /** How often a granted fetch re-checks whether the consumer has confirmed it still owns its partitions. */
    static final long OWNERSHIP_RECHECK_MS = 20;
    /** IPs with a back-off above T kept at once (least recently touched forgotten first: they fall back to T). */
    static final int BACKOFF_CAPACITY = 100_000;
    /** Hosts whose page count is kept for {@code max-pages-per-host} ({@link PageBudget}). */
    static final int HOST_BUDGET_CAPACITY = 100_000;

    private final FetcherConfig config;
    private final CrawlClock clock;
    private final TaskScheduler scheduler;
    private final HostResolver resolver;
    private final IpGuard guard;
    private final NettyHttpClient client;
    private final Executor workers;
    private final FetchMetrics metrics;
    private final PagePublisher publisher;
    private final FetchSlots slots;
    private final PageBudget budget;
    private final HostBackoff backoff;
    private final ValueBounds bounds;
    private RobotsCache robots;
    private SitemapDiscovery sitemaps;
    private BooleanSupplier ownershipConfirmed = () -> true;
    private java.util.function.Predicate<String> ownsIp = ip -> true;
    private final SitemapFetches sitemapFetches;
    private final RobotsFetches robotsFetches;

    FetchPipeline(FetcherConfig config, CrawlClock clock, TaskScheduler scheduler, HostResolver resolver,
                  IpGuard guard, FetchSlots slots, NettyHttpClient client, Executor workers, FetchMetrics metrics,
                  PagePublisher publisher) {
        this.config = config;
        this.clock = clock;
        this.scheduler = scheduler;
        this.resolver = resolver;
        this.guard = guard;
        this.slots = slots;
        this.client = client;
        this.workers = workers;
        this.metrics = metrics;
        this.publisher = publisher;
        this.backoff = new HostBackoff(clock, config.politenessMs(), config.limits().maxBackoffMs(), BACKOFF_CAPACITY);
        this.bounds = new ValueBounds(config.limits().bounds(), metrics::bounded);
        this.budget = new PageBudget(config.limits().maxPages(), config.limits().maxPagesPerHost(),
                HOST_BUDGET_CAPACITY);
        this.sitemapFetches = new SitemapFetches(config, scheduler, guard, slots, client, workers, backoff,
                this::recordBackoff, () -> ownershipConfirmed.getAsBoolean(), ip -> ownsIp.test(ip));
        this.robotsFetches = new RobotsFetches(config, scheduler, resolver, guard, slots, client, this::recordBackoff,
                () -> ownershipConfirmed.getAsBoolean());
    }

    /** The per-IP back-off (tests). */
    HostBackoff backoff() {
        return backoff;
    }

    void robots(RobotsCache robots) {
        this.robots = robots;
    }

    /** Reads the sitemaps a robots.txt names ({@code sitemaps}); null = none. */
    void sitemaps(SitemapDiscovery sitemaps) {
        this.sitemaps = sitemaps;
    }

    /** Whether this instance owns the partition of an IP key now (a sitemap run stops once it does not). */
    void ownsIp(java.util.function.Predicate<String> owns) {
        this.ownsIp = owns;
    }

    /**
     * Whether the consumer knows it still owns its partitions (false for a while after the process was paused
     * longer than half the session timeout); a granted fetch waits until it is true again.
     */
    void ownership(BooleanSupplier confirmed) {
        this.ownershipConfirmed = confirmed;
    }

    /** Responses received so far by this instance (the budget's count). */
    long pagesFetched() {
        return budget.pages();
    }

    /**
     * Starts the job; returns at once. A request delivered again while this instance's earlier delivery of it is
     * still in flight (see {@link OffsetTracker.Slot#earlier()}) first waits for that one: if it finishes, or its
     * results answer this delivery (its partition had left before they were committed), the request is done without
     * a second fetch; if it gives up, the request is fetched.
     */
    void submit(FetchJob job) {
        awaitEarlier(job, EARLIER_RECHECK_MS);
    }

    private void awaitEarlier(FetchJob job, long recheckMs) {
        OffsetTracker.Slot earlier = job.slot == null ? null : job.slot.earlier();
        if (earlier != null && job.slot.isAnswered()) {
            publisher.answered(job); // the earlier delivery's results will commit its offset
            return;
        }
        if (earlier == null) {
            start(job);
            return;
        }
        if (job.slot.isRevoked()) {
            publisher.abandoned(job); // the partition left again: its next owner decides
        } else if (earlier.isDone()) {
            job.slot.forgetEarlier();
            metrics.redeliveredSkipped.increment();
            publisher.doneElsewhere(job);
        } else if (earlier.hasGivenUp()) {
            job.slot.forgetEarlier();
            start(job);
        } else {
            scheduler.schedule(() -> awaitEarlier(job, Math.min(2 * recheckMs, EARLIER_RECHECK_MAX_MS)), recheckMs);
        }
    }

    /** How soon a request delivered again first re-checks the earlier delivery it waits for (then less often). */
    static final long EARLIER_RECHECK_MS = 20;
    static final long EARLIER_RECHECK_MAX_MS = 1_000;

    private void start(FetchJob job) {
        long wait = job.notBefore - clock.millis();
        if (wait > 0) {
            scheduler.schedule(() -> begin(job), wait);
        } else {
            begin(job);
        }
    }

    private void begin(FetchJob job) {
        try {
            if (job.slot != null && (job.slot.isRevoked() || job.slot.isLeaving())) {
                publisher.abandoned(job); // its partition left while it waited: the next owner fetches it
                return;
            }
            if (budget.spent()) {
                finish(job, FetchOutcome.BUDGET_EXHAUSTED, "page budget of " + config.limits().maxPages() + " used");
                return;
            }
            if (!job.parseUrl()) {
                finish(job, FetchOutcome.MALFORMED_URL, "not an http(s) URL: " + job.request.url());
                return;
            }
            if (budget.hostSpent(job.host)) {
                finish(job, FetchOutcome.HOST_BUDGET_EXHAUSTED, "page budget of " + config.limits().maxPagesPerHost()
                        + " for host " + job.host + " used");
                return;
            }
            InetAddress known = IpLiterals.parse(job.host);
            if (known == null) {
                known = IpLiterals.parse(job.key);
            }
            if (known != null) {
                withAddress(job, known);
                return;
            }
            long t0 = clock.millis();
            resolver.resolve(job.host).whenComplete((r, e) -> {
                job.dnsMillis = clock.millis() - t0;
                if (r != null && r.ok()) {
                    withAddress(job, r.address());
                } else {
                    finish(job, FetchOutcome.DNS_FAILURE, r == null ? String.valueOf(e) : r.error());
                }
            });
        } catch (RuntimeException e) {
            onWorker(job, () -> publisher.crashed(job, e));
        }
    }

    private void withAddress(FetchJob job, InetAddress address) {
        AddressDecision decision = config.addressPolicy().check(address);
        if (!decision.permitted()) {
            finish(job, FetchOutcome.OUT_OF_SCOPE, "address policy refuses " + address.getHostAddress()
                    + " (" + decision.tag() + ")");
            return;
        }
        job.address = address;
        job.ip = address.getHostAddress();
        RobotsRules cached = robots.cached(job.siteKey);
        if (cached != null) {
            withRobots(job, cached);
        } else {
            robots.rules(job.siteKey, job.ip, () -> !left(job), rules -> withRobots(job, rules));
        }
    }

    /** The job's partition has left this instance (revoked) or is leaving: the next owner fetches it. */
    private static boolean left(FetchJob job) {
        return job.slot != null && (job.slot.isRevoked() || job.slot.isLeaving());
    }

    private void withRobots(FetchJob job, RobotsRules rules) {
        try {
            if (rules.notFetched()) {
                // the request that asked for robots.txt left before it was sent: this one asks again if still ours
                if (left(job)) {
                    publisher.abandoned(job);
                } else {
                    robots.rules(job.siteKey, job.ip, () -> !left(job), r -> withRobots(job, r));
                }
                return;
            }
            if (rules.deferred()) {
                // robots.txt unreadable: a network failure is reported as such, a 5xx/429 as a robots denial
                FetchOutcome outcome = rules.networkFailure() != null ? rules.networkFailure()
                        : FetchOutcome.ROBOTS_DENIED;
                if (outcome == FetchOutcome.ROBOTS_DENIED) {
                    metrics.robotsDenied.increment();
                }
                finish(job, outcome, rules.reason());
                return;
            }
            if (!rules.isAllowed(job.request.url())) {
                metrics.robotsDenied.increment();
                finish(job, FetchOutcome.ROBOTS_DENIED, "disallowed by " + rules.reason());
                return;
            }
            // max(T, Crawl-delay, back-off): the back-off only ever lengthens the wait
            guard.acquire(job.ip, backoff.intervalFor(job.ip, config.intervalFor(rules.crawlDelayMillis())),
                    () -> slots.acquire(() -> granted(job)));
            if (sitemaps != null) {
                // once per robots.txt read, by the first request allowed; queued at the guard after that page
                List<String> named = rules.claimSitemaps();
                if (!named.isEmpty()) {
                    sitemaps.discover(job.host, job.ip, named, job.request.depth() + 1, rules.crawlDelayMillis());
                }
            }
        } catch (RuntimeException e) {
            onWorker(job, () -> publisher.crashed(job, e));
        }
    }

    /**
     * Holds the IP's guard and a fetch slot: sends the request, then gives both back. A request whose partition
     * this instance no longer owns is dropped without touching the network (the new owner redoes it from the
     * committed offset; sending it here too would be a duplicate fetch and could break the new owner's pacing of
     * the IP). After a pause longer than half the session timeout (SIGSTOP, a long GC) ownership is unknown until
     * the consumer has confirmed it, so the request waits, holding the IP.
     */
    private void granted(FetchJob job) {
        if (left(job)) {
            slots.release();
            guard.release(job.ip);
            publisher.abandoned(job);
            return;
        }
        if (!ownershipConfirmed.getAsBoolean()) {
            scheduler.schedule(() -> granted(job), OWNERSHIP_RECHECK_MS);
            return;
        }
        if (!budget.reserve()) {
            slots.release();
            guard.release(job.ip);
            finish(job, FetchOutcome.BUDGET_EXHAUSTED, "page budget of " + config.limits().maxPages() + " used");
            return;
        }
        HttpFetch fetch;
        try {
            fetch = new HttpFetch(job.https, job.host, job.port, job.address, job.requestTarget,
                    validators(job.request), config.limits().maxBodyBytes());
        } catch (RuntimeException e) {
            slots.release();
            guard.release(job.ip);
            budget.unreserve();
            finish(job, FetchOutcome.MALFORMED_URL, e.getMessage());
            return;
        }
        client.fetch(fetch).whenComplete((response, error) -> {
            recordBackoff(job.ip, response);
            slots.release();
            guard.release(job.ip);
            if (response == null || response.status() == 0) {
                budget.unreserve();
            } else {
                budget.countHostPage(job.host);
            }
            if (response != null && response.failure() == HttpFailure.CLOSED) {
                publisher.abandoned(job);
                return;
            }
            onWorker(job, () -> publisher.publish(job, response, error));
        });
    }

    /** Ends a job without a response; producing runs on a worker, never on an I/O or the consumer thread. */
    private void finish(FetchJob job, FetchOutcome outcome, String error) {
        onWorker(job, () -> publisher.finish(job, outcome, error));
    }

    private void onWorker(FetchJob job, Runnable task) {
        try {
            workers.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            publisher.abandoned(job); // shutting down: the record is redone after a restart
        }
    }

    /**
     * The conditional GET's headers of a REVISIT: the request's own {@code etag}/{@code lastModified} (requests
     * without revisit state, and those written before issue 22's follow-up), else the memo's — the scheduler sends
     * each validator once, inside the memo when it has one.
     */
    static List<Map.Entry<String, String>> validators(FetchRequest r) {
        if (r.kind() != FetchKind.REVISIT) {
            return List.of();
        }
        boolean own = r.etag() != null || r.lastModified() != null;
        String etag = own || r.revisit() == null ? r.etag() : r.revisit().etag();
        String lastModified = own || r.revisit() == null ? r.lastModified() : r.revisit().lastModified();
        if (etag == null && lastModified == null) {
            return List.of();
        }
        List<Map.Entry<String, String>> h = new ArrayList<>(2);
        if (etag != null && !etag.isBlank()) {
            h.add(Map.entry("If-None-Match", etag));
        }
        if (lastModified != null && !lastModified.isBlank()) {
            h.add(Map.entry("If-Modified-Since", lastModified));
        }
        return h;
    }

    /** Feeds the answer to the IP's back-off before the guard is released, so the next grant already sees it. */
    private void recordBackoff(String ip, HttpFetchResponse r) {
        if (r == null || r.failure() == HttpFailure.CLOSED) {
            return;
        }
        boolean failed = r.failure() == HttpFailure.TIMEOUT || r.failure() == HttpFailure.RESET;
        long latency = r.sentAtMillis() > 0 ? r.completedAtMillis() - r.sentAtMillis() : -1;
        try {
            metrics.backoff(backoff.record(ip, r.status(), failed, bounds.retryAfter(r.header("Retry-After")),
                    latency));
        } catch (RuntimeException e) {
            // never let bookkeeping lose the response; the interval simply stays as it was
        }
    }

    /** The {@link RobotsCache.Source} ({@link RobotsFetches}). */
    CompletableFuture<RobotsResponse> fetchRobots(String robotsUrl, String ip, BooleanSupplier wanted) {
        return robotsFetches.fetch(robotsUrl, ip, wanted);
    }

    /** The {@link SitemapDiscovery.Source} ({@link SitemapFetches}). */
    CompletableFuture<SitemapResponse> fetchSitemap(String url, String ip, long crawlDelayMillis) {
        return sitemapFetches.fetch(url, ip, crawlDelayMillis);
    }
}
