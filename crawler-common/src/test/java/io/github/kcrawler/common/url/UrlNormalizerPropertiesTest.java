package io.github.kcrawler.common.url;

import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The normaliser is a total function on hostile input: for any string, with or without a base, it answers without
 * throwing, and what it answers is a fixed point, plain ASCII, http(s), fragment-free. Fully random strings test
 * the totality; strings assembled from URL-shaped pieces reach the deep branches (hosts, ports, IPs, dot segments,
 * escapes) that random text seldom does.
 */
class UrlNormalizerPropertiesTest {
    private static final String[] PIECES = {"http:", "https:", "HTTP:", "ftp:", "mailto:", "//", "/", "\\", "///",
            "?", "#", "@", ":", ":80", ":443", ":65536", ":0", "[", "]", "::", "::1", "1.2.3.4", "0x7f", "0177", ".",
            "..", "%", "%2e", "%2E", "%41", "%zz", "%00", "%4", "%%", "%61", "%46", "%C3%BC", "ü", "bücher", "😀", "\uD800", "\u00AD", " ",
            "\t", "\n", "\u0000", "example", "EXAMPLE", "com", "xn--", "a", "b", "=", "&", "'", "\"", "<", "{", "^",
            "|", "~", "-", "_", "255", "256", "4294967295", "4294967296", "ffff"};

    @Test
    void shouldBeTotalOnRandomStrings() {
        forAll(3000, g -> shouldBeTotalOnRandomStrings(g.string(300), g.string(60)));
    }

    void shouldBeTotalOnRandomStrings(String input, String base) {
        checkResult(input, UrlNormalizer.normalize(input));
        checkResult(input, UrlNormalizer.normalize("http://example.com/" + base, input));
        checkResult(input, UrlNormalizer.normalize(base, input));
    }

    @Test
    void shouldBeTotalAndIdempotentOnUrlShapedStrings() {
        forAll(5000, g -> shouldBeTotalAndIdempotentOnUrlShapedStrings(urlish(g), urlish(g)));
    }

    void shouldBeTotalAndIdempotentOnUrlShapedStrings(String input, String base) {
        checkResult(input, UrlNormalizer.normalize(input));
        Optional<String> resolved = UrlNormalizer.normalize(base, input);
        checkResult(input, resolved);
        Optional<UrlNormalizer.Base> parsed = UrlNormalizer.base(base);
        parsed.ifPresent(b -> assertThat(b.resolve(input)).isEqualTo(resolved));
        UrlNormalizer.normalize(input).ifPresent(abs ->
                assertThat(UrlNormalizer.normalize(base, abs)).as("absolute wins over any base").contains(abs));
    }

    @Test
    void shouldResolveAgainstHttpBase() {
        forAll(2000, g -> shouldResolveAgainstHttpBase(urlish(g)));
    }

    void shouldResolveAgainstHttpBase(String href) {
        Optional<String> out = UrlNormalizer.normalize("https://Example.com/dir/page?x", href);
        checkResult(href, out);
    }

    static String urlish(Gen g) {
        return g.joined(PIECES, 14);
    }

    private static void checkResult(String input, Optional<String> result) {
        result.ifPresent(url -> {
            assertThat(url).as("from %s", input).matches("https?://[^/?#]+/[^#]*");
            for (int i = 0; i < url.length(); i++) {
                assertThat(url.charAt(i)).as("char %d of %s", i, url).isBetween('!', '~');
            }
            assertThat(UrlNormalizer.normalize(url)).as("idempotent for %s", input).contains(url);
            assertThat(UrlNormalizer.host(url)).as("host of %s", url).isNotEmpty();
            assertThat(UrlNormalizer.port(url)).isBetween(0, 65535);
        });
    }
}
