package io.github.kcrawler.fetcher;

import io.github.kcrawler.fetcher.http.TestServers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A misbehaving web server on a loopback address for the hostile-web tests: each path maps to a handler that gets
 * the raw socket after the request head was read, so it can answer with anything down to the byte (trickle,
 * half-written responses, resets, bombs). Unknown paths (and /robots.txt unless mapped) answer 404. Records every
 * request head with its arrival time. One thread per connection; everything bounded by the test's own timeouts.
 */
final class HostileServer implements AutoCloseable {
    /** Answers one request. */
    @FunctionalInterface
    interface Handler {
        void handle(Socket socket, String head) throws IOException;
    }

    record Hit(String path, String head, long atMillis) {
    }

    private final ServerSocket socket;
    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    final List<Hit> hits = new CopyOnWriteArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "hostile-server");
        t.setDaemon(true);
        return t;
    });

    HostileServer(String bindAddress) throws IOException {
        this(bindAddress, 0);
    }

    HostileServer(String bindAddress, int port) throws IOException {
        socket = new ServerSocket(port, 50, InetAddress.getByName(bindAddress));
        pool.submit(this::acceptLoop);
    }

    HostileServer on(String path, Handler h) {
        handlers.put(path, h);
        return this;
    }

    int port() {
        return socket.getLocalPort();
    }

    /** The address it listens on, as text. */
    String address() {
        return socket.getInetAddress().getHostAddress();
    }

    long hits(String path) {
        return hits.stream().filter(h -> h.path.equals(path)).count();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                return;
            }
            pool.submit(() -> serve(s));
        }
    }

    private void serve(Socket s) {
        try (Socket c = s) {
            c.setSoTimeout(20_000);
            while (true) {
                String head = TestServers.readHead(c.getInputStream());
                if (head == null) {
                    return;
                }
                String path = head.split(" ", 3)[1];
                hits.add(new Hit(path, head, System.currentTimeMillis()));
                Handler h = handlers.get(path);
                if (h == null) {
                    respond(c, 404, "text/plain", "not here".getBytes(StandardCharsets.UTF_8), List.of());
                } else {
                    h.handle(c, head);
                }
                if (c.isClosed() || c.isOutputShutdown()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the crawler hung up: expected for most hostile answers
        }
    }

    /** A complete keep-alive response with Content-Length. */
    static void respond(Socket c, int status, String type, byte[] body, List<String> extraHeaders)
            throws IOException {
        StringBuilder h = new StringBuilder("HTTP/1.1 ").append(status).append(" X\r\nContent-Type: ").append(type)
                .append("\r\nContent-Length: ").append(body.length).append("\r\n");
        for (String e : extraHeaders) {
            h.append(e).append("\r\n");
        }
        h.append("\r\n");
        OutputStream out = c.getOutputStream();
        out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    static Handler html(String body, String... headers) {
        return (c, head) -> respond(c, 200, "text/html; charset=UTF-8", body.getBytes(StandardCharsets.UTF_8),
                List.of(headers));
    }

    static Handler status(int status, String... headers) {
        return (c, head) -> respond(c, status, "text/plain", new byte[0], List.of(headers));
    }

    @Override
    public void close() throws IOException {
        socket.close();
        pool.shutdownNow();
    }
}
