package io.github.kcrawler.fetcher.dns;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * The DNS client underneath {@link HostResolver}: asynchronous lookups cached with their TTL (and failures with a
 * negative TTL). Implemented over Netty's {@code DnsNameResolver} in the {@code http} package, the only package
 * that imports Netty; tests can supply a table.
 */
public interface NameLookup extends AutoCloseable {
    /** A positive answer already in the cache, without I/O or a thread hop; null when not cached. */
    InetAddress cached(String host);

    /** Resolves {@code host} (IPv4 preferred); completes exceptionally when it does not resolve. */
    CompletableFuture<InetAddress> lookup(String host);

    @Override
    void close();
}
