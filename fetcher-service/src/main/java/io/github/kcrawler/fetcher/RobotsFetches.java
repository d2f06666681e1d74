package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.IpLiterals;
import io.github.kcrawler.fetcher.guard.IpGuard;
import io.github.kcrawler.fetcher.guard.TaskScheduler;
import io.github.kcrawler.fetcher.http.HttpFailure;
import io.github.kcrawler.fetcher.http.HttpFetch;
import io.github.kcrawler.fetcher.http.HttpFetchResponse;
import io.github.kcrawler.fetcher.http.NettyHttpClient;
import io.github.kcrawler.fetcher.robots.RobotsCache;
import io.github.kcrawler.fetcher.robots.RobotsResponse;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * The {@link RobotsCache.Source} of the fetch pipeline: {@code /robots.txt} through the site IP's guard at T and a
 * fetch slot, exactly like a page (one IP sees one stream of accesses; its answer feeds the IP's back-off), up to
 * {@value #MAX_REDIRECTS} redirects followed (RFC 9309), each target resolved and policed like a page, the body read
 * up to {@code robots-max-bytes}.
 *
 * <p>Ownership, as for a page ({@code FetchPipeline.granted}): when the guard grants the IP, the fetch is held while
 * this instance's ownership of its partitions is unconfirmed (a process resumed after a SIGSTOP), and then
 * <em>not sent</em> if the request that asked for the file is no longer this instance's ({@code wanted}: its offset
 * slot was revoked or is leaving), checked again once it has a fetch slot (with {@code max-in-flight} busy it can wait
 * for one past a hand-over: ScaleIT, twenty-fourth session, a robots.txt 82 ms after the new owner's request). Its partition then has a new owner, which paces the IP and reads robots.txt
 * itself; sending it here too broke that owner's pacing (FaultsIT and ScaleIT, tenth session: 2 to 8 violations of
 * 8–139 ms at a hand-over, on webs with several hosts per IP). The answer is then
 * {@link RobotsResponse#notFetched()}. The request's own slot decides, not the partition of the resolved address: a
 * site that resolves here to another address than the scheduler's key is still the key's partition's work.
 */
final class RobotsFetches {
    static final int MAX_REDIRECTS = 5;

    private final FetcherConfig config;
    private final TaskScheduler scheduler;
    private final HostResolver resolver;
    private final IpGuard guard;
    private final FetchSlots slots;
    private final NettyHttpClient client;
    private final BiConsumer<String, HttpFetchResponse> recordBackoff;
    private final BooleanSupplier ownershipConfirmed;

    RobotsFetches(FetcherConfig config, TaskScheduler scheduler, HostResolver resolver, IpGuard guard,
                  FetchSlots slots, NettyHttpClient client, BiConsumer<String, HttpFetchResponse> recordBackoff,
                  BooleanSupplier ownershipConfirmed) {
        this.config = config;
        this.scheduler = scheduler;
        this.resolver = resolver;
        this.guard = guard;
        this.slots = slots;
        this.client = client;
        this.recordBackoff = recordBackoff;
        this.ownershipConfirmed = ownershipConfirmed;
    }

    /** The {@link RobotsCache.Source}; never completes exceptionally. */
    CompletableFuture<RobotsResponse> fetch(String robotsUrl, String ip, BooleanSupplier wanted) {
        CompletableFuture<RobotsResponse> out = new CompletableFuture<>();
        hop(robotsUrl, IpLiterals.parse(ip), 0, wanted, out);
        return out;
    }

    private void hop(String url, InetAddress address, int hop, BooleanSupplier wanted,
                     CompletableFuture<RobotsResponse> out) {
        FetchJob parts = new FetchJob(null, FetchRequest.fresh(url, 0, 0, 0, 0), null);
        if (address == null || !parts.parseUrl()) {
            out.complete(RobotsResponse.failed(FetchOutcome.MALFORMED_URL, "unusable robots.txt URL " + url));
            return;
        }
        if (!wanted.getAsBoolean()) {
            out.complete(RobotsResponse.notFetched());
            return;
        }
        String ip = address.getHostAddress();
        guard.acquire(ip, config.politenessMs(), () -> granted(url, address, hop, wanted, out, parts, ip));
    }

    private void granted(String url, InetAddress address, int hop, BooleanSupplier wanted,
                         CompletableFuture<RobotsResponse> out, FetchJob parts, String ip) {
        if (!ownershipConfirmed.getAsBoolean()) {
            scheduler.schedule(() -> granted(url, address, hop, wanted, out, parts, ip),
                    FetchPipeline.OWNERSHIP_RECHECK_MS);
            return;
        }
        if (!wanted.getAsBoolean()) {
            guard.release(ip);
            out.complete(RobotsResponse.notFetched());
            return;
        }
        slots.acquire(() -> {
            if (!wanted.getAsBoolean()) { // the partition left while the fetch waited for a slot
                slots.release();
                guard.release(ip);
                out.complete(RobotsResponse.notFetched());
                return;
            }
            HttpFetch fetch = new HttpFetch(parts.https, parts.host, parts.port, address, parts.requestTarget,
                    List.of(), config.robots().maxBytes(), true);
            client.fetch(fetch).whenComplete((r, e) -> {
                recordBackoff.accept(ip, r);
                slots.release();
                guard.release(ip);
                if (r == null) {
                    out.complete(RobotsResponse.failed(FetchOutcome.PROTOCOL_ERROR, String.valueOf(e)));
                } else if (r.failure() != null && r.failure() != HttpFailure.TOO_LARGE
                        && r.failure() != HttpFailure.INFLATED_TOO_LARGE) {
                    out.complete(RobotsResponse.failed(PagePublisher.outcomeOf(r.failure()), r.error()));
                } else if (r.status() >= 300 && r.status() < 400 && r.header("Location") != null
                        && hop < MAX_REDIRECTS) {
                    redirect(url, r.header("Location"), hop, wanted, r, out);
                } else {
                    // a robots.txt cut at the cap is parsed as far as it was read (RFC 9309 asks for >= 500 KiB)
                    byte[] body = Arrays.copyOf(r.body(), r.bodyLength());
                    out.complete(RobotsResponse.http(r.status(), body, r.header("Content-Type")));
                }
            });
        });
    }

    private void redirect(String from, String location, int hop, BooleanSupplier wanted, HttpFetchResponse r,
                          CompletableFuture<RobotsResponse> out) {
        String target = UrlNormalizer.normalize(from, location).orElse(null);
        if (target == null) {
            out.complete(RobotsResponse.http(r.status(), new byte[0], null));
            return;
        }
        String host = UrlNormalizer.host(target);
        resolver.resolve(host).whenComplete((res, e) -> {
            if (res == null || !res.ok()) {
                out.complete(RobotsResponse.failed(FetchOutcome.DNS_FAILURE,
                        "robots.txt redirect target " + host + " does not resolve"));
            } else if (!config.addressPolicy().check(res.address()).permitted()) {
                out.complete(RobotsResponse.http(r.status(), new byte[0], null)); // as an unfollowable redirect
            } else {
                hop(target, res.address(), hop + 1, wanted, out);
            }
        });
    }
}
