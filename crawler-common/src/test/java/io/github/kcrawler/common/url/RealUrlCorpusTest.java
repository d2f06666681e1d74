package io.github.kcrawler.common.url;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the normaliser over 48,009 real URLs ({@code ../shared/data/urls-kasztp.txt}, as found: the first line starts
 * with a byte-order mark): it must never throw, must be idempotent, must give every accepted URL a host, and may
 * refuse only the handful of lines that are not URLs at all.
 */
class RealUrlCorpusTest {
    private static final Path DATA = Path.of("../../shared/data/urls-kasztp.txt");

    @Test
    void shouldNormaliseRealUrlsIdempotently() throws IOException {
        assumeTrue(Files.isReadable(DATA), "URL corpus not present at " + DATA.toAbsolutePath());
        List<String> lines = Files.readAllLines(DATA, StandardCharsets.UTF_8);
        assertThat(lines).hasSizeGreaterThan(48_000);
        String first = lines.get(0);
        assertThat(first).startsWith("\uFEFF");
        // U+FEFF is neither a C0 control nor a space, so the normaliser (like a browser) does not trim it and
        // "\uFEFFhttps" is no scheme: the file's byte-order mark is removed here, at load time.
        assertThat(UrlNormalizer.normalize(first)).isEmpty();
        lines.set(0, first.substring(1));
        int rejected = 0;
        int changed = 0;
        List<String> rejects = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        for (String line : lines) {
            Optional<String> once = UrlNormalizer.normalize(line);
            if (once.isEmpty()) {
                rejected++;
                if (rejects.size() < 20) {
                    rejects.add(line);
                }
                continue;
            }
            String url = once.get();
            distinct.add(url);
            if (!url.equals(line)) {
                changed++;
            }
            assertThat(UrlNormalizer.normalize(url)).as("idempotent for %s", line).contains(url);
            assertThat(UrlNormalizer.host(url)).as("host of %s", url).isNotEmpty();
            assertThat(url).startsWith("http").doesNotContain("#").doesNotContain(" ");
        }
        System.out.printf("Real URLs: %d lines, %d rejected, %d changed by normalisation, %d distinct after%n",
                lines.size(), rejected, changed, distinct.size());
        rejects.forEach(r -> System.out.println("  rejected: " + r));
        assertThat(UrlNormalizer.normalize(lines.get(0))).contains("https://www.sec.gov/edgar.shtml");
        // The corpus has one unusable line ("https://", no host); allow a little slack, not a trend.
        assertThat(rejected).isBetween(1, 5);
        assertThat(rejects).contains("https://");
    }
}
