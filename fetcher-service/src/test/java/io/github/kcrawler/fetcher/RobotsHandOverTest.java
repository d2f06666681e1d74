package io.github.kcrawler.fetcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.common.model.FetchResult;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * robots.txt at a hand-over of partitions, through the real pipeline against a loopback server with two sites on one
 * IP: a robots.txt fetch queued at the IP's guard on behalf of a request whose partition then starts leaving is not
 * sent (the partition's next owner paces the IP and reads robots.txt itself — sending it here broke that pacing in
 * FaultsIT and ScaleIT), no verdict is cached for it, and a request of a partition still owned that waited for the
 * same file asks again and gets it.
 */
class RobotsHandOverTest {
    /**
     * Long enough that a robots.txt fetch queued behind a page waits at the guard while the test moves partitions:
     * the margin is about T less one page's round trip, and a loaded CI machine can stall a test thread for hundreds
     * of milliseconds.
     */
    private static final long T = 1_000;
    private static final TopicPartition LEAVING = new TopicPartition("req", 0);
    private static final TopicPartition STAYING = new TopicPartition("req", 1);
    private HttpServer server;
    private int port;
    /** "host path" of every request the server saw, in order. */
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        server.createContext("/", this::serve);
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        String host = ex.getRequestHeaders().getFirst("Host");
        String path = ex.getRequestURI().getRawPath();
        requests.add(host.substring(0, host.indexOf(':')) + " " + path);
        byte[] body = (path.equals("/robots.txt") ? "User-agent: *\nAllow: /\n" : "<html><body>page</body></html>")
                .getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", path.equals("/robots.txt") ? "text/plain" : "text/html");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private PipelineHarness harness() throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        return new PipelineHarness(Map.of("politeness-ms", Long.toString(T)),
                Map.of("a.test", List.of(loopback), "b.test", List.of(loopback)));
    }

    private String url(String host, String path) {
        return "http://" + host + ":" + port + path;
    }

    private static double notFetched(PipelineHarness h) {
        return h.registry.get("crawler.robots.fetches").tag("result", "not_fetched").counter().count();
    }

    @Test
    void aQueuedRobotsTxtIsNotSentOnceItsRequestsPartitionLeaves_andNothingIsCached() throws Exception {
        try (PipelineHarness h = harness()) {
            OffsetTracker tracker = new OffsetTracker();
            h.fetch("127.0.0.1", url("a.test", "/1"), Duration.ofSeconds(15)); // the IP's guard is now busy for T
            h.submit("127.0.0.1", url("b.test", "/1"), tracker.add(LEAVING, 0)); // b's robots.txt queues at it
            tracker.leaving(List.of(LEAVING)); // a rebalance starts taking the partition away
            await().atMost(Duration.ofSeconds(10)).until(() -> h.abandoned.size() == 1);
            assertThat(h.abandoned).containsExactly(url("b.test", "/1"));
            assertThat(notFetched(h)).isEqualTo(1);
            Thread.sleep(T / 2); // nothing for b arrives late either
            assertThat(requests).containsExactly("a.test /robots.txt", "a.test /1");
            assertThat(h.results).hasSize(1);

            // no verdict was cached for b.test: a request of a partition still owned reads its robots.txt
            h.submit("127.0.0.1", url("b.test", "/2"), tracker.add(STAYING, 0));
            await().atMost(Duration.ofSeconds(10)).until(() -> h.results.size() == 2);
            assertThat(requests).containsExactly("a.test /robots.txt", "a.test /1", "b.test /robots.txt",
                    "b.test /2");
        }
    }

    /**
     * One fetch slot ({@code max-in-flight=1}), held by a page on another IP that the server keeps until the test lets
     * it go: b's robots.txt is granted by its IP's guard but waits for the slot, and its partition leaves meanwhile.
     * When the slot frees, the fetch is not sent (it was, before the check moved after the slot: ScaleIT's violation
     * of the twenty-fourth session). Latches, not sleeps, order the steps: the slot is held until after the partition
     * leaves however slow the machine.
     */
    @Test
    void aRobotsTxtWaitingForAFetchSlot_isNotSentOnceItsRequestsPartitionLeaves() throws Exception {
        CountDownLatch slowPageArrived = new CountDownLatch(1);
        CountDownLatch releaseSlowPage = new CountDownLatch(1);
        HttpServer slow = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0), 50);
        slow.createContext("/", ex -> {
            String path = ex.getRequestURI().getRawPath();
            byte[] body = (path.equals("/robots.txt") ? "User-agent: *\nAllow: /\n" : "<html>slow</html>")
                    .getBytes(StandardCharsets.UTF_8);
            if (path.equals("/page")) {
                slowPageArrived.countDown();
                awaitQuietly(releaseSlowPage);
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        slow.start();
        try (PipelineHarness h = new PipelineHarness(Map.of("politeness-ms", Long.toString(T), "max-in-flight", "1"),
                Map.of("b.test", List.of(InetAddress.getByName("127.0.0.1")),
                        "slow.test", List.of(InetAddress.getByName("127.0.0.2"))))) {
            OffsetTracker tracker = new OffsetTracker();
            String slowPage = "http://slow.test:" + slow.getAddress().getPort() + "/page";
            h.fetch("127.0.0.2", "http://slow.test:" + slow.getAddress().getPort() + "/robots.txt-first",
                    Duration.ofSeconds(15)); // slow.test's robots.txt is read and cached
            h.submit("127.0.0.2", slowPage, tracker.add(STAYING, 0));
            assertThat(slowPageArrived.await(10, TimeUnit.SECONDS)).as("the slow page holds the only slot").isTrue();
            h.submit("127.0.0.1", url("b.test", "/1"), tracker.add(LEAVING, 0)); // granted at once, waits for the slot
            Thread.sleep(300); // lets it reach the slot; were it still before, the guard's own check would drop it
            tracker.leaving(List.of(LEAVING));
            releaseSlowPage.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> h.abandoned.size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.results.size() == 2); // the slow page came back
            assertThat(requests).as("nothing reached b.test's IP").isEmpty();
            assertThat(h.abandoned).containsExactly(url("b.test", "/1"));
            assertThat(notFetched(h)).isEqualTo(1);
            Thread.sleep(T);
            assertThat(requests).as("nothing reached b.test's IP").isEmpty();
        } finally {
            releaseSlowPage.countDown();
            slow.stop(0);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aWaiterStillOwnedAsksAgain_whenTheRequestThatAskedFirstLeaves() throws Exception {
        try (PipelineHarness h = harness()) {
            OffsetTracker tracker = new OffsetTracker();
            h.fetch("127.0.0.1", url("a.test", "/1"), Duration.ofSeconds(15));
            h.submit("127.0.0.1", url("b.test", "/gone"), tracker.add(LEAVING, 0)); // starts b's robots.txt fetch
            h.submit("127.0.0.1", url("b.test", "/kept"), tracker.add(STAYING, 0)); // waits for the same fetch
            tracker.leaving(List.of(LEAVING));
            await().atMost(Duration.ofSeconds(15)).until(() -> h.results.size() == 2);
            assertThat(h.abandoned).containsExactly(url("b.test", "/gone"));
            assertThat(notFetched(h)).isEqualTo(1);
            assertThat(h.results.stream().map(FetchResult::url)).containsExactly(url("a.test", "/1"),
                    url("b.test", "/kept"));
            assertThat(requests).containsExactly("a.test /robots.txt", "a.test /1", "b.test /robots.txt",
                    "b.test /kept");
        }
    }
}
