package io.github.kcrawler.lab;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.demo.DemoOptions;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.demo.DemoSummary;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The status page in a real browser: a demo crawl of a small simulated web runs with the page on, headless Chromium
 * loads it twice some seconds apart (DOM after its scripts ran), and the numbers and charts it drew must come from
 * the live crawl and move. A screenshot is saved to {@code target/status-screenshot.png}. Skipped without
 * {@code /usr/bin/chromium}.
 */
class StatusPageBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Pattern PAGES_FETCHED = Pattern.compile("id=\"pagesFetched\">([0-9,]+)<");
    private static final Pattern PAGES_CHART = Pattern.compile(
            "<figure class=\"chart\" id=\"chart-pages\">.*?<svg[^>]*data-points=\"(\\d+)\".*?</svg>", Pattern.DOTALL);
    private static final Pattern POLYLINE = Pattern.compile(
            "<polyline [^>]*points=\"([^\"]+)\"[^>]*data-series=\"pages/s\"");

    private static final Pattern BUSIEST_HOST = Pattern.compile(
            "<table id=\"busiestHosts\">.*?<tr><td>([a-z0-9.-]+)</td><td class=\"num\">([0-9,]+)</td>", Pattern.DOTALL);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void statusPageShowsLiveMovingCrawlNumbersInChromium() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no /usr/bin/chromium");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/";
        Path dir = Path.of("target", "status-page-it");
        // 16 IPs at T = 500 ms fetch at most 32 pages/s: a budget of 1,500 pages lasts at least 47 s, long enough to
        // watch with two Chromium runs. At T = 100 ms (160 pages/s) one CI run on 2 busy cores had its crawl end
        // ~14.5 s after the first fetch, before Chromium's first page load (~16 s after it): ERR_CONNECTION_REFUSED.
        DemoOptions options = new DemoOptions(null, 4_000, 1_500, 500, 16, 5, 1000, 4, dir, 300, false, Map.of(),
                DemoOptions.DEFAULT_PAGES_PER_HOST, port);
        CompletableFuture<DemoSummary> crawl = CompletableFuture.supplyAsync(() -> {
            try {
                return DemoRunner.run(options, null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .until(() -> crawl.isDone() || apiPagesFetched(url) > 0);
            assertThat(crawl.isDone()).as("the crawl is still running").isFalse();

            String first = dumpDom(url);
            long firstPages = pagesFetched(first);
            assertThat(firstPages).as("pages fetched shown by the page").isPositive();
            assertThat(chartPoints(first)).as("points in the pages/s chart").isGreaterThanOrEqualTo(2);
            String firstLine = pagesLine(first);
            assertThat(first).contains("id=\"errorsByReason\"").contains("dns_failure").contains("timeout");
            // busiest hosts from crawl.fetch.results: websim's hosts, with their fetch counts
            Matcher hosts = BUSIEST_HOST.matcher(first);
            assertThat(hosts.find()).as("a row in the busiest hosts table").isTrue();
            assertThat(Long.parseLong(hosts.group(2).replace(",", ""))).isPositive();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> apiPagesFetched(url) > firstPages + 50);
            String second = dumpDom(url);
            assertThat(pagesFetched(second)).as("pages fetched a few seconds later").isGreaterThan(firstPages);
            assertThat(chartPoints(second)).isGreaterThan(chartPoints(first));
            assertThat(pagesLine(second)).as("the pages/s line moved").isNotEqualTo(firstLine);
            assertThat(maxChartValue(second)).as("some pages/s point above zero").isPositive();

            Path screenshot = Path.of("target", "status-screenshot.png").toAbsolutePath();
            Files.deleteIfExists(screenshot);
            chromium(List.of("--screenshot=" + screenshot, "--window-size=1400,1900", "--hide-scrollbars",
                    "--virtual-time-budget=3000", url));
            assertThat(screenshot).exists();
            byte[] png = Files.readAllBytes(screenshot);
            assertThat(png.length).isGreaterThan(20_000);
            assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        } finally {
            DemoSummary summary = crawl.get(300, TimeUnit.SECONDS);
            assertThat(summary.politenessViolations()).isZero();
        }
    }

    private long apiPagesFetched(String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "api/status"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return -1;
            }
            JsonNode s = JsonSerde.MAPPER.readTree(r.body());
            return s.get("pagesFetched").asLong();
        } catch (IOException e) {
            return -1; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The DOM after the page's scripts ran for 4 s of virtual time (history loaded, several polls). */
    private static String dumpDom(String url) throws Exception {
        return chromium(List.of("--dump-dom", "--virtual-time-budget=4000", url));
    }

    private static String chromium(List<String> args) throws Exception {
        Path profile = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "chromium-profile");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--enable-logging=stderr", "--v=0"));
        command.addAll(args);
        Path err = profile.resolveSibling(profile.getFileName() + ".stderr");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s: " + command);
        }
        assertThat(p.exitValue()).as("chromium exit code (stderr in %s)", err).isZero();
        // the page's console: no script error, no resource refused by the Content-Security-Policy
        List<String> console = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(":CONSOLE")).toList();
        assertThat(console).as("browser console messages").noneMatch(l -> l.contains("Uncaught")
                || l.contains("Refused to") || l.contains("Content Security Policy") || l.contains("Failed to load"));
        return new String(out.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    }

    private static long pagesFetched(String dom) {
        Matcher m = PAGES_FETCHED.matcher(dom);
        assertThat(m.find()).as("pagesFetched tile in the DOM").isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    private static int chartPoints(String dom) {
        Matcher m = PAGES_CHART.matcher(dom);
        assertThat(m.find()).as("pages chart in the DOM").isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String pagesLine(String dom) {
        Matcher m = POLYLINE.matcher(dom);
        assertThat(m.find()).as("pages/s line in the chart").isTrue();
        return m.group(1);
    }

    /** The highest pages/s point, in chart pixels above the x axis. */
    private static double maxChartValue(String dom) {
        double bottom = Double.NEGATIVE_INFINITY;
        double top = Double.POSITIVE_INFINITY;
        for (String point : pagesLine(dom).split(" ")) {
            double y = Double.parseDouble(point.substring(point.indexOf(',') + 1));
            bottom = Math.max(bottom, y);
            top = Math.min(top, y);
        }
        return bottom - top;
    }
}
