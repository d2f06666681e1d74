package io.github.kcrawler.fetcher.parse;

import io.github.kcrawler.fetcher.parse.LinkExtractor.Links;
import io.github.kcrawler.fetcher.parse.LinkExtractor.Rejection;
import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Link extraction on crafted pages: resolution, base href, nofollow, schemes, limits and hostile input. */
class LinkExtractorTest {
    private static final String PAGE = "http://example.com/dir/page.html";

    private static Links extract(String html) {
        return extract(new LinkExtractor(5000, false), html);
    }

    private static Links extract(LinkExtractor e, String html) {
        byte[] b = html.getBytes(StandardCharsets.UTF_8);
        return e.extract(b, b.length, "UTF-8", PAGE);
    }

    @Test
    void resolvesRelativeLinksInDocumentOrderWithoutFragmentsOrDuplicates() {
        Links l = extract("""
                <html><body>
                <a href="b.html#top">b</a> <a href="/root">root</a> <a href="b.html">b again</a>
                <a href="//other.org/x?q=1">other</a> <a href="HTTP://EXAMPLE.COM:80/Up/../c">c</a>
                </body></html>""");
        assertThat(l.urls()).containsExactly("http://example.com/dir/b.html", "http://example.com/root",
                "http://other.org/x?q=1", "http://example.com/c");
        assertThat(l.parsed()).isTrue();
    }

    @Test
    void baseHrefReplacesThePageUrlAsBase() {
        Links l = extract("<html><head><base href=\"https://cdn.example.net/base/\"></head>"
                + "<body><a href=\"x\">x</a><a href=\"/y\">y</a></body></html>");
        assertThat(l.urls()).containsExactly("https://cdn.example.net/base/x", "https://cdn.example.net/y");
    }

    @Test
    void takesAreasFramesAndIframesButNotScriptsOrImages() {
        Links l = extract("""
                <map><area href="/area"></map><frameset><frame src="/frame"></frameset>
                <iframe src="/iframe"></iframe><img src="/img.png"><script src="/s.js"></script>
                <link rel="stylesheet" href="/style.css">""");
        assertThat(l.urls()).containsExactlyInAnyOrder("http://example.com/area", "http://example.com/iframe");
    }

    @Test
    void dropsNonHttpSchemesAndCountsThem() {
        Links l = extract("<a href=\"javascript:void(0)\">j</a><a href=\"mailto:a@b.c\">m</a>"
                + "<a href=\"ftp://f.org/\">f</a><a href=\"data:text/html,hi\">d</a><a href=\"/ok\">ok</a>");
        assertThat(l.urls()).containsExactly("http://example.com/ok");
        assertThat(l.rejected(Rejection.SCHEME)).isEqualTo(4);
    }

    @Test
    void honoursNofollowUnlessConfiguredOtherwise() {
        String html = "<a href=\"/a\" rel=\"NoFollow ugc\">a</a><a href=\"/b\">b</a>";
        Links polite = extract(html);
        assertThat(polite.urls()).containsExactly("http://example.com/b");
        assertThat(polite.rejected(Rejection.NOFOLLOW)).isEqualTo(1);
        Links all = extract(new LinkExtractor(5000, true), html);
        assertThat(all.urls()).containsExactly("http://example.com/a", "http://example.com/b");
    }

    @Test
    void metaRobotsNofollowDropsEveryLink() {
        Links l = extract("<html><head><meta name=\"ROBOTS\" content=\"noindex, nofollow\"></head>"
                + "<body><a href=\"/a\">a</a><a href=\"/b\">b</a></body></html>");
        assertThat(l.urls()).isEmpty();
        assertThat(l.rejected(Rejection.NOFOLLOW)).isEqualTo(2);
    }

    @Test
    void capsTheNumberOfLinks() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            sb.append("<a href=\"/p").append(i).append("\">x</a>");
        }
        Links l = extract(new LinkExtractor(5, false), sb.toString());
        assertThat(l.urls()).hasSize(5).startsWith("http://example.com/p0");
        assertThat(l.rejected(Rejection.LIMIT)).isEqualTo(15);
    }

    @Test
    void malformedLinksAreCountedNotThrown() {
        Links l = extract("<a href=\"http://[::1\">bad</a><a href=\"http://exa mple.com:99999/\">bad</a>"
                + "<a href=\"/fine\">ok</a>");
        assertThat(l.urls()).contains("http://example.com/fine");
        assertThat(l.rejected(Rejection.MALFORMED)).isGreaterThanOrEqualTo(1);
    }

    @Test
    void usesTheDeclaredCharsetOrTheMetaTag() {
        String html = "<html><head><meta charset=\"ISO-8859-1\"></head>"
                + "<body><a href=\"/caf\u00e9\">x</a></body></html>";
        byte[] latin1 = html.getBytes(Charset.forName("ISO-8859-1"));
        Links fromMeta = new LinkExtractor(10, false).extract(latin1, latin1.length, null, PAGE);
        assertThat(fromMeta.urls()).containsExactly("http://example.com/caf%C3%A9");
        Links fromHeader = new LinkExtractor(10, false).extract(latin1, latin1.length, "ISO-8859-1", PAGE);
        assertThat(fromHeader.urls()).containsExactly("http://example.com/caf%C3%A9");
    }

    @Test
    void garbageInputNeverThrows() {
        Random rnd = new Random(11);
        LinkExtractor e = new LinkExtractor(100, false);
        for (int i = 0; i < 200; i++) {
            byte[] junk = new byte[rnd.nextInt(4096)];
            rnd.nextBytes(junk);
            if (i % 2 == 0) {
                byte[] prefix = "<html><a href=\"".getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(prefix, 0, junk, 0, Math.min(prefix.length, junk.length));
            }
            Links l = e.extract(junk, junk.length, i % 3 == 0 ? "UTF-8" : null, PAGE);
            assertThat(l.urls()).allSatisfy(u -> assertThat(u).startsWith("http"));
        }
    }

    @Test
    void onlyTheGivenLengthIsRead() {
        byte[] b = "<a href=\"/a\">a</a><a href=\"/b\">b</a>".getBytes(StandardCharsets.UTF_8);
        Links l = new LinkExtractor(10, false).extract(b, 18, null, PAGE);
        assertThat(l.urls()).containsExactly("http://example.com/a");
    }

    @Test
    void contentTypesAreReadLeniently() {
        assertThat(ContentTypes.isHtml("text/html; charset=UTF-8", new byte[0], 0)).isTrue();
        assertThat(ContentTypes.isHtml("Application/XHTML+XML", new byte[0], 0)).isTrue();
        assertThat(ContentTypes.isHtml("application/pdf", new byte[0], 0)).isFalse();
        byte[] page = "  <!DOCTYPE html><html>".getBytes(StandardCharsets.US_ASCII);
        assertThat(ContentTypes.isHtml(null, page, page.length)).isTrue();
        byte[] pdf = "%PDF-1.4".getBytes(StandardCharsets.US_ASCII);
        assertThat(ContentTypes.isHtml(null, pdf, pdf.length)).isFalse();
        assertThat(ContentTypes.charset("text/html; charset=\"iso-8859-1\"")).isEqualTo("iso-8859-1");
        assertThat(ContentTypes.charset("text/html; charset=no-such-charset")).isNull();
        assertThat(ContentTypes.charset("text/html; charset=")).isNull();
        assertThat(ContentTypes.mediaType(" TEXT/HTML ;x=y")).isEqualTo("text/html");
    }
}
