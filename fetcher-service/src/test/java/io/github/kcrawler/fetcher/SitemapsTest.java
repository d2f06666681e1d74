package io.github.kcrawler.fetcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.common.model.DiscoveredUrls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sitemaps end to end through the real fetch pipeline (Netty client, per-IP guard, robots.txt, publisher) against a
 * JDK HTTP server on 127.0.0.1: robots.txt names a sitemap index and others; the index names a gzipped file, a file
 * served with Content-Encoding gzip, itself, and hostile files (a gzip bomb in both forms, an XXE attempt, a file
 * over the byte limit, garbage). Every request the server sees is checked against the politeness interval.
 */
class SitemapsTest {
    private static final long T = 100;
    private HttpServer server;
    private String base;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, String> types = new ConcurrentHashMap<>();
    private final Map<String, Boolean> encoded = new ConcurrentHashMap<>();
    /** Path and arrival time (ns) of every request, in order. */
    private final List<Object[]> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        server.createContext("/", this::serve);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        requests.add(new Object[] {path, System.nanoTime()});
        byte[] body = files.get(path);
        if (body == null) {
            body = path.equals("/") ? "<html><body>home</body></html>".getBytes(StandardCharsets.UTF_8) : null;
        }
        if (body == null) {
            ex.sendResponseHeaders(404, -1);
            ex.close();
            return;
        }
        ex.getResponseHeaders().set("Content-Type", types.getOrDefault(path, "text/html"));
        if (encoded.getOrDefault(path, false)) {
            ex.getResponseHeaders().set("Content-Encoding", "gzip");
        }
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private void file(String path, String type, byte[] body) {
        files.put(path, body);
        types.put(path, type);
    }

    private void xml(String path, String body) {
        file(path, "application/xml", body.getBytes(StandardCharsets.UTF_8));
    }

