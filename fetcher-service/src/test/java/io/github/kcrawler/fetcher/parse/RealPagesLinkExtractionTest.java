package io.github.kcrawler.fetcher.parse;

import io.github.kcrawler.common.url.UrlNormalizer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Link extraction on 40 real news pages ({@code ../shared/data/html}, scrapinghub's article-extraction benchmark)
 * resolved against the URLs they were fetched from: every page yields a realistic number of links, every link is
 * an absolute, normalised http(s) URL without a fragment, and there are no duplicates.
 */
class RealPagesLinkExtractionTest {
    private static final Path DIR = Path.of("../../shared/data/html");

    private record Page(String file, String url, byte[] html) {
    }

    private static List<Page> pages;

    @BeforeAll
    static void load() throws IOException {
        Path index = DIR.resolve("urls.tsv");
        assumeTrue(Files.isRegularFile(index), "shared HTML corpus not present at " + DIR.toAbsolutePath());
        pages = new ArrayList<>();
        for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
            String[] cols = line.split("\t");
            if (cols.length < 2 || !cols[0].endsWith(".html.gz")) {
                continue;
            }
            try (InputStream in = new GZIPInputStream(Files.newInputStream(DIR.resolve(cols[0])))) {
                pages.add(new Page(cols[0], UrlNormalizer.normalize(cols[1].trim()).orElseThrow(), in.readAllBytes()));
            }
        }
        assumeTrue(!pages.isEmpty(), "no pages listed in urls.tsv");
    }

    @Test
    void everyPageYieldsManyCleanAbsoluteLinks() {
        LinkExtractor extractor = new LinkExtractor(5000, false);
        int total = 0;
        for (Page p : pages) {
            LinkExtractor.Links links = extractor.extract(p.html, p.html.length, null, p.url);
            assertThat(links.parsed()).as(p.file).isTrue();
            assertThat(links.urls()).as("links of %s", p.file).hasSizeGreaterThan(5);
            assertThat(new HashSet<>(links.urls())).as("duplicates in %s", p.file).hasSize(links.urls().size());
            for (String u : links.urls()) {
                assertThat(u).as("link in %s", p.file).matches("https?://[^/#]+/[^#]*");
                assertThat(UrlNormalizer.normalize(u)).as("normalised form of %s", u).contains(u);
            }
            total += links.urls().size();
        }
        // news pages carry navigation, article and footer links: on average well over 50 each
        assertThat(total / pages.size()).isBetween(50, 5000);
    }

    @Test
    void mostLinksOfANewsPageStayOnItsSite() {
        LinkExtractor extractor = new LinkExtractor(5000, false);
        int sameSite = 0;
        int total = 0;
        for (Page p : pages) {
            String host = UrlNormalizer.host(p.url);
            String site = host.startsWith("www.") ? host.substring(4) : host;
            for (String u : extractor.extract(p.html, p.html.length, null, p.url).urls()) {
                total++;
                if (UrlNormalizer.host(u).endsWith(site)) {
                    sameSite++;
                }
            }
        }
        assertThat((double) sameSite / total).isGreaterThan(0.4);
    }
}
