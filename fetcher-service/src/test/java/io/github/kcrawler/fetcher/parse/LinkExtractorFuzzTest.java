package io.github.kcrawler.fetcher.parse;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.common.url.UrlNormalizer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.github.kcrawler.testing.PropertyCheck.fuzz;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of link extraction: random bytes (invalid UTF-8 included), garbled HTML assembled from tag
 * pieces and bogus charsets never throw, and every link returned is a normalised http(s) URL, at most the cap.
 * {@code -Dkcrawler.fuzz.tries=N} scales the tries (docs/HOSTILE.md).
 */
class LinkExtractorFuzzTest {
    private static final String[] PIECES = {"<a href=", "<A HREF='", "<area href=\"", "<iframe src=", "<frame src=",
            "<base href=", "<meta name=robots content=nofollow>", "<a rel=nofollow href=", "\"", "'", ">", "<", "/>",
            "</a>", "<!--", "-->", "<script>", "</script>", "<![CDATA[", "]]>", "<svg><a xlink:href=", "&amp;",
            "&#0;", "&#x110000;", "&", "http://a.test/", "https://b.test:8443/x?y=1#f", "//c.test/", "/p", "q",
            "javascript:alert(1)", "data:text/html,<a href=x>", "mailto:x@y", "\u0000", "\uFFFD", "\uD800", "ü",
            "%zz", " ", "\n", "<table><tr><td>", "<math><mi>", "<template>", "<noscript>", "<plaintext>",
            "<meta charset=utf-16>", "<meta http-equiv=content-type content='text/html; charset=x-bogus'>"};
    private static final String[] CHARSETS = {null, "utf-8", "UTF-16", "iso-8859-1", "x-bogus", "", "utf-7",
            "shift_jis", "\u0000", "utf-32be"};
    private static final int CAP = 50;
    private final LinkExtractor extractor = new LinkExtractor(CAP, false);

    @Test
    void randomBytesNeverThrow() {
        fuzz(300, g -> randomBytesNeverThrow(g.bytes(4000), charset(g)));
    }

    void randomBytesNeverThrow(byte[] body, String charset) {
        check(extractor.extract(body, body.length, charset, "http://page.test/dir/p"));
    }

    @Test
    void garbledHtmlNeverThrows() {
        fuzz(300, g -> garbledHtmlNeverThrows(html(g), charset(g)));
    }

    void garbledHtmlNeverThrows(String html, String charset) {
        byte[] b = html.getBytes(StandardCharsets.UTF_8);
        check(extractor.extract(b, b.length, charset, "https://page.test/"));
    }

    @Test
    void truncatedAtAnyByteNeverThrows() {
        fuzz(300, g -> truncatedAtAnyByteNeverThrows(html(g), g.anyByte()));
    }

    void truncatedAtAnyByteNeverThrows(String html, byte cut) {
        byte[] b = html.getBytes(StandardCharsets.UTF_8);
        int len = b.length == 0 ? 0 : Math.floorMod(cut, b.length);
        check(extractor.extract(b, len, "utf-8", "http://page.test/"));
    }

    static String html(Gen g) {
        return g.joined(PIECES, 120);
    }

    /** One of CHARSETS (null among them), or null one time in ten besides. */
    static String charset(Gen g) {
        return g.random().nextInt(10) == 0 ? null : g.of(CHARSETS);
    }

    private static void check(LinkExtractor.Links links) {
        assertThat(links).isNotNull();
        assertThat(links.urls()).hasSizeLessThanOrEqualTo(CAP).doesNotHaveDuplicates();
        for (String u : links.urls()) {
            assertThat(u).startsWith("http");
            assertThat(UrlNormalizer.normalize(u)).contains(u);
        }
    }
}
