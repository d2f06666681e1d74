package io.github.kcrawler.app.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.common.serde.JsonSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The status page's HTTP server (JDK {@link HttpServer}): {@code GET /} the page, {@code /status.js} and
 * {@code /status.css} its script and style (from the classpath: nothing is loaded from elsewhere, and the
 * Content-Security-Policy forbids it), {@code GET /api/status} the newest {@link StatusReport} and
 * {@code GET /api/history} the chart points. Binds to loopback unless told otherwise; on loopback it answers only
 * requests whose {@code Host} names loopback, so a web page elsewhere cannot read it through DNS rebinding. Every
 * other path is 404, every other method 405, and a failure while answering is a 500 — never a dead server.
 */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    private static final String RESOURCES = "/io/github/kcrawler/app/status/";
    private static final Map<String, String[]> ASSETS = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/index.html", new String[] {"index.html", "text/html; charset=utf-8"},
            "/status.js", new String[] {"status.js", "text/javascript; charset=utf-8"},
            "/status.css", new String[] {"status.css", "text/css; charset=utf-8"});
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final HttpServer server;
    private final ExecutorService executor;
    private final StatusModel model;
    private final boolean loopbackOnly;

    private StatusServer(HttpServer server, ExecutorService executor, StatusModel model, boolean loopbackOnly) {
        this.server = server;
        this.executor = executor;
        this.model = model;
        this.loopbackOnly = loopbackOnly;
    }

    /** Serves {@code model} on {@code host:port} (port 0 picks a free port). */
    public static StatusServer start(StatusModel model, String host, int port) throws IOException {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("status port must be in 0..65535, was " + port);
        }
        InetAddress address = InetAddress.getByName(host);
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 32);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "status-http-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        StatusServer s = new StatusServer(server, executor, model, address.isLoopbackAddress());
        server.createContext("/", s::handle);
        server.setExecutor(executor);
        server.start();
        return s;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The page's address, e.g. {@code http://127.0.0.1:9500/}. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            try {
                respond(exchange);
            } catch (IOException e) {
                LOG.debug("Status request {} failed: {}", exchange.getRequestURI(), e.toString());
            } catch (RuntimeException e) {
                LOG.warn("Status request {} failed", exchange.getRequestURI(), e);
                trySend(exchange, 500, "text/plain; charset=utf-8", "internal error\n".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private void respond(HttpExchange exchange) throws IOException {
        drain(exchange.getRequestBody());
        String method = exchange.getRequestMethod();
        boolean head = "HEAD".equals(method);
        if (!head && !"GET".equals(method)) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n", false);
            return;
        }
        if (loopbackOnly && !loopbackHost(exchange.getRequestHeaders().getFirst("Host"))) {
            send(exchange, 421, "text/plain; charset=utf-8", "the status page answers only to loopback names\n",
                    head);
            return;
        }
        String path = exchange.getRequestURI().getRawPath();
        if (path == null) {
            path = "/";
        }
        switch (path) {
            case "/api/status" -> sendJson(exchange, model.latest(), head);
            case "/api/history" -> sendJson(exchange, model.history(), head);
            default -> {
                String[] asset = ASSETS.get(path);
                if (asset == null) {
                    send(exchange, 404, "text/plain; charset=utf-8", "not found\n", head);
                } else {
                    send(exchange, 200, asset[1], resource(asset[0]), head);
                }
            }
        }
    }

    /** True for a Host header naming loopback: localhost, 127.x.y.z or [::1], with any port; absent counts too. */
    static boolean loopbackHost(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return true; // HTTP/1.0 clients; browsers always send Host
        }
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end > 0 && h.substring(1, end).equals("::1");
        }
        int colon = h.indexOf(':');
        if (colon >= 0) {
            h = h.substring(0, colon);
        }
        return h.equals("localhost") || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static void drain(InputStream body) throws IOException {
        byte[] buf = new byte[8192];
        long total = 0;
        int n;
        while ((n = body.read(buf)) > 0 && (total += n) < (1 << 20)) {
            // a GET has no body; read what came so the connection can be reused, up to 1 MiB
        }
    }

    private static String resource(String name) {
        try (InputStream in = StatusServer.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("status page resource missing from the jar: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sendJson(HttpExchange exchange, Object value, boolean head) throws IOException {
        byte[] body = JsonSerde.MAPPER.writeValueAsBytes(value);
        send(exchange, 200, "application/json", body, head);
    }

    private static void send(HttpExchange exchange, int status, String type, String body, boolean head)
            throws IOException {
        send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8), head);
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body, boolean head)
            throws IOException {
        var h = exchange.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", CSP);
        if (head) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(body);
        }
    }

    private static void trySend(HttpExchange exchange, int status, String type, byte[] body) {
        try {
            send(exchange, status, type, body, false);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not send the error response: {}", e.toString());
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
