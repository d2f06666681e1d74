package io.github.kcrawler.common.url;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Worked examples of each rule the normaliser applies; the WPT and corpus tests cover breadth. */
class UrlNormalizerTest {
    private static final String BASE = "http://example.com/a/b/c?x#y";

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "d|http://example.com/a/b/d",
            "./d|http://example.com/a/b/d",
            "../d|http://example.com/a/d",
            "../../../../d|http://example.com/d",
            "/d|http://example.com/d",
            "//Other.ORG/x|http://other.org/x",
            "///other.org/x|http://other.org/x",
            "\\\\evil.com\\x\\y|http://evil.com/x/y",
            "?q=1|http://example.com/a/b/c?q=1",
            "#frag|http://example.com/a/b/c?x",
            ".|http://example.com/a/b/",
            "..|http://example.com/a/",
            "http:d|http://example.com/a/b/d",
            "https:foo|https://foo/",
            "https://secure.example.com|https://secure.example.com/",
    })
    void shouldResolveRelativeReferences(String href, String expected) {
        assertThat(UrlNormalizer.normalize(BASE, href)).contains(expected);
        assertThat(UrlNormalizer.base(BASE).orElseThrow().resolve(href)).contains(expected);
    }

    @Test
    void shouldReturnBaseWithoutFragmentForEmptyReference() {
        assertThat(UrlNormalizer.normalize(BASE, "")).contains("http://example.com/a/b/c?x");
        assertThat(UrlNormalizer.normalize(BASE, "  \t ")).contains("http://example.com/a/b/c?x");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "HTTP://EXAMPLE.COM/Path|http://example.com/Path",
            "http://example.com|http://example.com/",
            "http://example.com?q|http://example.com/?q",
            "http://example.com:80/|http://example.com/",
            "https://example.com:443/|https://example.com/",
            "http://example.com:443/|http://example.com:443/",
            "https://example.com:0080/|https://example.com:80/",
            "http://example.com:/x|http://example.com/x",
            "http://user:secret@example.com/#top|http://example.com/",
            "http://example.com/a/./b/../c/|http://example.com/a/c/",
            "http://example.com/a/%2e%2E/b|http://example.com/b",
            "http://example.com/%7euser/%2f%41?%3d%7E%2a|http://example.com/~user/%2FA?%3D~%2A",
            "http://example.com/100%/x%zz|http://example.com/100%/x%zz",
            "http://example.com/%%41ftp?%4%31|http://example.com/%%41ftp?%4%31",
            "http://example.com/?b=2&a=1&a=0|http://example.com/?b=2&a=1&a=0",
            "http://example.com/{x}`|http://example.com/%7Bx%7D%60",
            "http://example.com/?q='\"<>|http://example.com/?q=%27%22%3C%3E",
            "http://bücher.de/ü|http://xn--bcher-kva.de/%C3%BC",
            "http://ＥＸＡＭＰＬＥ.com/|http://example.com/",
            "http://ex%41mple.com/|http://example.com/",
            "http://0x7f.1/|http://127.0.0.1/",
            "http://2130706433/|http://127.0.0.1/",
            "http://0177.0.0.1./|http://127.0.0.1/",
            "http://[0:0:0:0:0:0:0:1]:8080/|http://[::1]:8080/",
            "http://[::FFFF:1.2.3.4]/|http://[::ffff:102:304]/",
            "http://[2001:db8:0:0:1:0:0:1]/|http://[2001:db8::1:0:0:1]/",
            "http://example.com/😀|http://example.com/%F0%9F%98%80",
    })
    void shouldNormaliseAbsoluteUrls(String input, String expected) {
        assertThat(UrlNormalizer.normalize(input)).contains(expected);
        assertThat(UrlNormalizer.normalize(expected)).contains(expected);
    }

    @Test
    void shouldEncodeSpacesAndNonAscii() {
        assertThat(UrlNormalizer.normalize("http://example.com/a b/ü?q=a b&ü"))
                .contains("http://example.com/a%20b/%C3%BC?q=a%20b&%C3%BC");
    }

    @Test
    void shouldTrimControlsAndStripTabsAndNewlines() {
        assertThat(UrlNormalizer.normalize(" \u0000\thttp://exa\nmple.com/a\r\nb \u001f")).contains("http://example.com/ab");
    }

    @Test
    void shouldEncodeLoneSurrogatesAsReplacementCharacter() {
        assertThat(UrlNormalizer.normalize("http://example.com/\uD800x")).contains("http://example.com/%EF%BF%BDx");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mailto:someone@example.com", "javascript:alert(1)", "data:text/html,hi",
            "ftp://example.com/", "file:///etc/passwd", "ws://example.com/", "tel:+123", "http://", "http:///",
            "https://", "http://@/x", "http://user@/x", "http://:80/", "http://exa mple.com/", "http://a<b/",
            "http://example.com:65536/", "http://example.com:99999999999999999999/", "http://example.com:8a/",
            "http://1.2.3.256/", "http://999999999999/", "http://1.2.3.4.5/", "http://[::1/", "http://[1::2::3]/",
            "http://[::1%25eth0]/", "http://ex%00ample.com/", "http://%zz.com/", "http://\u00AD/", "foo/bar", ""})
    void shouldRejectUnusableUrls(String input) {
        assertThat(UrlNormalizer.normalize(input)).isEmpty();
    }

    @Test
    void shouldRejectNullAndOverlongInput() {
        assertThat(UrlNormalizer.normalize(null)).isEmpty();
        assertThat(UrlNormalizer.normalize(BASE, null)).isEmpty();
        String ok = "http://example.com/" + "a".repeat(UrlNormalizer.MAX_INPUT_LENGTH - 19);
        assertThat(UrlNormalizer.normalize(ok)).contains(ok);
        assertThat(UrlNormalizer.normalize(ok + "a")).isEmpty();
    }

    @Test
    void shouldRejectAResultLongerThanTheOutputBound() {
        // 1,000 characters of input, 9,000 once percent-encoded (each is three UTF-8 bytes): over 8 KiB
        String wide = "http://example.com/" + "\u65e5".repeat(1000);
        assertThat(wide.length()).isLessThan(UrlNormalizer.MAX_INPUT_LENGTH);
        assertThat(UrlNormalizer.normalize(wide)).isEmpty();
        String fits = "http://example.com/" + "\u65e5".repeat(900); // 8,100 + 19 characters encoded
        assertThat(UrlNormalizer.normalize(fits)).hasValueSatisfying(u -> {
            assertThat(u.length()).isLessThanOrEqualTo(UrlNormalizer.MAX_OUTPUT_LENGTH);
            assertThat(UrlNormalizer.normalize(u)).contains(u);
        });
        // a relative reference adds its base: each within the input bound, the result over it
        String base = "http://example.com/" + "b".repeat(5000) + "/";
        assertThat(UrlNormalizer.normalize(base, "c".repeat(4000))).isEmpty();
        assertThat(UrlNormalizer.normalize(base, "c".repeat(3000))).isPresent();
    }

    @Test
    void shouldRejectRelativeReferenceAgainstUnusableBase() {
        assertThat(UrlNormalizer.normalize("mailto:x@example.com", "page.html")).isEmpty();
        assertThat(UrlNormalizer.normalize("not a url", "page.html")).isEmpty();
        assertThat(UrlNormalizer.normalize("not a url", "http://example.com/page.html"))
                .contains("http://example.com/page.html");
        assertThat(UrlNormalizer.base("ftp://example.com/")).isEmpty();
    }

    @Test
    void shouldExtractHostAndPort() {
        assertThat(UrlNormalizer.host("http://example.com:8080/x")).isEqualTo("example.com");
        assertThat(UrlNormalizer.host("https://[::1]:8443/x")).isEqualTo("[::1]");
        assertThat(UrlNormalizer.host("https://example.com?q")).isEqualTo("example.com");
        assertThat(UrlNormalizer.host("mailto:x")).isNull();
        assertThat(UrlNormalizer.host(null)).isNull();
        assertThat(UrlNormalizer.host("http:///x")).isNull();
        assertThat(UrlNormalizer.port("http://example.com:8080/x")).isEqualTo(8080);
        assertThat(UrlNormalizer.port("http://example.com/x")).isEqualTo(80);
        assertThat(UrlNormalizer.port("https://[::1]/x")).isEqualTo(443);
        assertThat(UrlNormalizer.port("ftp://example.com/")).isEqualTo(-1);
        assertThat(UrlNormalizer.port("http://example.com:/")).isEqualTo(-1);
    }

    @Test
    void shouldCompareHostsWithoutCaseOrPort() {
        assertThat(UrlNormalizer.sameHost("http://example.com/a", "https://EXAMPLE.com:8443/b")).isTrue();
        assertThat(UrlNormalizer.sameHost("http://example.com/a", "http://example.com.evil.org/")).isFalse();
        assertThat(UrlNormalizer.sameHost("http://example.com/a", "http://www.example.com/")).isFalse();
        assertThat(UrlNormalizer.sameHost("http://[::1]/", "http://[::1]:80/")).isTrue();
        assertThat(UrlNormalizer.sameHost(null, "http://example.com/")).isFalse();
    }
}
