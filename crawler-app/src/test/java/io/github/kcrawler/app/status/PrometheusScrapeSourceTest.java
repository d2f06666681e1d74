package io.github.kcrawler.app.status;

import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.common.metrics.MetricsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrometheusScrapeSourceTest extends MetricsSourceContract {
    private MetricsServer server;
    private HttpServer fake;

    @Override
    protected MetricsSource source() throws Exception {
        if (server == null) {
            server = MetricsServer.start(registry, "127.0.0.1", 0, () -> true);
        }
        return new PrometheusScrapeSource(List.of(URI.create("http://127.0.0.1:" + server.port() + "/metrics")),
                Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (fake != null) {
            fake.stop(0);
        }
    }

    private URI serve(int status, String body) throws Exception {
        fake = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        fake.createContext("/metrics", ex -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, b.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(b);
            }
        });
        fake.start();
        return URI.create("http://127.0.0.1:" + fake.getAddress().getPort() + "/metrics");
    }

    @Test
    void sumsSeveralInstancesOfOneService() throws Exception {
        meters.crawl(3, 10);
        URI real = ((PrometheusScrapeSource) source()).describe().transform(URI::create);
        PrometheusScrapeSource twice = new PrometheusScrapeSource(List.of(real, real), Duration.ofSeconds(5));
        assertThat(twice.read().sum("crawler_fetch_total", s -> "OK".equals(s.label("outcome")))).isEqualTo(6.0);
    }

    @Test
    void unreachableEndpointIsAnErrorInTheSnapshotAndTheOthersStillCount() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        meters.crawl(3, 10);
        URI real = URI.create(source().describe());
        PrometheusScrapeSource src = new PrometheusScrapeSource(
                List.of(URI.create("http://127.0.0.1:" + closedPort + "/metrics"), real), Duration.ofSeconds(2));
        MetricsSnapshot s = src.read();
        assertThat(s.errors()).singleElement().asString().contains(Integer.toString(closedPort))
                .doesNotEndWith("null");
        assertThat(s.sum("crawler_fetch_bytes_total")).isEqualTo(3 * 1024.0);
    }

    @Test
    void httpErrorAndGarbageAreReportedNotThrown() throws Exception {
        MetricsSnapshot s = new PrometheusScrapeSource(List.of(serve(500, "oops")), Duration.ofSeconds(2)).read();
        assertThat(s.errors()).singleElement().asString().contains("HTTP 500");
        fake.stop(0);
        MetricsSnapshot g = new PrometheusScrapeSource(List.of(serve(200,
                "crawler_fetch_total{outcome=\"OK\"} 4\n\u0000\u0001 garbage {{{\ncrawler_frontier_size 7 123456\n")),
                Duration.ofSeconds(2)).read();
        assertThat(g.errors()).singleElement().asString().contains("1 malformed");
        assertThat(g.sum("crawler_fetch_total")).isEqualTo(4.0);
        assertThat(g.sum("crawler_frontier_size")).isEqualTo(7.0);
    }

    @Test
    void refusesNonHttpEndpoints() {
        assertThatThrownBy(() -> new PrometheusScrapeSource(List.of(URI.create("file:///etc/passwd")),
                Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PrometheusScrapeSource(List.of(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
