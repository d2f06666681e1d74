package io.github.kcrawler.lab;

import com.sun.net.httpserver.HttpServer;
import io.github.kcrawler.lab.cli.LabMain;
import io.github.kcrawler.lab.demo.DemoRunner;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, the reproduction as a user ran it: a small HTTP server on 127.0.0.1 answers every page with a valid 200,
 * links to two more pages and a 6,000-byte ETag. Before the fix the scheduler's revisit queue threw on the first
 * result, its stream thread replayed the record forever and the two linked pages were never fetched. Now
 * {@code crawl --exit-when-idle} fetches all three pages through a real embedded broker, exits 0, and the summary
 * reports the dropped ETags.
 */
class BoundedValuesCrawlIT {
    private static final String ETAG = "\"" + "e".repeat(5998) + "\"";

    @Test
    void aSixThousandByteEtagIsDroppedAndEveryPageIsCrawled() throws Exception {
        Path dir = Path.of("target", "bounded-values-it");
        DemoRunner.deleteRecursively(dir);
        Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            byte[] body;
            int status = 200;
            switch (path) {
                case "/" -> body = page("<a href=\"/a\">a</a> <a href=\"/b\">b</a>");
                case "/a", "/b" -> body = page("<a href=\"/\">home</a>");
                default -> {
                    status = 404;
                    body = "not found\n".getBytes(StandardCharsets.US_ASCII);
                }
            }
            exchange.getResponseHeaders().set("Content-Type", status == 200 ? "text/html; charset=utf-8"
                    : "text/plain");
            if (status == 200) {
                exchange.getResponseHeaders().set("ETag", ETAG);
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(new TeeStream(stdout, captured), true, StandardCharsets.UTF_8));
            String seed = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
            code = LabMain.run("crawl", "--seeds", seed, "--allow-addresses", "127.0.0.0/8",
                    "--politeness-ms", "100", "--exit-when-idle", "--data-dir", dir.toString(),
                    "--metrics-port", "0", "--max-seconds", "240");
        } finally {
            System.setOut(stdout);
            server.stop(0);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(requests.keySet()).as("every page fetched").contains("/", "/a", "/b");
        for (String p : new String[] {"/", "/a", "/b"}) {
            assertThat(requests.get(p).get()).as("%s fetched once", p).isEqualTo(1);
        }
        assertThat(out).contains("Crawl stopped: 3 pages fetched");
        assertThat(out).contains("bounded values: etag dropped 3");
    }

    private static byte[] page(String links) {
        return ("<!DOCTYPE html><html><head><title>t</title></head><body>" + links + "</body></html>\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Writes to the console and keeps a copy for the assertions. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        TeeStream(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }
    }
}
