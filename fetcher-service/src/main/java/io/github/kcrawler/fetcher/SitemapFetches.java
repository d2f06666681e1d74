package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.fetcher.dns.IpLiterals;
import io.github.kcrawler.fetcher.guard.HostBackoff;
import io.github.kcrawler.fetcher.guard.IpGuard;
import io.github.kcrawler.fetcher.guard.TaskScheduler;
import io.github.kcrawler.fetcher.http.HttpFailure;
import io.github.kcrawler.fetcher.http.HttpFetch;
import io.github.kcrawler.fetcher.http.HttpFetchResponse;
import io.github.kcrawler.fetcher.http.NettyHttpClient;
import io.github.kcrawler.fetcher.sitemap.SitemapResponse;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The {@link io.github.kcrawler.fetcher.sitemap.SitemapDiscovery.Source} of the fetch pipeline: one sitemap file from
 * {@code ip}, through that IP's guard at {@code max(T, Crawl-delay, back-off)} and a fetch slot exactly like a page
 * (its answer feeds the IP's back-off too), read up to {@code sitemap-max-bytes} (a prefix when longer). Not sent
 * once this instance no longer owns the IP's partition, and held, like a page, while ownership is unconfirmed (a
 * paused process). Completes on a worker thread, so the caller parses there and never on an I/O thread, and never
 * exceptionally.
 */
final class SitemapFetches {
    private final FetcherConfig config;
    private final TaskScheduler scheduler;
    private final IpGuard guard;
    private final FetchSlots slots;
    private final NettyHttpClient client;
    private final Executor workers;
    private final HostBackoff backoff;
    private final BiConsumer<String, HttpFetchResponse> recordBackoff;
    private final BooleanSupplier ownershipConfirmed;
    private final Predicate<String> ownsIp;

    SitemapFetches(FetcherConfig config, TaskScheduler scheduler, IpGuard guard, FetchSlots slots,
                   NettyHttpClient client, Executor workers, HostBackoff backoff,
                   BiConsumer<String, HttpFetchResponse> recordBackoff, BooleanSupplier ownershipConfirmed,
                   Predicate<String> ownsIp) {
        this.config = config;
        this.scheduler = scheduler;
        this.guard = guard;
        this.slots = slots;
        this.client = client;
        this.workers = workers;
        this.backoff = backoff;
        this.recordBackoff = recordBackoff;
        this.ownershipConfirmed = ownershipConfirmed;
        this.ownsIp = ownsIp;
    }

    CompletableFuture<SitemapResponse> fetch(String url, String ip, long crawlDelayMillis) {
        CompletableFuture<SitemapResponse> out = new CompletableFuture<>();
        FetchJob parts = new FetchJob(null, FetchRequest.fresh(url, 0, 0, 0, 0), null);
        InetAddress address = IpLiterals.parse(ip);
        if (address == null || !parts.parseUrl()) {
            out.complete(SitemapResponse.failed("unusable sitemap URL " + url));
        } else if (!ownsIp.test(ip)) {
            out.complete(SitemapResponse.notOwnedAnyMore());
        } else {
            guard.acquire(ip, backoff.intervalFor(ip, config.intervalFor(crawlDelayMillis)),
                    () -> slots.acquire(() -> granted(parts, address, ip, out)));
        }
        return out;
    }

    private void granted(FetchJob parts, InetAddress address, String ip, CompletableFuture<SitemapResponse> out) {
        if (!ownsIp.test(ip)) {
            slots.release();
            guard.release(ip);
            out.complete(SitemapResponse.notOwnedAnyMore());
            return;
        }
        if (!ownershipConfirmed.getAsBoolean()) {
            scheduler.schedule(() -> granted(parts, address, ip, out), FetchPipeline.OWNERSHIP_RECHECK_MS);
            return;
        }
        HttpFetch fetch;
        try {
            fetch = new HttpFetch(parts.https, parts.host, parts.port, address, parts.requestTarget, List.of(),
                    config.sitemaps().maxBytes(), true);
        } catch (RuntimeException e) {
            slots.release();
            guard.release(ip);
            out.complete(SitemapResponse.failed(String.valueOf(e)));
            return;
        }
        client.fetch(fetch).whenComplete((r, e) -> {
            recordBackoff.accept(ip, r);
            slots.release();
            guard.release(ip);
            SitemapResponse s;
            if (r == null) {
                s = SitemapResponse.failed(String.valueOf(e));
            } else if (r.failure() != null && r.failure() != HttpFailure.TOO_LARGE
                    && r.failure() != HttpFailure.INFLATED_TOO_LARGE) {
                s = SitemapResponse.failed(r.error());
            } else {
                s = new SitemapResponse(r.status(), r.body(), r.bodyLength(), r.header("Content-Type"),
                        r.failure() == HttpFailure.TOO_LARGE, r.failure() == HttpFailure.INFLATED_TOO_LARGE,
                        r.header("Location"), false, r.error());
            }
            try {
                workers.execute(() -> out.complete(s));
            } catch (RejectedExecutionException rejected) {
                out.complete(SitemapResponse.failed("shutting down"));
            }
        });
    }
}
