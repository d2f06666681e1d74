package io.github.kcrawler.common.url;

import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.common.scope.ScopeDecision;
import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static io.github.kcrawler.testing.PropertyCheck.fuzz;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of URL parsing, normalisation and the scope's trap checks: any text a page can contain —
 * random Unicode, random bytes read as Latin-1 or as (invalid) UTF-8, URL-shaped pieces — gives an answer
 * without an exception, and every URL answered is a normalised fixed point the scope can judge. Small try counts
 * here; {@code -Dkcrawler.fuzz.tries=N} scales them (docs/HOSTILE.md).
 */
class UrlFuzzTest {
    private static final String[] PIECES = {"http://", "https://", "//", "/", "\\", "?", "#", "@", ":", ":8080",
            "[", "]", "::1", "[::ffff:1.2.3.4]", "127.0.0.1", "0x7f.1", "%", "%2f", "%2e%2e", "%ff", "%c0%af", "..",
            ".", "xn--nxasmq6b", "ü", "\u202e", "\uFEFF", "\uDBFF", "a", "&", "=", ";", "\r\n", " ", "\t",
            "javascript:", "data:", "user:pass@", "a/", "b/", "a/b/", "?x=1&y=2", "&z=", "%00"};
    private static final CrawlScope SCOPE = CrawlScope.defaults();

    @Test
    void randomUnicodeIsTotal() {
        fuzz(500, g -> randomUnicodeIsTotal(g.string(400)));
    }

    void randomUnicodeIsTotal(String input) {
        check(UrlNormalizer.normalize(input));
        check(UrlNormalizer.normalize("http://example.com/a/b", input));
    }

    @Test
    void randomBytesAsLatin1AndUtf8AreTotal() {
        fuzz(500, g -> randomBytesAsLatin1AndUtf8AreTotal(g.bytes(400)));
    }

    void randomBytesAsLatin1AndUtf8AreTotal(byte[] bytes) {
        check(UrlNormalizer.normalize(new String(bytes, StandardCharsets.ISO_8859_1)));
        check(UrlNormalizer.normalize("https://h.test/", new String(bytes, StandardCharsets.UTF_8)));
    }

    @Test
    void urlShapedPiecesAreTotal() {
        fuzz(800, g -> urlShapedPiecesAreTotal(urlish(g), urlish(g)));
    }

    void urlShapedPiecesAreTotal(String input, String base) {
        check(UrlNormalizer.normalize(input));
        check(UrlNormalizer.normalize(base, input));
        UrlNormalizer.base(base).ifPresent(b -> check(b.resolve(input)));
    }

    static String urlish(Gen g) {
        return g.joined(PIECES, 24);
    }

    private static void check(Optional<String> result) {
        result.ifPresent(url -> {
            assertThat(url).matches("https?://[^/?#]+/[^#]*");
            assertThat(UrlNormalizer.normalize(url)).contains(url);
            ScopeDecision d = SCOPE.check(url, 1, "http://example.com/");
            assertThat(d).isNotNull();
            assertThat(SCOPE.checkTraps(url)).isNotNull();
        });
    }
}
