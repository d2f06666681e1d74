package io.github.kcrawler.app.cli;

import io.github.kcrawler.fetcher.warc.Cdxj;
import io.github.kcrawler.fetcher.warc.WarcArchive;
import io.github.kcrawler.fetcher.warc.WarcExchange;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code crawler cdx FILE}: rebuilds the index the fetcher writes beside a finished WARC, and indexes an open one. */
class CdxCommandTest {
    @TempDir
    Path dir;

    @Test
    void rebuildsTheIndexTheArchiveWrote() throws Exception {
        try (WarcArchive a = new WarcArchive(dir, "t", 1L << 30, 1, () -> 1_700_000_000_000L,
                new SimpleMeterRegistry().counter("w"))) {
            for (int i = 0; i < 5; i++) {
                byte[] body = ("page " + i).getBytes(StandardCharsets.UTF_8);
                a.write(new WarcExchange("http://example.com/" + (5 - i), InetAddress.getByName("127.0.0.1"),
                        1_700_000_000_000L, "/", List.of(), 200, "OK", List.of(Map.entry("Content-Type", "text/html")),
                        body, body.length));
            }
        }
        Path warc;
        try (Stream<Path> s = Files.list(dir)) {
            warc = s.filter(p -> p.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
        }
        Path index = Cdxj.indexPathFor(warc);
        String written = Files.readString(index);
        assertThat(written.lines()).hasSize(5).isSorted();
        Files.delete(index);
        assertThat(CrawlerMain.run("cdx", warc.toString())).isZero();
        assertThat(Files.readString(index)).isEqualTo(written);
        assertThat(CrawlerMain.run("cdx", dir.resolve("missing.warc.gz").toString())).isEqualTo(ExitCodes.FAILED);
        assertThat(CrawlerMain.run("cdx")).isEqualTo(ExitCodes.USAGE);
    }
}
