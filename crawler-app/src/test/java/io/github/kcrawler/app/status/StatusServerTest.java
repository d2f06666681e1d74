package io.github.kcrawler.app.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.serde.JsonSerde;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class StatusServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private PrometheusMeterRegistry registry;
    private TestMeters meters;
    private StatusService service;

    @BeforeEach
    void start() throws Exception {
        registry = MetricsServer.newRegistry();
        meters = new TestMeters(registry);
        service = StatusService.start(new RegistryMetricsSource(registry), "127.0.0.1", 0, Duration.ofMillis(100));
    }

    @AfterEach
    void stop() {
        service.close();
        registry.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(service.url() + path.substring(1))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void bindsLoopbackAndServesThePageAndItsAssetsFromTheClasspath() throws Exception {
        assertThat(service.url()).startsWith("http://127.0.0.1:");
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                c -> assertThat(c).contains("default-src 'none'", "script-src 'self'", "connect-src 'self'"));
        assertThat(page.body()).contains("<script src=\"status.js\">").doesNotContain("http://", "https://");
        HttpResponse<String> js = get("/status.js");
        assertThat(js.statusCode()).isEqualTo(200);
        assertThat(js.body()).contains("api/status").doesNotContain("innerHTML", "https://", "eval(");
        assertThat(get("/status.css").statusCode()).isEqualTo(200);
    }

    @Test
    void apiStatusHasTheDocumentedFieldsWithLiveValues() throws Exception {
        meters.crawl(20, 15);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            JsonNode s = JsonSerde.MAPPER.readTree(get("/api/status").body());
            assertThat(s.get("v").asInt()).isEqualTo(StatusReport.VERSION);
            assertThat(s.get("pagesFetched").asLong()).isEqualTo(21);
            assertThat(s.has("pagesPerSecond")).isTrue();
            assertThat(s.get("frontierSize").asLong()).isEqualTo(980);
            assertThat(s.get("errorsByReason").get("timeout").asLong()).isEqualTo(1);
            assertThat(s.get("rates").has("latencyP99Ms")).isTrue();
            assertThat(s.get("activity").isNull()).as("no Kafka: no per-host tables").isTrue();
        });
        JsonNode history = JsonSerde.MAPPER.readTree(get("/api/history").body());
        assertThat(history.isArray()).isTrue();
        assertThat(history.size()).isGreaterThanOrEqualTo(1);
        assertThat(history.get(0).has("pagesPerSecond")).isTrue();
    }

    @Test
    void unknownPathsMethodsAndForeignHostsAreRefused() throws Exception {
        assertThat(get("/nope").statusCode()).isEqualTo(404);
        assertThat(get("/../pom.xml").statusCode()).isEqualTo(404);
        assertThat(get("/status.js/../../index.html").statusCode()).isEqualTo(404);
        // a malformed query is the JDK server's 400 (or ignored); never a 500 and never a dead server
        assertThat(raw("GET /api/status?x=%ZZ&&== HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .matches("HTTP/1.1 (200|400)");
        assertThat(raw("GET %2e%2e/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .doesNotStartWith("HTTP/1.1 200");
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(service.url() + "api/status"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(raw("GET /api/status HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 421");
        assertThat(raw("GET / HTTP/1.1\r\nHost: localhost:" + service.port() + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
    }

    @Test
    void garbageOnTheSocketDoesNotStopTheServer() throws Exception {
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            byte[] junk = new byte[random.nextInt(5000) + 1];
            random.nextBytes(junk);
            try (Socket s = new Socket("127.0.0.1", service.port())) {
                s.setSoTimeout(2000);
                s.getOutputStream().write(junk);
                s.shutdownOutput();
                s.getInputStream().readAllBytes();
            } catch (java.io.IOException expected) {
                // the server may reset the connection; what matters is that it keeps serving
            }
        }
        raw("GET /" + "a".repeat(100_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        assertThat(get("/api/status").statusCode()).isEqualTo(200);
    }

    @Test
    void loopbackHostHeaders() {
        assertThat(StatusServer.loopbackHost("127.0.0.1:9500")).isTrue();
        assertThat(StatusServer.loopbackHost("localhost")).isTrue();
        assertThat(StatusServer.loopbackHost("[::1]:80")).isTrue();
        assertThat(StatusServer.loopbackHost("127.0.0.1.evil.example")).isFalse();
        assertThat(StatusServer.loopbackHost("[::1")).isFalse();
        assertThat(StatusServer.loopbackHost("example.org:9500")).isFalse();
    }

    private String raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", service.port())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = in.readNBytes(12);
            return new String(head, StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
