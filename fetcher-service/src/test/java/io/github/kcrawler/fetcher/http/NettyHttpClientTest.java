package io.github.kcrawler.fetcher.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.common.time.CrawlClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The HTTP client against real loopback servers: no mocks of the network. */
class NettyHttpClientTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private HttpServer server;
    private NettyTransport transport;
    private NettyHttpClient client;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(LOOPBACK, 0), 50);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/page", ex -> {
            clientPorts.add(ex.getRemoteAddress().getPort());
            respond(ex, 200, "text/html; charset=UTF-8", "<html><a href=\"/x\">x</a></html>".getBytes());
        });
        server.createContext("/gzip", ex -> {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
                gz.write("compressed hello ".repeat(100).getBytes(StandardCharsets.UTF_8));
            }
            ex.getResponseHeaders().set("Content-Encoding", "gzip");
            respond(ex, 200, "text/html", bos.toByteArray());
        });
        server.createContext("/slow", ex -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(ex, 200, "text/html", new byte[0]);
        });
        server.createContext("/big", ex -> respond(ex, 200, "text/html", new byte[100_000]));
        server.createContext("/chunked-big", ex -> {
            ex.getResponseHeaders().set("Content-Type", "text/html");
            ex.sendResponseHeaders(200, 0); // chunked
            try (OutputStream os = ex.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    os.write(new byte[1000]);
                }
            }
        });
        server.createContext("/moved", ex -> {
            ex.getResponseHeaders().set("Location", "/page?from=moved");
            respond(ex, 301, "text/html", new byte[0]);
        });
        server.createContext("/pdf", ex -> respond(ex, 200, "application/pdf", "%PDF-1.4".getBytes()));
        server.createContext("/headers", ex -> {
            String echo = ex.getRequestHeaders().getFirst("User-Agent") + "|" + ex.getRequestHeaders().getFirst("Host")
                    + "|" + ex.getRequestHeaders().getFirst("Accept-Encoding") + "|"
                    + ex.getRequestHeaders().getFirst("If-None-Match");
            respond(ex, 200, "text/plain", echo.getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/", ex -> respond(ex, 404, "text/html", "not here".getBytes()));
        server.start();
        transport = new NettyTransport(1, true);
        client = newClient(null, List.of(), 2_000, 10_000);
    }

    private NettyHttpClient newClient(InetSocketAddress proxy, List<java.security.cert.X509Certificate> trust,
                                      int readTimeout, int totalTimeout) {
        return new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000, readTimeout,
                totalTimeout, proxy, 2, 100, 30_000, trust), CrawlClock.SYSTEM);
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        client.close();
        transport.close();
        server.stop(0);
    }

    private static void respond(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
        }
    }

    private HttpFetchResponse get(NettyHttpClient c, String target, int maxBody) {
        return c.fetch(new HttpFetch(false, "localhost", server.getAddress().getPort(), LOOPBACK, target, List.of(),
                maxBody)).orTimeout(30, TimeUnit.SECONDS).join();
    }

    private HttpFetchResponse get(String target) {
        return get(client, target, 1 << 20);
    }

    @Test
    void fetchesAPageAndReusesTheKeptAliveConnection() {
        HttpFetchResponse first = get("/page");
        assertThat(first.complete()).isTrue();
        assertThat(first.status()).isEqualTo(200);
        assertThat(new String(first.body(), 0, first.bodyLength(), StandardCharsets.UTF_8)).contains("href");
        assertThat(first.header("content-type")).isEqualTo("text/html; charset=UTF-8");
        assertThat(first.sentAtMillis()).isPositive();
        assertThat(first.completedAtMillis()).isGreaterThanOrEqualTo(first.sentAtMillis());
        assertThat(client.idleConnections()).isEqualTo(1);
        HttpFetchResponse second = get("/page");
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.reusedConnection()).isTrue();
        assertThat(clientPorts).hasSize(1);
        assertThat(client.openConnections()).isEqualTo(1);
    }

    @Test
    void sendsHostUserAgentAndAcceptEncodingAndValidators() {
        HttpFetchResponse r = client.fetch(new HttpFetch(false, "example.test", server.getAddress().getPort(),
                LOOPBACK, "/headers", List.of(Map.entry("If-None-Match", "\"abc\"")), 1 << 20)).join();
        String echo = new String(r.body(), 0, r.bodyLength(), StandardCharsets.UTF_8);
        assertThat(echo).isEqualTo("kcrawler-test/1.0|example.test:" + server.getAddress().getPort()
                + "|gzip, deflate|\"abc\"");
        assertThat(r.requestHeaders()).extracting(Map.Entry::getKey).startsWith("Host", "User-Agent");
    }

    @Test
    void decodesGzipBodies() {
        HttpFetchResponse r = get("/gzip");
        assertThat(r.complete()).isTrue();
        assertThat(new String(r.body(), 0, r.bodyLength(), StandardCharsets.UTF_8))
                .isEqualTo("compressed hello ".repeat(100));
    }

    @Test
    void readTimeoutEndsAStalledResponse() {
        NettyHttpClient quick = newClient(null, List.of(), 300, 10_000);
        HttpFetchResponse r = get(quick, "/slow", 1 << 20);
        assertThat(r.failure()).isEqualTo(HttpFailure.TIMEOUT);
        assertThat(r.error()).contains("read timeout");
        assertThat(r.status()).isZero();
        quick.close();
    }

    @Test
    void aReusedConnectionGetsAFullReadTimeoutAfterIdlingInThePool() {
        NettyHttpClient c = newClient(null, List.of(), 500, 10_000);
        assertThat(get(c, "/page", 1 << 20).status()).isEqualTo(200);
        // the pooled connection outlives a few read-timeout periods (keep-alive is 30 s) ...
        await().pollDelay(Duration.ofMillis(1300)).atMost(Duration.ofSeconds(5))
                .until(() -> c.idleConnections() == 1);
        // ... and a request on it that gets no answer times out a full read timeout after it was sent,
        // not at the idle check left over from the connection's quiet time in the pool
        HttpFetchResponse stalled = get(c, "/slow", 1 << 20);
        assertThat(stalled.failure()).isEqualTo(HttpFailure.TIMEOUT);
        assertThat(stalled.completedAtMillis() - stalled.sentAtMillis()).isGreaterThanOrEqualTo(450);
        c.close();
    }

    @Test
    void totalTimeoutEndsATricklingResponse() throws IOException {
        try (TestServers.RawServer trickle = new TestServers.RawServer((s, head) -> {
            TestServers.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
            for (int i = 0; i < 1000 && !s.isClosed(); i++) {
                TestServers.write(s, "x");
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
        })) {
            NettyHttpClient c = newClient(null, List.of(), 2_000, 400);
            HttpFetchResponse r = c.fetch(new HttpFetch(false, "localhost", trickle.port(), LOOPBACK, "/", List.of(),
                    1 << 20)).join();
            assertThat(r.failure()).isEqualTo(HttpFailure.TIMEOUT);
            assertThat(r.error()).contains("total timeout");
            c.close();
        }
    }

    @Test
    void bodiesAreCutAtTheCap() {
        HttpFetchResponse declared = get(client, "/big", 10_000);
        assertThat(declared.failure()).isEqualTo(HttpFailure.TOO_LARGE);
        assertThat(declared.status()).isEqualTo(200);
        assertThat(declared.error()).contains("Content-Length");
        HttpFetchResponse chunked = get(client, "/chunked-big", 10_000);
        assertThat(chunked.failure()).isEqualTo(HttpFailure.TOO_LARGE);
        assertThat(chunked.bodyLength()).isEqualTo(10_000);
        assertThat(get(client, "/big", 100_000).complete()).isTrue(); // exactly at the cap is fine
    }

    @Test
    void redirectsAreReturnedNotFollowed() {
        HttpFetchResponse r = get("/moved");
        assertThat(r.complete()).isTrue();
        assertThat(r.status()).isEqualTo(301);
        assertThat(r.header("Location")).isEqualTo("/page?from=moved");
    }

    @Test
    void errorStatusesAreCompleteResponses() {
        HttpFetchResponse r = get("/nothing-here");
        assertThat(r.complete()).isTrue();
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.bodyLength()).isEqualTo(8);
    }

    @Test
    void nonHtmlIsFetchedWithItsType() {
        HttpFetchResponse r = get("/pdf");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).isEqualTo("application/pdf");
    }

    @Test
    void refusedConnectionIsAConnectFailure() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            port = s.getLocalPort();
        }
        HttpFetchResponse r = client.fetch(new HttpFetch(false, "localhost", port, LOOPBACK, "/", List.of(), 100))
                .join();
        assertThat(r.failure()).isEqualTo(HttpFailure.CONNECT);
        assertThat(r.sentAtMillis()).isEqualTo(-1);
    }

    @Test
    void garbageResponseIsAProtocolError() throws IOException {
        try (TestServers.RawServer junk = new TestServers.RawServer((s, head) ->
                TestServers.write(s, "SMTP ready, not HTTP at all\r\n\r\n"))) {
            HttpFetchResponse r = client.fetch(new HttpFetch(false, "localhost", junk.port(), LOOPBACK, "/",
                    List.of(), 100)).join();
            assertThat(r.failure()).isEqualTo(HttpFailure.PROTOCOL);
        }
    }

    @Test
    void http10ResponseDelimitedByCloseIsComplete() throws IOException {
        try (TestServers.RawServer old = new TestServers.RawServer((s, head) ->
                TestServers.write(s, "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>old</html>"))) {
            HttpFetchResponse r = client.fetch(new HttpFetch(false, "localhost", old.port(), LOOPBACK, "/",
                    List.of(), 1000)).join();
            assertThat(r.complete()).isTrue();
            assertThat(new String(r.body(), 0, r.bodyLength(), StandardCharsets.UTF_8)).isEqualTo("<html>old</html>");
        }
    }

    @Test
    void aServerThatClosesKeptAliveConnectionsDoesNotCauseFailures() throws IOException {
        try (TestServers.RawServer rude = new TestServers.RawServer((s, head) ->
                TestServers.write(s, "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok"))) {
            for (int i = 0; i < 20; i++) {
                HttpFetchResponse r = client.fetch(new HttpFetch(false, "localhost", rude.port(), LOOPBACK, "/",
                        List.of(), 1000)).join();
                assertThat(r.complete()).as("request %d: %s", i, r.error()).isTrue();
            }
        }
    }

    /** Found by websim's reset host: the stale-connection retry resent a request the server had read 47 ms before. */
    @Test
    void aRequestTheServerMayHaveReadIsSentAgainOnlyAfterTheResendDelay() throws Exception {
        List<Long> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
        try (TestServers.RawServer server = new TestServers.RawServer((s, head) -> {
            arrivals.add(System.nanoTime());
            if (connections.incrementAndGet() == 1) {
                TestServers.write(s, "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok");
                try {
                    if (TestServers.readHead(s.getInputStream()) != null) {
                        arrivals.add(System.nanoTime()); // read the second request, then close unanswered
                    }
                } catch (IOException e) {
                    // the client went away
                }
            } else {
                TestServers.write(s, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
            }
        })) {
            NettyHttpClient paced = new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000,
                    2_000, 10_000, null, 2, 100, 30_000, List.of(), 10_000, false, 400), CrawlClock.SYSTEM);
            try {
                for (int i = 0; i < 2; i++) {
                    HttpFetchResponse r = paced.fetch(new HttpFetch(false, "localhost", server.port(), LOOPBACK, "/",
                            List.of(), 1000)).join();
                    assertThat(r.complete()).as("request %d: %s", i, r.error()).isTrue();
                }
                assertThat(connections.get()).as("a fresh connection for the resend").isEqualTo(2);
                assertThat(arrivals).hasSize(3);
                assertThat(Duration.ofNanos(arrivals.get(2) - arrivals.get(1)))
                        .as("the resend of a request the server had read").isGreaterThanOrEqualTo(Duration.ofMillis(400));
            } finally {
                paced.close();
            }
        }
    }

    @Test
    void plainHttpGoesThroughAProxyInAbsoluteForm() throws IOException {
        try (TestServers.ConnectProxy proxy = new TestServers.ConnectProxy()) {
            NettyHttpClient viaProxy = newClient(proxy.address(), List.of(), 2_000, 10_000);
            HttpFetchResponse r = get(viaProxy, "/page?x=1", 1 << 20);
            assertThat(r.status()).as(r.error()).isEqualTo(200);
            assertThat(new String(r.body(), 0, r.bodyLength(), StandardCharsets.UTF_8)).contains("href");
            assertThat(proxy.forwarded.get()).isEqualTo(1);
            assertThat(proxy.tunnels.get()).isZero();
            assertThat(proxy.targets).containsExactly("http://localhost:" + server.getAddress().getPort()
                    + "/page?x=1");
            viaProxy.close();
        }
    }

    @Test
    void closedClientAnswersWithoutNetwork() {
        NettyHttpClient c = newClient(null, List.of(), 2_000, 10_000);
        c.close();
        assertThat(get(c, "/page", 100).failure()).isEqualTo(HttpFailure.CLOSED);
    }
}
