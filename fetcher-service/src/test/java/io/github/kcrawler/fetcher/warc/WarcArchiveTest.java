package io.github.kcrawler.fetcher.warc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.Warcinfo;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The WARC archive read back with jwarc's own reader: what was written is what a replay tool sees. */
class WarcArchiveTest {
    @TempDir
    Path dir;

    private static WarcExchange exchange(String url, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[b.length + 10]; // only bodyLength bytes count
        System.arraycopy(b, 0, padded, 0, b.length);
        return new WarcExchange(url, InetAddress.getByName("127.1.0.7"), 1_700_000_000_000L, "/p?q=1",
                List.of(Map.entry("Host", "example.com"), Map.entry("User-Agent", "kcrawler/0.1")), 200, "OK",
                List.of(Map.entry("Content-Type", "text/html; charset=UTF-8"), Map.entry("Content-Encoding", "gzip"),
                        Map.entry("Transfer-Encoding", "chunked")), padded, b.length);
    }

    private static List<Path> warcs(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".warc.gz")).sorted().toList();
        }
    }

    @Test
    void roundTripsRequestAndResponseRecords() throws Exception {
        Counter records = new SimpleMeterRegistry().counter("warc");
        try (WarcArchive archive = new WarcArchive(dir, "test", 1 << 30, 6, () -> 1_700_000_000_000L, records)) {
            assertThat(archive.write(exchange("http://example.com/p?q=1", "<html>hello</html>"))).isTrue();
            assertThat(Files.list(dir).map(p -> p.getFileName().toString()).toList())
                    .singleElement().satisfies(n -> assertThat(n).endsWith(".warc.gz.open"));
        }
        assertThat(records.count()).isEqualTo(2);
        List<Path> files = warcs(dir);
        assertThat(files).singleElement().satisfies(p ->
                assertThat(p.getFileName().toString()).matches("test-\\d{17}-00001\\.warc\\.gz"));
        List<WarcRecord> read = new ArrayList<>();
        try (WarcReader reader = new WarcReader(files.get(0))) {
            for (WarcRecord r : reader) {
                if (r instanceof WarcResponse resp) {
                    HttpResponse http = resp.http();
                    byte[] body = http.body().stream().readAllBytes();
                    assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("<html>hello</html>");
                    assertThat(http.status()).isEqualTo(200);
                    assertThat(http.headers().first("Content-Length")).contains(String.valueOf(body.length));
                    assertThat(http.headers().first("X-Crawler-Content-Encoding")).contains("gzip");
                    assertThat(http.headers().first("Content-Encoding")).isEmpty();
                    assertThat(resp.target()).isEqualTo("http://example.com/p?q=1");
                    assertThat(resp.ipAddress()).hasValue(InetAddress.getByName("127.1.0.7"));
                    byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(body);
                    assertThat(resp.payloadDigest()).hasValueSatisfying(d -> assertThat(d.bytes()).isEqualTo(sha1));
                } else if (r instanceof WarcRequest req) {
                    assertThat(req.http().target()).isEqualTo("/p?q=1");
                    assertThat(req.http().headers().first("User-Agent")).contains("kcrawler/0.1");
                    assertThat(req.concurrentTo()).isNotEmpty();
                }
                read.add(r);
            }
        }
        assertThat(read).hasSize(3);
        assertThat(read.get(0)).isInstanceOf(Warcinfo.class);
        assertThat(read.get(1)).isInstanceOf(WarcRequest.class);
        assertThat(read.get(2)).isInstanceOf(WarcResponse.class);
        assertThat(((WarcRequest) read.get(1)).concurrentTo()).contains(read.get(2).id());
    }

    @Test
    void urlsThatJavaNetUriRefusesAreStillArchived() throws Exception {
        Counter records = new SimpleMeterRegistry().counter("warc");
        try (WarcArchive archive = new WarcArchive(dir, "odd", 1 << 30, 1, System::currentTimeMillis, records)) {
            assertThat(archive.write(exchange("http://example.com/a|b^c", "odd"))).isTrue();
        }
        try (WarcReader reader = new WarcReader(warcs(dir).get(0))) {
            for (WarcRecord r : reader) {
                if (r instanceof WarcResponse resp) {
                    assertThat(resp.target()).isEqualTo("http://example.com/a%7Cb%5Ec");
                }
            }
        }
    }

    @Test
    void rollsFilesAtTheSizeLimit() throws Exception {
        Counter records = new SimpleMeterRegistry().counter("warc");
        String big = "x".repeat(2000) + Math.random();
        try (WarcArchive archive = new WarcArchive(dir, "roll", 2048, 1, System::currentTimeMillis, records)) {
            for (int i = 0; i < 5; i++) {
                archive.write(exchange("http://example.com/" + i, big + i));
            }
            assertThat(archive.filesStarted()).isGreaterThan(1);
        }
        List<Path> files = warcs(dir);
        assertThat(files).hasSizeGreaterThan(1);
        int responses = 0;
        for (Path f : files) {
            try (WarcReader reader = new WarcReader(f)) {
                for (WarcRecord r : reader) {
                    if (r instanceof WarcResponse) {
                        responses++;
                    }
                }
            }
        }
        assertThat(responses).isEqualTo(5);
    }

    @Test
    void concurrentWritersProduceAReadableFile() throws Exception {
        Counter records = new SimpleMeterRegistry().counter("warc");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (WarcArchive archive = new WarcArchive(dir, "mt", 1 << 30, 1, System::currentTimeMillis, records)) {
            for (int i = 0; i < 200; i++) {
                int n = i;
                pool.submit(() -> archive.write(exchange("http://example.com/" + n, "page " + n)));
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        int responses = 0;
        try (WarcReader reader = new WarcReader(warcs(dir).get(0))) {
            for (WarcRecord r : reader) {
                if (r instanceof WarcResponse resp) {
                    String body = new String(resp.http().body().stream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(resp.target()).endsWith("/" + body.substring(5));
                    responses++;
                }
            }
        }
        assertThat(responses).isEqualTo(200);
        assertThat(records.count()).isEqualTo(400);
    }
}
