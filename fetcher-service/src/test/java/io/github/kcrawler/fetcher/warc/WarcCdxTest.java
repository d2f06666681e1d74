package io.github.kcrawler.fetcher.warc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.kcrawler.testing.PropertyCheck;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CDXJ index written beside each WARC file (issue 23): every line points at the exact bytes of its record — the
 * test opens the WARC at each offset, reads exactly {@code length} bytes with jwarc and finds the response with that
 * URL and payload digest — lines are sorted as pywb's binary search needs, and the index rebuilt from the WARC alone
 * ({@link CdxIndexer}, {@code crawler cdx}) is the same file, also for a WARC cut short by a crash.
 */
class WarcCdxTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static WarcExchange exchange(String url, String contentType, int status, byte[] body) throws IOException {
        return new WarcExchange(url, InetAddress.getByName("127.1.0.7"), 1_700_000_000_000L + url.length() * 1000L,
                "/", List.of(Map.entry("Host", "example.com")), status, "OK",
                contentType == null ? List.of() : List.of(Map.entry("Content-Type", contentType)), body, body.length);
    }

    private List<Path> files(String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void everyLinePointsAtItsRecordAndLinesAreSorted() throws Exception {
        PropertyCheck.forAll(15, gen -> {
            Path sub = Files.createTempDirectory(dir, "p");
            int pages = gen.intIn(1, 60);
            long maxBytes = gen.of(1024L, 4096L, 1L << 30);
            long spill = gen.of(1L, 300L, CdxjIndex.DEFAULT_SPILL_CHARS);
            Map<String, byte[]> bodies = new HashMap<>();
            try (WarcArchive archive = new WarcArchive(sub, "cdx", maxBytes, 1, () -> 1_700_000_000_000L,
                    new SimpleMeterRegistry().counter("warc"), true, spill)) {
                for (int i = 0; i < pages; i++) {
                    String url = "http://" + gen.of("www.example.com", "b.test", "127.1.0.7:8080", "a.example.org")
                            + "/p/" + gen.intIn(0, 1_000_000) + "-" + i + (gen.bool() ? "?q=" + i : "");
                    byte[] body = gen.bytes(0, 3000);
                    bodies.put(url, body);
                    assertThat(archive.write(exchange(url, gen.of("text/html; charset=UTF-8", "TEXT/Plain", null,
                            "x".repeat(6000)), gen.of(200, 404, 301), body))).isTrue();
                }
            }
            int lines = 0;
            try (Stream<Path> s = Files.list(sub)) {
                List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
                assertThat(names).noneMatch(n -> n.endsWith(".open") || n.contains(".run-") || n.endsWith(".tmp"));
            }
            List<Path> warcs;
            try (Stream<Path> s = Files.list(sub)) {
                warcs = s.filter(p -> p.toString().endsWith(".warc.gz")).sorted().toList();
            }
            for (Path warc : warcs) {
                Path cdxj = Cdxj.indexPathFor(warc);
                assertThat(cdxj).exists();
                List<String> content = Files.readAllLines(cdxj, StandardCharsets.US_ASCII);
                assertThat(content).isSorted();
                for (String line : content) {
                    checkLine(warc, line, bodies);
                    lines++;
                }
                // the index rebuilt from the WARC alone is the same file
                Path rebuilt = sub.resolve("rebuilt.cdxj");
                CdxIndexer.Result r = CdxIndexer.index(warc, rebuilt);
                assertThat(r.truncated()).isFalse();
                assertThat(Files.readAllLines(rebuilt)).isEqualTo(content);
                Files.delete(rebuilt);
            }
            assertThat(lines).isEqualTo(pages);
        });
    }

    private static void checkLine(Path warc, String line, Map<String, byte[]> bodies) throws Exception {
        String[] parts = line.split(" ", 3);
        assertThat(parts[1]).matches("\\d{14}");
        JsonNode j = JSON.readTree(parts[2]);
        assertThat(j.get("filename").asText()).isEqualTo(warc.getFileName().toString());
        long offset = Long.parseLong(j.get("offset").asText());
        int length = Integer.parseInt(j.get("length").asText());
        byte[] member = new byte[length];
        try (FileChannel ch = FileChannel.open(warc)) {
            assertThat(offset + length).isLessThanOrEqualTo(ch.size());
            ByteBuffer b = ByteBuffer.wrap(member);
            ch.position(offset);
            while (b.hasRemaining() && ch.read(b) > 0) { /* read all */ }
        }
        try (WarcReader reader = new WarcReader(new ByteArrayInputStream(member))) {
            WarcRecord r = reader.next().orElseThrow();
            assertThat(r).isInstanceOf(WarcResponse.class);
            WarcResponse resp = (WarcResponse) r;
            String url = j.get("url").asText();
            assertThat(resp.target()).isEqualTo(url);
            assertThat(parts[0]).isEqualTo(org.netpreserve.jwarc.URIs.toNormalizedSurt(url));
            byte[] body = resp.http().body().stream().readAllBytes();
            assertThat(body.length).as("body length of %s", url).isEqualTo(bodies.get(url).length);
            assertThat(java.util.Arrays.equals(body, bodies.get(url))).as("body of %s", url).isTrue();
            String sha1 = new org.netpreserve.jwarc.WarcDigest("sha1",
                    MessageDigest.getInstance("SHA-1").digest(body)).base32();
            assertThat(j.get("digest").asText()).isEqualTo(sha1)
                    .isEqualTo(resp.payloadDigest().orElseThrow().base32());
            assertThat(j.get("status").asText()).isEqualTo(String.valueOf(resp.http().status()));
            assertThat(j.get("mime").asText()).isIn("text/html", "text/plain", "unk", "x".repeat(Cdxj.MAX_MIME));
            assertThat(reader.next()).as("exactly one record in [offset, offset + length)").isEmpty();
        }
    }

    @Test
    void aWarcCutShortByACrashIsIndexedUpToItsLastCompleteRecord() throws Exception {
        WarcArchive archive = new WarcArchive(dir, "crash", 1L << 30, 1, () -> 1_700_000_000_000L,
                new SimpleMeterRegistry().counter("warc"));
        for (int i = 0; i < 10; i++) {
            archive.write(exchange("http://example.com/" + i, "text/html", 200,
                    ("page " + i + " " + "y".repeat(500)).getBytes(StandardCharsets.UTF_8)));
        }
        // the process dies here: no close(), the file keeps its .open suffix and has no index
        Path open = files(".warc.gz.open").get(0);
        assertThat(files(".cdxj")).isEmpty();
        long size = Files.size(open);
        Path cut = dir.resolve("cut-00001.warc.gz.open");
        byte[] all = Files.readAllBytes(open);
        Files.write(cut, java.util.Arrays.copyOf(all, (int) size - 40)); // inside the last response's member

        CdxIndexer.Result whole = CdxIndexer.index(open);
        assertThat(whole.truncated()).isFalse();
        assertThat(whole.lines()).isEqualTo(10);
        assertThat(whole.index().getFileName().toString()).isEqualTo(
                open.getFileName().toString().replace(".warc.gz.open", ".cdxj"));
        assertThat(Files.readString(whole.index())).contains("\"filename\": \""
                + open.getFileName().toString().replace(".open", "") + "\"");

        CdxIndexer.Result partial = CdxIndexer.index(cut);
        assertThat(partial.truncated()).isTrue();
        assertThat(partial.lines()).isEqualTo(9);
        assertThat(partial.completeBytes()).isLessThan(size - 40);
        archive.close();
    }

    @Test
    void noIndexWhenTurnedOff() throws Exception {
        try (WarcArchive archive = new WarcArchive(dir, "off", 1L << 30, 1, System::currentTimeMillis,
                new SimpleMeterRegistry().counter("warc"), false, CdxjIndex.DEFAULT_SPILL_CHARS)) {
            archive.write(exchange("http://example.com/", "text/html", 200, new byte[10]));
        }
        assertThat(files(".warc.gz")).hasSize(1);
        assertThat(files(".cdxj")).isEmpty();
    }

    @Test
    void mimeIsTheMediaTypeBoundedAndLowerCase() {
        assertThat(Cdxj.mime("Text/HTML; charset=UTF-8")).isEqualTo("text/html");
        assertThat(Cdxj.mime(null)).isEqualTo("unk");
        assertThat(Cdxj.mime(" ;x")).isEqualTo("unk");
        assertThat(Cdxj.mime("a\"b\\c\u00e9/d")).isEqualTo("abc/d");
        assertThat(Cdxj.mime("x".repeat(10_000))).hasSize(Cdxj.MAX_MIME);
        String line = Cdxj.line("http://ex\u00e9.com/\"q", 0, "text/html", 200, "ABC", 1, 2, "f.warc.gz");
        assertThat(line.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
    }
}
