package io.github.kcrawler.fetcher.dns;

import io.github.kcrawler.fetcher.dns.HostResolver.Failure;
import io.github.kcrawler.fetcher.dns.HostResolver.Resolution;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Resolution order, query sharing, the concurrency cap and failure reasons, over a hand-driven lookup. */
class HostResolverTest {
    /** A lookup whose answers the test hands out by hand. */
    private static final class ManualLookup implements NameLookup {
        final Map<String, InetAddress> cache = new HashMap<>();
        final List<String> queries = new ArrayList<>();
        final Map<String, CompletableFuture<InetAddress>> open = new HashMap<>();

        @Override
        public InetAddress cached(String host) {
            return cache.get(host);
        }

        @Override
        public CompletableFuture<InetAddress> lookup(String host) {
            queries.add(host);
            CompletableFuture<InetAddress> f = new CompletableFuture<>();
            open.put(host, f);
            return f;
        }

        @Override
        public void close() {
        }
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualLookup lookup = new ManualLookup();

    private HostResolver resolver(HostsFile hosts, int maxConcurrent) {
        return new HostResolver(lookup, hosts, maxConcurrent, registry);
    }

    @Test
    void literalsHostsFileAndCacheAnswerWithoutAQuery() throws Exception {
        lookup.cache.put("cached.test", InetAddress.getByName("10.0.0.5"));
        HostResolver r = resolver(HostsFile.parse(List.of("127.1.0.1 sim.websim")), 4);
        assertThat(r.resolveNow("10.1.2.3").ip()).isEqualTo("10.1.2.3");
        assertThat(r.resolveNow("sim.websim").ip()).isEqualTo("127.1.0.1");
        assertThat(r.resolveNow("cached.test").ip()).isEqualTo("10.0.0.5");
        assertThat(r.resolveNow("unknown.test")).isNull();
        assertThat(r.resolve("sim.websim").join().ok()).isTrue();
        assertThat(lookup.queries).isEmpty();
    }

    @Test
    void concurrentLookupsOfOneNameShareOneQuery() throws Exception {
        HostResolver r = resolver(HostsFile.empty(), 4);
        CompletableFuture<Resolution> a = r.resolve("a.test");
        CompletableFuture<Resolution> b = r.resolve("a.test");
        assertThat(lookup.queries).containsExactly("a.test");
        lookup.open.get("a.test").complete(InetAddress.getByName("10.0.0.1"));
        assertThat(a.join().ip()).isEqualTo("10.0.0.1");
        assertThat(b.join().ip()).isEqualTo("10.0.0.1");
    }

    @Test
    void atMostMaxConcurrentQueriesAreOutstanding() throws Exception {
        HostResolver r = resolver(HostsFile.empty(), 2);
        List<CompletableFuture<Resolution>> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(r.resolve("h" + i + ".test"));
        }
        assertThat(lookup.queries).hasSize(2);
        assertThat(r.queuedLookups()).isEqualTo(3);
        for (int i = 0; i < 5; i++) {
            lookup.open.get("h" + i + ".test").complete(InetAddress.getByName("10.0.0." + (i + 1)));
        }
        assertThat(lookup.queries).hasSize(5);
        assertThat(all).allSatisfy(f -> assertThat(f.join().ok()).isTrue());
    }

    @Test
    void failuresAreAnswersCountedByReason() {
        HostResolver r = resolver(HostsFile.empty(), 4);
        CompletableFuture<Resolution> nx = r.resolve("nx.test");
        CompletableFuture<Resolution> slow = r.resolve("slow.test");
        CompletableFuture<Resolution> odd = r.resolve("odd.test");
        lookup.open.get("nx.test").completeExceptionally(new LookupFailure(Failure.NOT_FOUND, "unknown host", null));
        lookup.open.get("slow.test").completeExceptionally(new LookupFailure(Failure.TIMEOUT, "timeout", null));
        lookup.open.get("odd.test").completeExceptionally(new IllegalStateException("bug"));
        assertThat(nx.join().failure()).isEqualTo(Failure.NOT_FOUND);
        assertThat(slow.join().failure()).isEqualTo(Failure.TIMEOUT);
        assertThat(odd.join().failure()).isEqualTo(Failure.ERROR);
        assertThat(nx.join().ok()).isFalse();
        assertThat(registry.get("crawler.dns.failures").tag("reason", "not_found").counter().count()).isEqualTo(1);
        assertThat(registry.get("crawler.dns.failures").tag("reason", "timeout").counter().count()).isEqualTo(1);
        assertThat(registry.get("crawler.dns.failures").tag("reason", "error").counter().count()).isEqualTo(1);
        assertThat(r.resolve("").join().failure()).isEqualTo(Failure.NOT_FOUND);
    }
}
