package io.github.kcrawler.fetcher.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/** Small loopback servers for the HTTP client tests: a raw socket server and a CONNECT proxy. */
public final class TestServers {
    private TestServers() {
    }

    /** A server on 127.0.0.1 that hands every accepted socket (after reading the request head) to a handler. */
    static final class RawServer implements AutoCloseable {
        private final ServerSocket socket;
        private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "raw-server");
            t.setDaemon(true);
            return t;
        });

        RawServer(BiConsumer<Socket, String> handler) throws IOException {
            this(handler, true);
        }

        /** @param readRequest false to call the handler right after accept, before reading anything */
        RawServer(BiConsumer<Socket, String> handler, boolean readRequest) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            pool.submit(() -> {
                while (!socket.isClosed()) {
                    Socket s;
                    try {
                        s = socket.accept();
                    } catch (IOException e) {
                        return;
                    }
                    pool.submit(() -> {
                        try (Socket c = s) {
                            String head = readRequest ? readHead(c.getInputStream()) : "";
                            if (head != null) {
                                handler.accept(c, head);
                            }
                        } catch (IOException e) {
                            // client went away
                        }
                    });
                }
            });
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            pool.shutdownNow();
        }
    }

    /** A request head up to its blank line; null at end of stream or past 64 KiB (a client sending garbage). */
    public static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            sb.append((char) b);
            if (sb.length() >= 4 && sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
                return sb.toString();
            }
            if (sb.length() > 64 * 1024) {
                return null;
            }
        }
        return null;
    }

    static void write(Socket s, String text) {
        try {
            OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A minimal HTTP proxy: CONNECT tunnels and absolute-form forwarding, counted. */
    static final class ConnectProxy implements AutoCloseable {
        final java.util.concurrent.atomic.AtomicInteger tunnels = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger forwarded = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.List<String> targets = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final RawServer server;

        ConnectProxy() throws IOException {
            server = new RawServer((client, head) -> {
                String[] line = head.split("\r\n")[0].split(" ");
                if (line[1].startsWith("http://")) {
                    forward(client, head, line);
                    return;
                }
                if (!line[0].equals("CONNECT")) {
                    write(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
                    return;
                }
                targets.add(line[1]);
                int colon = line[1].lastIndexOf(':');
                try (Socket upstream = new Socket()) {
                    upstream.connect(new InetSocketAddress(line[1].substring(0, colon),
                            Integer.parseInt(line[1].substring(colon + 1))));
                    tunnels.incrementAndGet();
                    write(client, "HTTP/1.1 200 Connection established\r\n\r\n");
                    Thread pump = new Thread(() -> pipe(upstream, client));
                    pump.setDaemon(true);
                    pump.start();
                    pipe(client, upstream);
                } catch (IOException e) {
                    write(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
                }
            });
        }

        /** Absolute-form request (plain http through a proxy): forwarded in origin form, one per connection. */
        private void forward(Socket client, String head, String[] line) {
            targets.add(line[1]);
            String rest = line[1].substring("http://".length());
            int slash = rest.indexOf('/');
            String authority = slash < 0 ? rest : rest.substring(0, slash);
            String path = slash < 0 ? "/" : rest.substring(slash);
            int colon = authority.lastIndexOf(':');
            String host = colon < 0 ? authority : authority.substring(0, colon);
            int port = colon < 0 ? 80 : Integer.parseInt(authority.substring(colon + 1));
            String headers = head.substring(head.indexOf("\r\n") + 2).replaceAll("(?i)connection: [^\r]*\r\n", "");
            try (Socket upstream = new Socket(host, port)) {
                forwarded.incrementAndGet();
                write(upstream, line[0] + " " + path + " " + line[2] + "\r\nConnection: close\r\n" + headers);
                upstream.getInputStream().transferTo(client.getOutputStream());
            } catch (IOException e) {
                write(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
            }
        }

        private static void pipe(Socket from, Socket to) {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
            } catch (IOException e) {
                // one side closed
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException e) {
                    // already closed
                }
            }
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
