package io.github.kcrawler.fetcher.dns;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.github.kcrawler.common.metrics.MetricNames;

import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Host name → IP for the fetcher: every outlink is keyed by the IP of its host (DESIGN §2), so each one is resolved
 * before it is produced. Answers come, cheapest first, from an IP literal in the URL, the static hosts file, the
 * DNS cache of the {@link NameLookup} (no thread hop), and only then from an asynchronous lookup. Concurrent
 * lookups of one name share one query, and at most {@code maxConcurrent} queries are outstanding (the rest queue),
 * so a page full of new hosts cannot flood the DNS server. The returned futures never fail: a name that does not
 * resolve yields a {@link Resolution} with a {@link Failure}, counted under {@code DNS_FAILURES} by reason.
 */
public final class HostResolver {
    /** Why a host did not resolve; also the {@code reason} tag of {@code DNS_FAILURES}. */
    public enum Failure { NOT_FOUND, TIMEOUT, ERROR }

    /** The answer for one host: an address, or a failure with a message. */
    public record Resolution(String host, InetAddress address, String ip, Failure failure, String error) {
        public boolean ok() {
            return address != null;
        }

        static Resolution of(String host, InetAddress a) {
            return new Resolution(host, a, a.getHostAddress(), null, null);
        }

        static Resolution failed(String host, Failure f, String error) {
            return new Resolution(host, null, null, f, error);
        }
    }

    private final NameLookup lookup;
    private final HostsFile hosts;
    private final int maxConcurrent;
    private final Timer latency;
    private final Map<Failure, Counter> failures = new EnumMap<>(Failure.class);
    private final ConcurrentHashMap<String, CompletableFuture<Resolution>> inFlight = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> queued = new ConcurrentLinkedQueue<>();
    private final AtomicInteger active = new AtomicInteger();

    public HostResolver(NameLookup lookup, HostsFile hosts, int maxConcurrent, MeterRegistry registry) {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be >= 1, was " + maxConcurrent);
        }
        this.lookup = lookup;
        this.hosts = hosts;
        this.maxConcurrent = maxConcurrent;
        this.latency = Timer.builder(MetricNames.DNS_LATENCY).description("host name lookups that went to DNS")
                .publishPercentileHistogram().register(registry);
        for (Failure f : Failure.values()) {
            failures.put(f, Counter.builder(MetricNames.DNS_FAILURES).description("host names that did not resolve")
                    .tag("reason", f.name().toLowerCase(java.util.Locale.ROOT)).register(registry));
        }
    }

    /** The answer if it is known without I/O (literal, hosts file, cache), else null. */
    public Resolution resolveNow(String host) {
        if (host == null || host.isEmpty()) {
            return Resolution.failed(host, Failure.NOT_FOUND, "empty host");
        }
        InetAddress a = IpLiterals.parse(host);
        if (a == null) {
            a = hosts.lookup(host);
        }
        if (a == null) {
            a = lookup.cached(host);
        }
        return a == null ? null : Resolution.of(host, a);
    }

    /** Resolves {@code host}; the future always completes normally. */
    public CompletableFuture<Resolution> resolve(String host) {
        Resolution now = resolveNow(host);
        if (now != null) {
            return CompletableFuture.completedFuture(now);
        }
        CompletableFuture<Resolution> created = new CompletableFuture<>();
        CompletableFuture<Resolution> existing = inFlight.putIfAbsent(host, created);
        if (existing != null) {
            return existing;
        }
        queued.add(host);
        drain();
        return created;
    }

    /** Lookups waiting for a free slot. */
    public int queuedLookups() {
        return queued.size();
    }

    private void drain() {
        while (!queued.isEmpty()) {
            int a = active.get();
            if (a >= maxConcurrent) {
                return;
            }
            if (!active.compareAndSet(a, a + 1)) {
                continue;
            }
            String host = queued.poll();
            if (host == null) {
                active.decrementAndGet();
                continue;
            }
            start(host);
        }
    }

    private void start(String host) {
        long t0 = System.nanoTime();
        CompletableFuture<InetAddress> f;
        try {
            f = lookup.lookup(host);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((address, error) -> {
            latency.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
            Resolution r;
            if (address != null) {
                r = Resolution.of(host, address);
            } else {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                Failure kind = cause instanceof LookupFailure lf ? lf.kind() : Failure.ERROR;
                failures.get(kind).increment();
                r = Resolution.failed(host, kind, cause == null ? "no address" : String.valueOf(cause.getMessage()));
            }
            active.decrementAndGet();
            CompletableFuture<Resolution> waiting = inFlight.remove(host);
            drain();
            if (waiting != null) {
                waiting.complete(r);
            }
        });
    }
}
