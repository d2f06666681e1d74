package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.fetcher.guard.HostBackoff;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import static io.github.kcrawler.fetcher.HostileServer.html;
import static io.github.kcrawler.fetcher.HostileServer.respond;
import static io.github.kcrawler.fetcher.HostileServer.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9, fetcher side: the whole fetch pipeline against a misbehaving loopback server. Each hostile answer must
 * end as one FetchResult with its reason code, counted in {@code crawler.fetch}, and nothing may escape or hang.
 */
class HostileWebTest {
    private HostileServer server;
    private PipelineHarness harness;

    @BeforeEach
    void start() throws IOException {
        server = new HostileServer("127.0.0.1");
    }

    @AfterEach
    void stop() throws IOException {
        if (harness != null) {
            harness.close();
        }
        server.close();
    }

    private PipelineHarness harness(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        harness = new PipelineHarness(m);
        return harness;
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void gzipBombStopsAtTheCapAfterReadingLittleOfIt() {
        AtomicLong compressedWritten = new AtomicLong();
        server.on("/bomb", (c, head) -> {
            OutputStream raw = c.getOutputStream();
            raw.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            OutputStream counting = new FilterOutputStream(raw) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    compressedWritten.addAndGet(len);
                }
            };
            byte[] zeros = new byte[64 * 1024];
            try (GZIPOutputStream gz = new GZIPOutputStream(counting, 8192)) {
                for (int i = 0; i < 16 * 1024; i++) { // 1 GiB inflated, about 1 MiB on the wire
                    gz.write(zeros);
                }
            }
        });
        PipelineHarness h = harness("max-body-bytes", String.valueOf(1024 * 1024));
        long t0 = System.nanoTime();
        FetchResult r = h.fetch(url("/bomb"));
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertThat(r.outcome()).isEqualTo(FetchOutcome.INFLATED_TOO_LARGE);
        assertThat(r.length()).isEqualTo(1024 * 1024);
        assertThat(r.contentHash()).isNull(); // a prefix is not the page: not hashed, not parsed
        Matcher m = Pattern.compile("after (\\d+) bytes on the wire").matcher(r.error());
        assertThat(m.find()).as(r.error()).isTrue();
        long wire = Long.parseLong(m.group(1));
        assertThat(wire).as("compressed bytes handed to the inflater").isLessThan(256 * 1024);
        assertThat(ms).as("no inflating of the full gigabyte").isLessThan(10_000);
        assertThat(h.outcomes(FetchOutcome.INFLATED_TOO_LARGE)).isEqualTo(1.0);
    }

    @Test
    void plainBodyOverTheCapIsTooLarge() {
        server.on("/big", (c, head) -> respond(c, 200, "text/html", new byte[200_000], List.of()));
        PipelineHarness h = harness("max-body-bytes", "50000");
        FetchResult r = h.fetch(url("/big"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.TOO_LARGE);
        assertThat(h.outcomes(FetchOutcome.TOO_LARGE)).isEqualTo(1.0);
    }

    @Test
    void oneBytePerSecondIsCutAtTheTotalTimeout() {
        server.on("/drip", (c, head) -> {
            OutputStream out = c.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 100; i++) {
                out.write('x');
                out.flush();
                sleep(1000);
            }
        });
        // the read (idle) timeout never fires: a byte arrives every second
        PipelineHarness h = harness("total-timeout-ms", "2500", "read-timeout-ms", "2000",
                "connect-timeout-ms", "1000");
        long t0 = System.nanoTime();
        FetchResult r = h.fetch(url("/drip"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.outcome()).isEqualTo(FetchOutcome.TIMEOUT);
        assertThat(r.error()).contains("total timeout");
        assertThat(r.fetchMillis()).as("request written to cut").isBetween(2_000L, 5_000L);
        assertThat(ms).isGreaterThanOrEqualTo(2_400L).isLessThan(10_000L);
        assertThat(h.outcomes(FetchOutcome.TIMEOUT)).isEqualTo(1.0);
    }

    @Test
    void aServerThatNeverAnswersIsCutAtTheFirstByteTimeout() {
        server.on("/silent", (c, head) -> c.getInputStream().read()); // waits until the crawler hangs up
        PipelineHarness h = harness("first-byte-timeout-ms", "400", "read-timeout-ms", "5000",
                "total-timeout-ms", "10000");
        long t0 = System.nanoTime();
        FetchResult r = h.fetch(url("/silent"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.outcome()).isEqualTo(FetchOutcome.TIMEOUT);
        assertThat(r.error()).contains("first-byte");
        assertThat(r.fetchMillis()).as("request written to cut").isBetween(350L, 3_000L);
        assertThat(ms).isLessThan(8_000L);
    }

    @Test
    void halfWrittenResponsesAndResetsAreCountedOutcomes() {
        server.on("/half", (c, head) -> {
            OutputStream out = c.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<html>abc"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            c.close();
        });
        server.on("/headcut", (c, head) -> {
            c.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Ty".getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            c.close();
        });
        server.on("/rst", (c, head) -> {
            c.setSoLinger(true, 0); // close sends RST
            c.close();
        });
        PipelineHarness h = harness();
        FetchResult half = h.fetch(url("/half"));
        FetchResult headCut = h.fetch(url("/headcut"));
        FetchResult rst = h.fetch(url("/rst"));
        assertThat(half.outcome()).isEqualTo(FetchOutcome.CONNECTION_RESET);
        assertThat(half.error()).contains("mid-response");
        assertThat(headCut.outcome()).isEqualTo(FetchOutcome.CONNECTION_RESET);
        assertThat(rst.outcome()).isEqualTo(FetchOutcome.CONNECTION_RESET);
        assertThat(h.outcomes(FetchOutcome.CONNECTION_RESET)).isEqualTo(3.0);
    }

    /** Regression found by HttpResponseFuzzTest: Netty parses "HTTP/1.1 0" as a response with status 0. */
    @Test
    void aStatusCodeOutsideThreeDigitsIsAProtocolError() {
        server.on("/zero", (c, head) -> {
            c.getOutputStream().write("HTTP/1.1 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
        });
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/zero"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.PROTOCOL_ERROR);
        assertThat(r.error()).contains("status code 0");
    }

    @Test
    void retryAfterHoldsTheIpBackLongerThanTheInterval() {
        AtomicInteger calls = new AtomicInteger();
        server.on("/busy", (c, head) -> respond(c, 429, "text/plain", new byte[0],
                List.of(calls.incrementAndGet() == 1 ? "Retry-After: 1" : "X-Nothing: 1")));
        server.on("/next", html("<p>ok</p>"));
        PipelineHarness h = harness("politeness-ms", "50");
        FetchResult busy = h.fetch(url("/busy"));
        assertThat(busy.outcome()).isEqualTo(FetchOutcome.THROTTLED);
        assertThat(busy.status()).isEqualTo(429);
        assertThat(h.pipeline.backoff().intervalFor("127.0.0.1", 50)).isGreaterThanOrEqualTo(1000);
        FetchResult next = h.fetch(url("/next"));
        assertThat(next.outcome()).isEqualTo(FetchOutcome.OK);
        long busyAt = server.hits.stream().filter(x -> x.path().equals("/busy")).findFirst().orElseThrow().atMillis();
        long nextAt = server.hits.stream().filter(x -> x.path().equals("/next")).findFirst().orElseThrow().atMillis();
        assertThat(nextAt - busyAt).as("Retry-After: 1 honoured").isGreaterThanOrEqualTo(1000);
        assertThat(h.metrics.backoffCount(HostBackoff.Cause.RETRY_AFTER)).isEqualTo(1.0);
        assertThat(h.outcomes(FetchOutcome.THROTTLED)).isEqualTo(1.0);
    }

    @Test
    void serviceUnavailableWithoutRetryAfterIsThrottledAndBacksOff() {
        server.on("/down", status(503));
        PipelineHarness h = harness("politeness-ms", "100");
        FetchResult r = h.fetch(url("/down"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.THROTTLED);
        assertThat(h.pipeline.backoff().intervalFor("127.0.0.1", 100)).isGreaterThanOrEqualTo(100);
        assertThat(h.metrics.backoffCount(HostBackoff.Cause.THROTTLED)).isEqualTo(1.0);
    }

    @Test
    void perHostBudgetStopsFetchingWithoutNetwork() {
        server.on("/p1", html("1")).on("/p2", html("2")).on("/p3", html("3"));
        PipelineHarness h = harness("max-pages-per-host", "2");
        assertThat(h.fetch(url("/p1")).outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(h.fetch(url("/p2")).outcome()).isEqualTo(FetchOutcome.OK);
        FetchResult third = h.fetch(url("/p3"));
        assertThat(third.outcome()).isEqualTo(FetchOutcome.HOST_BUDGET_EXHAUSTED);
        assertThat(server.hits("/p3")).isZero();
        assertThat(h.outcomes(FetchOutcome.HOST_BUDGET_EXHAUSTED)).isEqualTo(1.0);
    }

    @Test
    void redirectChainsAreCutAtTheLimitAndLoopsAreDetected() {
        for (int i = 0; i < 6; i++) {
            server.on("/r" + i, status(302, "Location: /r" + (i + 1)));
        }
        server.on("/a", status(301, "Location: /b")).on("/b", status(301, "Location: /a"));
        PipelineHarness h = harness("max-redirects", "3");
        // the scheduler hands each target back as a new request; here the test plays the scheduler
        assertThat(h.fetch(url("/r0")).outcome()).isEqualTo(FetchOutcome.REDIRECT);
        assertThat(h.fetch(url("/r1")).outcome()).isEqualTo(FetchOutcome.REDIRECT);
        assertThat(h.fetch(url("/r2")).outcome()).isEqualTo(FetchOutcome.REDIRECT);
        FetchResult fourth = h.fetch(url("/r3"));
        assertThat(fourth.outcome()).isEqualTo(FetchOutcome.REDIRECT_LIMIT);
        assertThat(fourth.redirectTarget()).isNull();
        assertThat(h.fetch(url("/a")).outcome()).isEqualTo(FetchOutcome.REDIRECT);
        FetchResult loop = h.fetch(url("/b"));
        assertThat(loop.outcome()).isEqualTo(FetchOutcome.REDIRECT_LOOP);
        assertThat(h.discovered).extracting(DiscoveredUrls.Entry::url)
                .containsExactly(url("/r1"), url("/r2"), url("/r3"), url("/b"));
        assertThat(h.rejected("redirect_limit")).isEqualTo(1.0);
        assertThat(h.rejected("redirect_loop")).isEqualTo(1.0);
    }

    @Test
    void robotsTxtRedirectsAreFollowedForFiveHops() {
        server.on("/robots.txt", status(301, "Location: /rb1"));
        for (int i = 1; i < 5; i++) {
            server.on("/rb" + i, status(302, "Location: /rb" + (i + 1)));
        }
        server.on("/rb5", (c, head) -> respond(c, 200, "text/plain",
                "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8), List.of()));
        server.on("/private", html("secret")).on("/public", html("hello"));
        PipelineHarness h = harness();
        assertThat(h.fetch(url("/private")).outcome()).isEqualTo(FetchOutcome.ROBOTS_DENIED);
        assertThat(h.fetch(url("/public")).outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(server.hits("/rb5")).isEqualTo(1);
        assertThat(server.hits("/private")).isZero();
    }

    @Test
    void robotsTxtServerErrorDisallowsEverythingAndUnreachableToo() throws IOException {
        server.on("/robots.txt", status(500)).on("/page", html("x"));
        PipelineHarness h = harness();
        assertThat(h.fetch(url("/page")).outcome()).isEqualTo(FetchOutcome.ROBOTS_DENIED);
        assertThat(server.hits("/page")).isZero();

        HostileServer rst = new HostileServer("127.0.0.1");
        try (rst) {
            rst.on("/robots.txt", (c, head) -> {
                c.setSoLinger(true, 0);
                c.close();
            });
            FetchResult r = h.fetch("127.0.0.1", "http://127.0.0.1:" + rst.port() + "/page", Duration.ofSeconds(15));
            assertThat(r.outcome()).isEqualTo(FetchOutcome.CONNECTION_RESET); // deferred: the network reason
            assertThat(rst.hits("/page")).isZero();
        }
    }

    @Test
    void robotsTxtClientErrorAllowsEverything() {
        server.on("/robots.txt", status(403)).on("/page", html("x"));
        PipelineHarness h = harness();
        assertThat(h.fetch(url("/page")).outcome()).isEqualTo(FetchOutcome.OK);
    }

    @Test
    void hugeRobotsTxtIsReadUpToTheCapOnly() {
        StringBuilder sb = new StringBuilder("User-agent: *\nDisallow: /early\n");
        while (sb.length() < 2 * 1024 * 1024) {
            sb.append("# ").append("x".repeat(4000)).append('\n');
        }
        sb.append("Disallow: /late\n");
        byte[] robots = sb.toString().getBytes(StandardCharsets.UTF_8);
        server.on("/robots.txt", (c, head) -> respond(c, 200, "text/plain", robots, List.of()));
        server.on("/early", html("e")).on("/late", html("l"));
        PipelineHarness h = harness();
        assertThat(h.config.robots().maxBytes()).isGreaterThanOrEqualTo(500 * 1024); // RFC 9309: at least 500 KiB
        assertThat(h.fetch(url("/early")).outcome()).isEqualTo(FetchOutcome.ROBOTS_DENIED);
        assertThat(h.fetch(url("/late")).outcome()).isEqualTo(FetchOutcome.OK); // beyond the cap: not read
    }

    @Test
    void htmlServedAsRobotsTxtIsParsedLeniently() {
        server.on("/robots.txt", html("<!doctype html><html><head><title>Welcome</title></head><body>"
                + "<p>Our site</p><script>var a = '<';</script></body></html>"));
        server.on("/page", html("x"));
        PipelineHarness h = harness();
        assertThat(h.fetch(url("/page")).outcome()).isEqualTo(FetchOutcome.OK);
    }

    @Test
    void trapUrlsAreNeverDiscoveredAndAreCounted() {
        String query = "?" + String.join("&", java.util.stream.IntStream.range(0, 40).mapToObj(i -> "f" + i + "=1")
                .toList());
        server.on("/trap", html("<a href=\"/cal/a/b/a/b/a/b/a/b/x\">repeat</a>"
                + "<a href=\"/search" + query + "\">facets</a>"
                + "<a href=\"/" + "y".repeat(3000) + "\">long</a>"
                + "<a href=\"/fine?a=1&b=2\">fine</a>"));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/trap"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(h.discovered).extracting(DiscoveredUrls.Entry::url).containsExactly(url("/fine?a=1&b=2"));
        assertThat(h.rejected("trap-repeated-segments")).isEqualTo(1.0);
        assertThat(h.rejected("trap-query-params")).isEqualTo(1.0);
        assertThat(h.rejected("too-long")).isEqualTo(1.0);
    }

    @Test
    void linksPerPageAreCapped() {
        StringBuilder page = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            page.append("<a href=\"/l").append(i).append("\">l</a>");
        }
        server.on("/many", html(page.toString()));
        PipelineHarness h = harness("max-outlinks", "3");
        FetchResult r = h.fetch(url("/many"));
        assertThat(r.outlinks()).isEqualTo(3);
        assertThat(h.discovered).hasSize(3);
        assertThat(h.rejected("limit")).isEqualTo(7.0);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
