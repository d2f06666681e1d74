package io.github.kcrawler.common.url;

import io.github.kcrawler.common.FuzzTries;
import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.common.scope.ScopeDecision;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of URL parsing, normalisation and the scope's trap checks: any text a page can contain —
 * random Unicode, random bytes read as Latin-1 or as (invalid) UTF-8, URL-shaped pieces — gives an answer
 * without an exception, and every URL answered is a normalised fixed point the scope can judge. Small try counts
 * here; {@code -Dkcrawler.fuzz.tries=N} scales them (docs/HOSTILE.md).
 */
@AddLifecycleHook(FuzzTries.class)
class UrlFuzzTest {
    private static final String[] PIECES = {"http://", "https://", "//", "/", "\\", "?", "#", "@", ":", ":8080",
            "[", "]", "::1", "[::ffff:1.2.3.4]", "127.0.0.1", "0x7f.1", "%", "%2f", "%2e%2e", "%ff", "%c0%af", "..",
            ".", "xn--nxasmq6b", "ü", "\u202e", "\uFEFF", "\uDBFF", "a", "&", "=", ";", "\r\n", " ", "\t",
            "javascript:", "data:", "user:pass@", "a/", "b/", "a/b/", "?x=1&y=2", "&z=", "%00"};
    private static final CrawlScope SCOPE = CrawlScope.defaults();

    @Property(tries = 500)
    void randomUnicodeIsTotal(@ForAll @Size(max = 400) String input) {
        check(UrlNormalizer.normalize(input));
        check(UrlNormalizer.normalize("http://example.com/a/b", input));
    }

    @Property(tries = 500)
    void randomBytesAsLatin1AndUtf8AreTotal(@ForAll @Size(max = 400) byte[] bytes) {
        check(UrlNormalizer.normalize(new String(bytes, StandardCharsets.ISO_8859_1)));
        check(UrlNormalizer.normalize("https://h.test/", new String(bytes, StandardCharsets.UTF_8)));
    }

    @Property(tries = 800)
    void urlShapedPiecesAreTotal(@ForAll("urlish") String input, @ForAll("urlish") String base) {
        check(UrlNormalizer.normalize(input));
        check(UrlNormalizer.normalize(base, input));
        UrlNormalizer.base(base).ifPresent(b -> check(b.resolve(input)));
    }

    @Provide
    Arbitrary<String> urlish() {
        return Arbitraries.of(PIECES).list().ofMaxSize(24).map(l -> String.join("", l));
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