    private static String urlset(String... locs) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String l : locs) {
            sb.append("  <url><loc>").append(l).append("</loc></url>\n");
        }
        return sb.append("</urlset>\n").toString();
    }

    private static String index(String... locs) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String l : locs) {
            sb.append("  <sitemap><loc>").append(l).append("</loc></sitemap>\n");
        }
        return sb.append("</sitemapindex>\n").toString();
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }

    private static double count(PipelineHarness h, String name, String tag, String value) {
        return h.registry.get(name).tag(tag, value).counter().count();
    }

    private List<String> discoveredUrls(PipelineHarness h) {
        List<String> out = new ArrayList<>();
        for (DiscoveredUrls d : h.discoveredRecords) {
            if (d.source().endsWith(".xml") || d.source().endsWith(".txt") || d.source().endsWith(".gz")) {
                d.urls().forEach(e -> out.add(e.url()));
            }
        }
        return out;
    }

    @Test
    void robotsSitemapsIndexGzipAndHostileFilesAreReadPolitelyAndBounded() throws Exception {
        files.put("/robots.txt", ("User-agent: *\nAllow: /\n"
                + "Sitemap: " + base + "/sitemap_index.xml\n"
                + "Sitemap: http://elsewhere.test/sitemap.xml\n"
                + "Sitemap: " + base + "/urls.txt\n").getBytes(StandardCharsets.UTF_8));
        types.put("/robots.txt", "text/plain");
        xml("/sitemap_index.xml", index(base + "/s1.xml.gz", base + "/s2.xml", base + "/sitemap_index.xml",
                base + "/bomb.xml.gz", base + "/encoded-bomb.xml", base + "/xxe.xml", base + "/huge.xml",
                base + "/garbage.xml", base + "/nested_index.xml", "http://elsewhere.test/s.xml"));
        file("/s1.xml.gz", "application/gzip", gzip(urlset(base + "/a1", base + "/a2").getBytes(StandardCharsets.UTF_8)));
        file("/s2.xml", "application/xml", gzip(urlset(base + "/b1", "http://evil.test/x", base + "/b2")
                .getBytes(StandardCharsets.UTF_8)));
        encoded.put("/s2.xml", true);
        file("/urls.txt", "text/plain", (base + "/t1\n" + base + "/t2\nnot a url\n").getBytes(StandardCharsets.UTF_8));
        byte[] zeros = new byte[8 * 1024 * 1024];
        file("/bomb.xml.gz", "application/gzip", gzip(zeros));
        file("/encoded-bomb.xml", "application/xml", gzip(zeros));
        encoded.put("/encoded-bomb.xml", true);
        xml("/xxe.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"" + base + "/secret\">]>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>" + base
                + "/x&xxe;</loc></url></urlset>");
        String[] many = new String[5000];
        for (int i = 0; i < many.length; i++) {
            many[i] = base + "/h" + i;
        }
        xml("/huge.xml", urlset(many)); // ~190 KiB, over the 64 KiB limit: its prefix counts
        file("/garbage.xml", "application/xml", new byte[] {0, 1, 2, '<', '<', (byte) 0xff, 'u', 'r', 'l'});
        xml("/nested_index.xml", index(base + "/deeper.xml"));
        xml("/deeper.xml", urlset(base + "/too-deep"));

        try (PipelineHarness h = new PipelineHarness(Map.of("politeness-ms", String.valueOf(T),
                "sitemap-max-bytes", String.valueOf(64 * 1024), "sitemap-max-urls", "1000",
                "sitemap-max-per-host", "20"))) {
            h.fetch(base + "/");
            await().atMost(Duration.ofSeconds(30)).until(() -> h.sitemaps.inFlight() == 0
                    && count(h, "crawler.fetch.sitemap.fetches", "result", "parsed") >= 5);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.sitemaps.inFlight() == 0);
            List<String> found = discoveredUrls(h);
            assertThat(found).contains(base + "/a1", base + "/a2", base + "/b1", base + "/b2", base + "/t1",
                    base + "/t2", base + "/h0");
            assertThat(found).noneMatch(u -> u.contains("evil.test") || u.contains("too-deep") || u.contains("secret"));
            assertThat(found.stream().filter(u -> u.contains("/h")).count()).isBetween(100L, 1000L);
            // every record is on the site's own IP, one level below the page that read robots.txt
            for (DiscoveredUrls d : h.discoveredRecords) {
                if (d.source().startsWith(base + "/") && !d.source().equals(base + "/")) {
                    assertThat(d.depth()).isEqualTo(1);
                    assertThat(d.urls()).allSatisfy(e -> assertThat(e.ip()).isEqualTo("127.0.0.1"));
                }
            }
            List<String> paths = requests.stream().map(r -> (String) r[0]).toList();
            assertThat(paths).doesNotContain("/secret", "/deeper.xml");
            assertThat(paths.stream().filter("/sitemap_index.xml"::equals).count()).isEqualTo(1);
            assertThat(paths.subList(0, 2)).as("the page before the sitemaps").containsExactly("/robots.txt", "/");
            assertThat(count(h, "crawler.fetch.sitemap.fetches", "result", "inflated_too_large")).isEqualTo(2);
            assertThat(count(h, "crawler.fetch.sitemap.fetches", "result", "too_large")).isEqualTo(1);
            assertThat(count(h, "crawler.fetch.sitemap.fetches", "result", "malformed")).isEqualTo(2); // xxe, garbage
            assertThat(count(h, "crawler.fetch.sitemap.skipped", "reason", "other_host")).isEqualTo(2);
            assertThat(count(h, "crawler.fetch.sitemap.skipped", "reason", "duplicate")).isEqualTo(1);
            assertThat(count(h, "crawler.fetch.sitemap.skipped", "reason", "too_deep")).isEqualTo(1);
            assertThat(count(h, "crawler.fetch.sitemap.urls", "outcome", "other_host")).isEqualTo(1);
            // politeness: one stream of requests to the IP, each at least T after the one before
            for (int i = 1; i < requests.size(); i++) {
                long gap = (Long) requests.get(i)[1] - (Long) requests.get(i - 1)[1];
                assertThat(gap).as("gap before %s", requests.get(i)[0]).isGreaterThanOrEqualTo(T * 1_000_000);
            }
        }
    }

    @Test
    void sitemapsPerHostAreCapped() throws Exception {
        StringBuilder robots = new StringBuilder("User-agent: *\nAllow: /\n");
        for (int i = 0; i < 50; i++) {
            robots.append("Sitemap: ").append(base).append("/s").append(i).append(".xml\n");
            xml("/s" + i + ".xml", urlset(base + "/p" + i));
        }
        files.put("/robots.txt", robots.toString().getBytes(StandardCharsets.UTF_8));
        types.put("/robots.txt", "text/plain");
        try (PipelineHarness h = new PipelineHarness(Map.of("sitemap-max-per-host", "3"))) {
            h.fetch(base + "/");
            await().atMost(Duration.ofSeconds(20)).until(() -> h.sitemaps.inFlight() == 0
                    && count(h, "crawler.fetch.sitemap.fetches", "result", "parsed") == 3);
            assertThat(count(h, "crawler.fetch.sitemap.skipped", "reason", "host_limit")).isEqualTo(47);
            assertThat(discoveredUrls(h)).containsExactlyInAnyOrder(base + "/p0", base + "/p1", base + "/p2");
            // a second page of the site meets the cached verdict: its sitemaps are not read again
            h.fetch(base + "/again");
            assertThat(requests.stream().filter(r -> ((String) r[0]).startsWith("/s")).count()).isEqualTo(3);
        }
    }

    @Test
    void noRequestOnceTheIpsPartitionMovedAway() throws Exception {
        file("/robots.txt", "text/plain", ("Sitemap: " + base + "/s1.xml\nSitemap: " + base + "/s2.xml\n")
                .getBytes(StandardCharsets.UTF_8));
        xml("/s1.xml", urlset(base + "/p"));
        xml("/s2.xml", urlset(base + "/q"));
        try (PipelineHarness h = new PipelineHarness(Map.of())) {
            h.pipeline.ownsIp(ip -> false); // a rebalance gave 127.0.0.1's partition to another fetcher
            h.fetch(base + "/");
            await().atMost(Duration.ofSeconds(10)).until(() -> h.sitemaps.inFlight() == 0
                    && count(h, "crawler.fetch.sitemap.skipped", "reason", "partition_moved") == 2);
            assertThat(requests.stream().map(r -> (String) r[0]).toList()).containsExactly("/robots.txt", "/");
            assertThat(discoveredUrls(h)).isEmpty();
        }
    }

    @Test
    void aSitemapUrlOverMaxUrlLengthIsNotFetched() throws Exception {
        String longUrl = base + "/" + "s".repeat(3000) + ".xml";
        file("/robots.txt", "text/plain", ("Sitemap: " + longUrl + "\nSitemap: " + base + "/ok.xml\n")
                .getBytes(StandardCharsets.UTF_8));
        xml("/ok.xml", urlset(base + "/p"));
        try (PipelineHarness h = new PipelineHarness(Map.of("max-url-length", "2048"))) {
            h.fetch(base + "/");
            await().atMost(Duration.ofSeconds(10)).until(() -> h.sitemaps.inFlight() == 0
                    && count(h, "crawler.fetch.sitemap.fetches", "result", "parsed") == 1);
            assertThat(count(h, "crawler.fetch.sitemap.skipped", "reason", "bad_url")).isEqualTo(1);
            assertThat(requests.stream().map(r -> (String) r[0]).toList()).containsExactly("/robots.txt", "/",
                    "/ok.xml");
            assertThat(h.discoveredRecords).allSatisfy(d -> assertThat(d.source().length()).isLessThan(2048));
        }
    }

    @Test
    void offMeansNoSitemapRequest() throws Exception {
        file("/robots.txt", "text/plain", ("Sitemap: " + base + "/s.xml\n").getBytes(StandardCharsets.UTF_8));
        xml("/s.xml", urlset(base + "/p"));
        try (PipelineHarness h = new PipelineHarness(Map.of("sitemaps", "false"))) {
            h.fetch(base + "/");
            assertThat(h.sitemaps).isNull();
            assertThat(requests.stream().map(r -> (String) r[0]).toList()).containsExactly("/robots.txt", "/");
        }
    }
}
