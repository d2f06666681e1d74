package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SitemapParsing} is total and bounded: whatever the bytes, an answer within the limits, never a throw. */
class SitemapParsingTest {
    private static final String URL = "http://example.com/sitemap.xml";

    private static SitemapParsing.Parsed parse(byte[] b, int maxBytes, int maxUrls) {
        return SitemapParsing.parse(URL, b, b.length, "application/xml", false, maxBytes, maxUrls);
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] urlset(int n) {
        StringBuilder sb = new StringBuilder("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
        for (int i = 0; i < n; i++) {
            sb.append("<url><loc>http://example.com/p").append(i).append("</loc></url>");
        }
        return sb.append("</urlset>").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void urlsBeyondTheLimitAreCountedNotKept() {
        SitemapParsing.Parsed p = parse(urlset(30), 1 << 20, 10);
        assertThat(p.index()).isFalse();
        assertThat(p.urls()).hasSize(10).startsWith("http://example.com/p0");
        assertThat(p.dropped()).isEqualTo(20);
        assertThat(p.problem()).isNull();
    }

    @Test
    void gzipIsUndoneAndABombStopsAtTheByteLimit() throws IOException {
        SitemapParsing.Parsed ok = parse(gzip(urlset(3)), 1 << 20, 100);
        assertThat(ok.urls()).hasSize(3);
        byte[] bomb = gzip(new byte[16 * 1024 * 1024]); // 16 KiB on the wire
        assertThat(bomb.length).isLessThan(64 * 1024);
        SitemapParsing.Parsed p = parse(bomb, 4096, 100);
        assertThat(p.problem()).isEqualTo(SitemapParsing.Problem.INFLATED_TOO_LARGE);
        assertThat(p.urls()).isEmpty();
        // a sitemap larger than the limit: its prefix still gives URLs
        SitemapParsing.Parsed prefix = parse(gzip(urlset(1000)), 4096, 10_000);
        assertThat(prefix.problem()).isEqualTo(SitemapParsing.Problem.INFLATED_TOO_LARGE);
        assertThat(prefix.urls()).isNotEmpty().hasSizeLessThan(1000);
    }

    @Test
    void doctypesAreRefusedSoNoEntityIsResolved() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>http://example.com/&xxe;"
                + "</loc></url></urlset>";
        SitemapParsing.Parsed p = parse(xxe.getBytes(StandardCharsets.UTF_8), 1 << 20, 100);
        assertThat(p.problem()).isEqualTo(SitemapParsing.Problem.MALFORMED);
        assertThat(p.urls()).isEmpty();
        String laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;"
                + "&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]><urlset><url><loc>http://example.com/&lol2;</loc></url>"
                + "</urlset>";
        assertThat(parse(laughs.getBytes(StandardCharsets.UTF_8), 1 << 20, 100).urls()).isEmpty();
    }

    @Test
    void aTextSitemapIsOneUrlPerLine() {
        byte[] b = "http://example.com/a\r\n  https://example.com/b  \nnot a url\n\nftp://x/\nHTTP://example.com/c"
                .getBytes(StandardCharsets.UTF_8);
        SitemapParsing.Parsed p = SitemapParsing.parse(URL, b, b.length, "text/plain", false, 1 << 20, 2);
        assertThat(p.index()).isFalse();
        assertThat(p.urls()).containsExactly("http://example.com/a", "https://example.com/b");
        assertThat(p.dropped()).isEqualTo(1);
    }

    @Test
    void anIndexListsSitemapFiles() {
        String idx = "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>"
                + "http://example.com/a.xml.gz</loc></sitemap><sitemap><loc>http://example.com/b.xml</loc></sitemap>"
                + "</sitemapindex>";
        SitemapParsing.Parsed p = parse(idx.getBytes(StandardCharsets.UTF_8), 1 << 20, 1);
        assertThat(p.index()).isTrue();
        assertThat(p.urls()).containsExactly("http://example.com/a.xml.gz");
        assertThat(p.dropped()).isEqualTo(1);
    }

    @Test
    void anyBytesGiveAnAnswerWithinTheLimits() {
        PropertyCheck.fuzz(300, gen -> {
            byte[] b;
            switch (gen.intIn(0, 3)) {
                case 0 -> b = gen.bytes(0, 2000);
                case 1 -> {
                    byte[] ok = urlset(gen.intIn(0, 50));
                    b = java.util.Arrays.copyOf(ok, gen.intIn(0, ok.length)); // cut anywhere
                }
                case 2 -> {
                    byte[] ok = gzip(urlset(gen.intIn(0, 50)));
                    b = java.util.Arrays.copyOf(ok, gen.intIn(0, ok.length));
                }
                default -> {
                    b = urlset(gen.intIn(1, 20));
                    for (int i = gen.intIn(1, 10); i > 0; i--) {
                        b[gen.intIn(0, b.length - 1)] = gen.anyByte();
                    }
                }
            }
            int maxUrls = gen.intIn(1, 30);
            SitemapParsing.Parsed p = SitemapParsing.parse(URL, b, b.length, gen.of("application/xml", "text/plain",
                    null, "application/gzip"), gen.bool(), gen.intIn(1024, 4096), maxUrls);
            assertThat(p).isNotNull();
            assertThat(p.urls().size()).isLessThanOrEqualTo(maxUrls);
            assertThat(p.dropped()).isGreaterThanOrEqualTo(0);
        });
    }
}
