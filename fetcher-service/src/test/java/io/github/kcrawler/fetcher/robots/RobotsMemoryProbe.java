package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * How many heap bytes a site's robots.txt verdict costs in a {@link RobotsCache}: the heap after full GCs before and
 * after caching the verdicts of {@code n} sites, divided by n. The files are shaped like websim's: a comment naming
 * the host, {@code User-agent: *}, an empty {@code Disallow:} for most sites and a site-specific prefix for one in
 * ten, a Crawl-delay for one in twenty. Not a test (no assertion on memory); run on demand:
 * <pre>
 * java -Xmx1g -cp fetcher-service/target/test-classes:crawler-app/target/crawler-app-0.1.0-SNAPSHOT-all.jar \
 *     io.github.kcrawler.fetcher.robots.RobotsMemoryProbe 35625
 * </pre>
 */
public final class RobotsMemoryProbe {
    private RobotsMemoryProbe() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 35_625;
        RobotsCache cache = new RobotsCache(List.of("kcrawler"), 100_000, 86_400_000L, 60_000, 30_000,
                CrawlClock.SYSTEM, (url, ip, wanted) -> CompletableFuture.completedFuture(RobotsResponse.http(200,
                        body(url).getBytes(StandardCharsets.UTF_8), "text/plain")), new SimpleMeterRegistry());
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            cache.rules(RobotsCache.siteKey("http", "h" + i + ".websim.test", 80), "127.1.0.1", r -> { });
        }
        long after = usedAfterGc();
        System.out.printf(Locale.ROOT, "%,d sites: %.1f heap bytes per cached robots.txt verdict%n", cache.size(),
                (after - before) / (double) cache.size());
    }

    private static String body(String robotsUrl) {
        String host = robotsUrl.substring("http://".length(), robotsUrl.lastIndexOf(':'));
        int i = Integer.parseInt(host.substring(1, host.indexOf('.')));
        StringBuilder sb = new StringBuilder("# robots.txt of ").append(host).append(" (websim)\nUser-agent: *\n");
        sb.append(i % 10 == 3 ? "Disallow: /p/" + (i * 7919L % 100_000) + "\n" : "Disallow:\n");
        if (i % 20 == 7) {
            sb.append("Crawl-delay: 2\n");
        }
        return sb.toString();
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
