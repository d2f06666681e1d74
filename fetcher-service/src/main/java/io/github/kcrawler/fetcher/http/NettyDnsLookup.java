package io.github.kcrawler.fetcher.http;

import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.github.kcrawler.fetcher.dns.LookupFailure;
import io.github.kcrawler.fetcher.dns.NameLookup;
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DefaultDnsCache;
import io.netty.resolver.dns.DnsCacheEntry;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsNameResolverTimeoutException;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@link NameLookup} over Netty's asynchronous {@link DnsNameResolver}: queries the name servers of
 * {@code /etc/resolv.conf}, caches answers for their TTL (clamped to [minTtl, maxTtl]) and failures for
 * {@code negativeTtl} seconds, and answers names from the hosts file (ours first, then the system's) without a
 * query. IPv4 is preferred because the crawl's keys and websim's simulated addresses are IPv4.
 */
public final class NettyDnsLookup implements NameLookup {
    private final DnsNameResolver resolver;
    private final DefaultDnsCache cache;

    public NettyDnsLookup(NettyTransport transport, HostsFile hosts, int minTtlSeconds, int maxTtlSeconds,
                          int negativeTtlSeconds, long queryTimeoutMillis) {
        cache = new DefaultDnsCache(minTtlSeconds, maxTtlSeconds, negativeTtlSeconds);
        HostsFileEntriesResolver hostsResolver = (inetHost, types) -> {
            InetAddress a = hosts.lookup(inetHost);
            return a != null ? a : HostsFileEntriesResolver.DEFAULT.address(inetHost, types);
        };
        resolver = new DnsNameResolverBuilder(transport.group().next())
                .datagramChannelType(transport.datagramChannel())
                .socketChannelType(transport.socketChannel())
                .resolveCache(cache)
                .hostsFileEntriesResolver(hostsResolver)
                .resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
                .queryTimeoutMillis(queryTimeoutMillis)
                .maxQueriesPerResolve(8)
                .build();
    }

    @Override
    public InetAddress cached(String host) {
        List<? extends DnsCacheEntry> entries = cache.get(host, null);
        if (entries == null || entries.isEmpty()) {
            return null;
        }
        InetAddress fallback = null;
        for (DnsCacheEntry e : entries) {
            if (e.cause() != null) {
                return null;
            }
            InetAddress a = e.address();
            if (a != null && a.getAddress().length == 4) {
                return a;
            }
            if (fallback == null) {
                fallback = a;
            }
        }
        return fallback;
    }

    @Override
    public CompletableFuture<InetAddress> lookup(String host) {
        CompletableFuture<InetAddress> result = new CompletableFuture<>();
        resolver.resolve(host).addListener(f -> {
            if (f.isSuccess()) {
                result.complete((InetAddress) f.getNow());
            } else {
                result.completeExceptionally(classify(host, f.cause()));
            }
        });
        return result;
    }

    private static LookupFailure classify(String host, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DnsNameResolverTimeoutException) {
                return new LookupFailure(HostResolver.Failure.TIMEOUT, "DNS timeout for " + host, cause);
            }
        }
        if (cause instanceof UnknownHostException) {
            return new LookupFailure(HostResolver.Failure.NOT_FOUND, "unknown host " + host, cause);
        }
        return new LookupFailure(HostResolver.Failure.ERROR, "DNS error for " + host + ": " + cause, cause);
    }

    @Override
    public void close() {
        resolver.close();
    }
}
