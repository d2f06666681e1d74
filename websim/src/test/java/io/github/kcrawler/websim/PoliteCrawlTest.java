package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * End to end: a minimal crawler that knows nothing but the seed URLs and the hosts file (robots.txt obeyed,
 * links resolved from HTML) must fetch exactly {@link WebSim#reachableUrls(int)}, once each.
 */
class PoliteCrawlTest {

    @Test
    void crawlOfAGeneratedWebFetchesExactlyTheReachableSet() throws Exception {
        try (WebSim sim = WebSim.start(WebSimConfig.builder().generate(800).seed(21).ips(4)
                .robotsDisallowFraction(0.4).politenessMs(0).build())) {
            assertCrawlMatches(sim, WebGraphSource.UNLIMITED_DEPTH);
        }
    }

    @Test
    void depthLimitedCrawlOfCnr2000() throws Exception {
        assumeTrue(GraphSourceTest.cnrPresent(), "cnr-2000 not found");
        try (WebSim sim = WebSim.start(WebSimConfig.builder().graph(GraphSourceTest.CNR).ips(16)
                .robotsDisallowFraction(0.3).politenessMs(0).build())) {
            assertThat(sim.seedUrls()).hasSize(1);
            assertCrawlMatches(sim, 1);
        }
    }

    private static void assertCrawlMatches(WebSim sim, int maxDepth) {
        Map<String, String> hostToIp = sim.layout().hostToIp();
        Map<String, String> disallowByHost = new HashMap<>();
        Set<String> seen = new HashSet<>(sim.seedUrls());
        ArrayDeque<String> queue = new ArrayDeque<>(sim.seedUrls());
        Map<String, Integer> depth = new HashMap<>();
        sim.seedUrls().forEach(u -> depth.put(u, 0));
        while (!queue.isEmpty()) {
            String url = queue.poll();
            URI uri = URI.create(url);
            String authority = uri.getRawAuthority();
            String ipIndexHost = hostToIp.get(uri.getHost());
            int ip = sim.layout().ipAddresses().indexOf(ipIndexHost);
            String disallow = disallowByHost.computeIfAbsent(authority, a -> robotsDisallow(sim, ip, a));
            if (!disallow.isEmpty() && uri.getRawPath().startsWith(disallow)) {
                continue;
            }
            HttpResponse<byte[]> r = TestHttp.send(sim, ip, authority, "GET", uri.getRawPath());
            assertThat(r.statusCode()).as(url).isEqualTo(200);
            int d = depth.get(url);
            if (d >= maxDepth) {
                continue;
            }
            for (String link : TestHttp.resolvedLinks(url, TestHttp.text(r))) {
                if (seen.add(link)) {
                    depth.put(link, d + 1);
                    queue.add(link);
                }
            }
        }
        WebSimStats stats = sim.stats();
        BitSet expected = sim.reachablePages(maxDepth);
        assertThat(sim.fetchedPages()).isEqualTo(expected);
        List<String> urls = sim.reachableUrls(maxDepth);
        assertThat(urls).hasSize(expected.cardinality()).allSatisfy(u -> assertThat(sim.pageOf(u)).isNotNegative());
        assertThat(stats.duplicateFetches()).isZero();
        assertThat(stats.disallowedFetched()).isZero();
        assertThat(stats.pagesFetched()).isEqualTo(expected.cardinality());
        assertThat(stats.robotsFetches()).isEqualTo(disallowByHost.size());
        assertThat(expected.cardinality()).isGreaterThan(maxDepth == 1 ? 10 : sim.graph().numPages() / 2);
    }

    private static String robotsDisallow(WebSim sim, int ip, String authority) {
        HttpResponse<byte[]> r = TestHttp.send(sim, ip, authority, "GET", "/robots.txt");
        assertThat(r.statusCode()).isEqualTo(200);
        for (String line : TestHttp.text(r).split("\n")) {
            if (line.startsWith("Disallow:")) {
                return line.substring("Disallow:".length()).trim();
            }
        }
        return "";
    }
}
