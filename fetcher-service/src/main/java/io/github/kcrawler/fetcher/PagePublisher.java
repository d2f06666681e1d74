package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.LinkShare;
import io.github.kcrawler.common.scope.ScopeDecision;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.fetcher.FetchMetrics.LinkRejection;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostResolver.Resolution;
import io.github.kcrawler.fetcher.http.HttpFailure;
import io.github.kcrawler.fetcher.http.HttpFetchResponse;
import io.github.kcrawler.fetcher.http.ValueBounds;
import io.github.kcrawler.fetcher.parse.ContentTypes;
import io.github.kcrawler.fetcher.parse.LinkExtractor;
import io.github.kcrawler.fetcher.warc.WarcArchive;
import io.github.kcrawler.fetcher.warc.WarcExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * Turns a finished fetch into records: the outcome and its reason code, the WARC records of a complete exchange,
 * the outlinks of an HTML page (parsed, scoped, resolved to IPs) and the redirect target of a 3xx, then produces
 * one {@code FetchResult} (key: the request's key), carrying an HTML page's link graph ({@link FetchResult#links()};
 * issue 19: before, a separate {@code LinkList} record on {@code crawl.links}), and one {@code DiscoveredUrls} per
 * partition its followable outlinks (or its redirect target) belong to (key: one of their IPs; {@link UrlBatches},
 * cut into several records above {@code batch-max-urls} / {@code batch-max-bytes}). Runs on worker threads. A page
 * with n followable links over P partitions writes at most P records when no group is cut (issue 19: one record
 * per target partition, not one per link): the URLs on the page's own partition ride in its result
 * ({@link FetchResult#localLinkPartitions()}) whenever its graph holds them all, and dedup admits them from there.
 *
 * <p>Decisions: bodies cut at {@code max-body-bytes} (TOO_LARGE) are neither hashed, parsed nor archived — a
 * prefix is not the page. The content hash is {@code Fingerprints.contentHash} of a 2xx body (whitespace-normalised
 * for text). An outlink whose host
 * does not resolve, or resolves to an address the policy refuses, is not produced (counted under
 * {@code LINKS_REJECTED} with reason {@code dns} / {@code address}, the DNS failure also under
 * {@code DNS_FAILURES}), because without an IP it has no partition. The link graph holds the in-scope outlinks that
 * resolved to an allowed address, including those too deep to follow: the link graph is a fact about the page.
 */
final class PagePublisher {
    private static final Logger LOG = LoggerFactory.getLogger(PagePublisher.class);

    /** Where records go and how the pipeline learns that a job is over. */
    interface Sink {
        void result(String key, FetchResult value, Completion c);

        /** One record of a page's discovered URLs; every entry's IP is on the partition of {@code key}. */
        void discovered(String key, DiscoveredUrls value, Completion c);

        /**
         * The partition count of {@code crawl.urls.discovered} (the crawl's {@code partitions}, which Kafka's
         * partitioner uses for these records), by which a page's URLs are grouped.
         */
        int discoveredPartitions();

        /** The job ended without output because the service is closing; its record will be redone. */
        void abandoned(FetchJob job);
    }

    private final FetcherConfig config;
    private final CrawlClock clock;
    private final HostResolver resolver;
    private final LinkExtractor extractor;
    private final WarcArchive warc;
    private final Sink sink;
    private final FetchMetrics metrics;
    private final Executor workers;
    private final BiConsumer<FetchJob, Exception> onDone;
    private final RedirectChains redirects;
    private final ValueBounds bounds;

    /** @param onDone told when a job's records are all acknowledged (error null) or one failed */
    PagePublisher(FetcherConfig config, CrawlClock clock, HostResolver resolver, LinkExtractor extractor,
                  WarcArchive warc, Sink sink, FetchMetrics metrics, Executor workers,
                  BiConsumer<FetchJob, Exception> onDone) {
        this.config = config;
        this.clock = clock;
        this.resolver = resolver;
        this.extractor = extractor;
        this.warc = warc;
        this.sink = sink;
        this.metrics = metrics;
        this.workers = workers;
        this.onDone = onDone;
        this.redirects = new RedirectChains(config.http().maxRedirects(), REDIRECT_CHAIN_CAPACITY);
        this.bounds = new ValueBounds(config.limits().bounds(), metrics::bounded);
    }

    /** Redirect chains remembered at once (see {@link RedirectChains}). */
    static final int REDIRECT_CHAIN_CAPACITY = 100_000;

    static FetchOutcome outcomeOf(HttpFailure f) {
        return switch (f) {
            case CONNECT -> FetchOutcome.CONNECT_FAILURE;
            case TIMEOUT -> FetchOutcome.TIMEOUT;
            case TOO_LARGE -> FetchOutcome.TOO_LARGE;
            case TLS, PROTOCOL, CLOSED -> FetchOutcome.PROTOCOL_ERROR;
            case RESET -> FetchOutcome.CONNECTION_RESET;
            case INFLATED_TOO_LARGE -> FetchOutcome.INFLATED_TOO_LARGE;
        };
    }

    /** A job that ended before any network access. */
    void finish(FetchJob job, FetchOutcome outcome, String error) {
        metrics.fetch(outcome, 0, -1);
        FetchRequest r = job.request;
        FetchResult result = new FetchResult(FetchResult.VERSION, r.url(), r.fingerprint(), r.depth(), r.step(),
                r.kind(), 0, outcome, 0, job.dnsMillis, 0, null, 0, null, null, null, null, 0, bounds.error(error),
                r.revisit()); // the revisit state travels back unchanged (issue 22)
        Completion c = new Completion(job, 1, onDone);
        sink.result(resultKey(job), result, c);
    }

    /** Where the URLs of sitemaps go: the same sink, scope and batching as outlinks ({@link SitemapUrls}). */
    SitemapUrls sitemapSink() {
        return new SitemapUrls(config, clock, sink, metrics);
    }

    /** A bug in the pipeline must not lose the record: it is answered as a protocol error and logged. */
    void crashed(FetchJob job, RuntimeException e) {
        LOG.error("fetch of {} failed unexpectedly", job.request.url(), e);
        finish(job, FetchOutcome.PROTOCOL_ERROR, "internal error: " + e);
    }

    /** The job ends here without results; if it was taken from Kafka, a later delivery must fetch it. */
    void abandoned(FetchJob job) {
        if (job.slot != null) {
            job.slot.gaveUp();
        }
        sink.abandoned(job);
    }

    /**
     * The job ends here without results because an earlier delivery of the same request to this instance produced
     * them: its offset completes as if it had been fetched.
     */
    void doneElsewhere(FetchJob job) {
        job.slot.done();
        sink.abandoned(job);
    }

    /**
     * The job ends here without a fetch: the results of an earlier delivery of the same request to this instance
     * answer it ({@link OffsetTracker.Slot#isAnswered()}), and their transaction completes its offset.
     */
    void answered(FetchJob job) {
        sink.abandoned(job);
    }

    /** A job that got an HTTP outcome (a response, or a network failure). */
    void publish(FetchJob job, HttpFetchResponse response, Throwable error) {
        try {
            if (response == null) {
                finish(job, FetchOutcome.PROTOCOL_ERROR, "no response: " + error);
                return;
            }
            publishResponse(job, response);
        } catch (RuntimeException e) {
            crashed(job, e);
        }
    }

    private void publishResponse(FetchJob job, HttpFetchResponse resp) {
        FetchRequest req = job.request;
        int status = resp.status();
        FetchOutcome outcome;
        String error = resp.error();
        String redirect = null;
        if (resp.failure() != null) {
            outcome = outcomeOf(resp.failure());
        } else if (status == 304) {
            outcome = FetchOutcome.NOT_MODIFIED;
        } else if (status >= 300 && status < 400) {
            String location = resp.header("Location");
            redirect = location == null ? null : UrlNormalizer.normalize(req.url(), location).orElse(null);
            String normalized = redirect;
            redirect = bounds.redirectTarget(redirect); // a URL cut short is another URL: dropped
            outcome = redirect != null ? FetchOutcome.REDIRECT : FetchOutcome.HTTP_ERROR;
            if (redirect == null) {
                error = "HTTP " + status + " without a usable Location" + (normalized == null ? ""
                        : " (target of " + normalized.length() + " characters, over max-url-length)");
            } else {
                RedirectChains.Verdict v = redirects.redirect(req.url(), redirect);
                if (v == RedirectChains.Verdict.LOOP) {
                    outcome = FetchOutcome.REDIRECT_LOOP;
                    error = "redirect to " + redirect + " loops back into its own chain";
                    metrics.linkRejected(LinkRejection.REDIRECT_LOOP, 1);
                    redirect = null;
                } else if (v == RedirectChains.Verdict.LIMIT) {
                    outcome = FetchOutcome.REDIRECT_LIMIT;
                    error = "redirect to " + redirect + " would exceed " + config.http().maxRedirects() + " redirects";
                    metrics.linkRejected(LinkRejection.REDIRECT_LIMIT, 1);
                    redirect = null;
                }
            }
        } else if (status >= 200 && status < 300) {
            outcome = FetchOutcome.OK;
        } else if (status == 429 || status == 503) {
            outcome = FetchOutcome.THROTTLED; // the pipeline has already raised the IP's back-off
            error = "HTTP " + status + (resp.header("Retry-After") != null ? ", Retry-After "
                    + abbreviate(resp.header("Retry-After")) : "");
        } else if (status >= 400 && status < 600) {
            outcome = FetchOutcome.HTTP_ERROR;
            error = "HTTP " + status;
        } else {
            outcome = FetchOutcome.PROTOCOL_ERROR;
            error = "unexpected HTTP status " + status;
        }
        if (redirect == null && resp.status() != 0) {
            redirects.ended(req.url()); // the chain that led here (if any) is over
        }
        long latency = resp.sentAtMillis() > 0 ? resp.completedAtMillis() - resp.sentAtMillis() : -1;
        metrics.fetch(outcome, status, latency);
        metrics.fetchBytes.increment(resp.bodyLength());
        if (resp.complete() && warc != null) {
            warc.write(new WarcExchange(req.url(), job.address, resp.sentAtMillis() > 0 ? resp.sentAtMillis()
                    : clock.millis(), job.requestTarget, resp.requestHeaders(), status, resp.reason(), resp.headers(),
                    resp.body(), resp.bodyLength()));
        }
        String rawContentType = resp.header("Content-Type"); // parsed as sent; kept bounded
        String contentType = bounds.contentType(rawContentType);
        String hash = null;
        List<String> links = null;
        if (outcome == FetchOutcome.OK) {
            boolean html = ContentTypes.isHtml(rawContentType, resp.body(), resp.bodyLength());
            boolean text = html || (rawContentType != null && rawContentType.regionMatches(true, 0, "text/", 0, 5));
            hash = Fingerprints.contentHash(resp.body(), resp.bodyLength(), text);
            if (html) {
                LinkExtractor.Links extracted = extractor.extract(resp.body(), resp.bodyLength(),
                        ContentTypes.charset(rawContentType), req.url());
                if (!extracted.parsed()) {
                    metrics.parseSkipped(FetchMetrics.ParseSkip.UNPARSABLE);
                }
                metrics.linkRejected(LinkRejection.MALFORMED, extracted.rejected(LinkExtractor.Rejection.MALFORMED));
                metrics.linkRejected(LinkRejection.SCHEME, extracted.rejected(LinkExtractor.Rejection.SCHEME));
                metrics.linkRejected(LinkRejection.NOFOLLOW, extracted.rejected(LinkExtractor.Rejection.NOFOLLOW));
                metrics.linkRejected(LinkRejection.LIMIT, extracted.rejected(LinkExtractor.Rejection.LIMIT));
                links = extracted.urls();
            } else {
                metrics.parseSkipped(FetchMetrics.ParseSkip.NOT_HTML);
            }
        }
        FetchResult result = new FetchResult(FetchResult.VERSION, req.url(), req.fingerprint(), req.depth(),
                req.step(), req.kind(), status, outcome, resp.sentAtMillis() > 0 ? resp.sentAtMillis() : 0,
                job.dnsMillis, Math.max(0, latency), hash, resp.bodyLength(), contentType, redirect,
                bounds.etag(resp.header("ETag")), bounds.lastModified(resp.header("Last-Modified")),
                links == null ? 0 : links.size(), bounds.error(error), req.revisit());
        if (links == null && redirect == null) {
            sink.result(resultKey(job), result, new Completion(job, 1, onDone));
            return;
        }
        publishWithLinks(job, result, links, redirect);
    }

    /** Scope-checks the outlinks (and redirect target), resolves their hosts, then produces everything. */
    private void publishWithLinks(FetchJob job, FetchResult result, List<String> links, String redirect) {
        String page = job.request.url();
        int depth = job.request.depth();
        // Depth is judged here (all links of a page share it) so that a link too deep to follow still reaches the
        // link graph; the scope's other checks run as if the link were at the deepest allowed level.
        int maxDepth = config.scope().maxDepth();
        boolean followable = depth + 1 <= maxDepth;
        int checkDepth = Math.min(depth + 1, maxDepth);
        List<String> inScope = new ArrayList<>(links == null ? 0 : links.size());
        if (links != null) {
            for (String link : links) {
                ScopeDecision d = config.scope().check(link, checkDepth, page);
                if (d.inScope()) {
                    inScope.add(link);
                } else {
                    metrics.scopeRejected(d, 1);
                }
            }
        }
        String redirectTarget = redirect;
        if (redirect != null) {
            ScopeDecision d = depth > maxDepth ? ScopeDecision.TOO_DEEP : config.scope().check(redirect, depth, page);
            if (!d.inScope()) {
                metrics.scopeRejected(d, 1);
                redirectTarget = null;
            }
        }
        Map<String, Resolution> hosts = new HashMap<>();
        List<String> unresolved = null;
        for (int i = 0; i <= inScope.size(); i++) {
            String url = i < inScope.size() ? inScope.get(i) : redirectTarget;
            if (url == null) {
                continue;
            }
            String host = UrlNormalizer.host(url);
            if (host == null || hosts.containsKey(host)) {
                continue;
            }
            Resolution now = resolver.resolveNow(host);
            hosts.put(host, now);
            if (now == null) {
                if (unresolved == null) {
                    unresolved = new ArrayList<>();
                }
                unresolved.add(host);
            }
        }
        String finalRedirect = redirectTarget;
        if (unresolved == null) {
            produce(job, result, links != null, followable, inScope, finalRedirect, hosts);
            return;
        }
        List<CompletableFuture<Resolution>> pending = new ArrayList<>(unresolved.size());
        for (String host : unresolved) {
            pending.add(resolver.resolve(host));
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).whenCompleteAsync((v, e) -> {
            try {
                for (CompletableFuture<Resolution> f : pending) {
                    Resolution r = f.join(); // HostResolver futures never fail
                    hosts.put(r.host(), r);
                }
                produce(job, result, links != null, followable, inScope, finalRedirect, hosts);
            } catch (RuntimeException ex) {
                crashed(job, ex);
            }
        }, workers);
    }

    private void produce(FetchJob job, FetchResult result, boolean html, boolean followable, List<String> links,
                         String redirect, Map<String, Resolution> hosts) {
        String page = job.request.url();
        int depth = job.request.depth();
        long now = clock.millis();
        List<LinkList.Link> graph = new ArrayList<>(links.size());
        List<DiscoveredUrls.Entry> discovered = new ArrayList<>(followable ? links.size() : 0);
        int dns = 0;
        int address = 0;
        long graphBytes = 0; // the link graph stays within max-link-list-bytes: it keeps a prefix
        boolean graphCut = false;
        for (String link : links) {
            String ip = ipOf(link, hosts);
            if (ip == null) {
                dns++;
                continue;
            }
            if (ip.isEmpty()) {
                address++;
                continue;
            }
            long cost = ValueBounds.linkBytes(link);
            if (!graphCut && bounds.linkFits(graphBytes, cost)) {
                graph.add(new LinkList.Link(link, Fingerprints.url(link), ip));
                graphBytes += cost;
            } else {
                graphCut = true;
            }
            if (followable) {
                discovered.add(new DiscoveredUrls.Entry(link, ip));
            }
        }
        if (graphCut) {
            bounds.linkListTruncated();
        }
        if (!followable) {
            metrics.scopeRejected(ScopeDecision.TOO_DEEP, graph.size());
        }
        String redirectIp = null;
        if (redirect != null) {
            redirectIp = ipOf(redirect, hosts);
            if (redirectIp == null) {
                dns++;
            } else if (redirectIp.isEmpty()) {
                address++;
                redirectIp = null;
            }
        }
        metrics.linkRejected(LinkRejection.DNS, dns);
        metrics.linkRejected(LinkRejection.ADDRESS, address);
        // Outlinks are one level deeper than the page, a redirect target is at the page's own depth: separate groups
        // (a page has outlinks only when it is a 2xx and a redirect target only when it is a 3xx, never both).
        int partitions = 1;
        if (!discovered.isEmpty() || redirectIp != null) {
            try {
                partitions = sink.discoveredPartitions();
            } catch (RuntimeException e) { // no topic metadata: like a failed send, the request is redone later
                new Completion(job, 1, onDone).acked(e);
                return;
            }
        }
        // Issue 19, work done in place: when the graph holds exactly the followable links, those on the result's own
        // partition ride in the result (dedup admits them from there) and get no discovered record of their own.
        boolean local = html && followable && !graphCut && !discovered.isEmpty();
        List<DiscoveredUrls.Entry> elsewhere = !local ? discovered
                : KeyPartitioner.onPartitionOf(resultKey(job), discovered, DiscoveredUrls.Entry::ip, partitions, false);
        // a graph cut at max-link-list-bytes leaves links the ranker never scores: none of them gets a share
        Double share = graphCut ? null : LinkShare.ofFetch(job.request, graph.size());
        List<UrlBatches.Keyed<DiscoveredUrls>> records = new ArrayList<>(UrlBatches.discovered(elsewhere, partitions,
                page, depth + 1, now, share, config.batchLimits()));
        if (redirectIp != null) {
            records.addAll(UrlBatches.discovered(List.of(new DiscoveredUrls.Entry(redirect, redirectIp)), partitions,
                    page, depth, now, config.batchLimits()));
        }
        int sends = 1 + records.size();
        Completion c = new Completion(job, sends, onDone);
        for (UrlBatches.Keyed<DiscoveredUrls> r : records) {
            sink.discovered(r.key(), r.value(), c);
        }
        metrics.linksDiscovered.increment(discovered.size() + (redirectIp != null ? 1 : 0));
        sink.result(resultKey(job), html ? result.withLinks(graph, local ? partitions : 0, share) : result, c);
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }

    /**
     * Results travel under the request's key (the IP the scheduler keyed it by, so they return to the partition
     * that owns the URL); a request that arrived without a key falls back to the address it was fetched from.
     */
    private static String resultKey(FetchJob job) {
        return job.key != null ? job.key : job.ip;
    }

    /** The IP of the URL's host; null if it did not resolve, "" if the address policy refuses it. */
    private String ipOf(String url, Map<String, Resolution> hosts) {
        String host = UrlNormalizer.host(url);
        Resolution r = host == null ? null : hosts.get(host);
        if (r == null || !r.ok()) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("outlink {} not produced: host does not resolve ({})", url, r == null ? "?" : r.error());
            }
            return null;
        }
        return config.addressPolicy().check(r.address()).permitted() ? r.ip() : "";
    }
}
