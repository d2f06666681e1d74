package io.github.kcrawler.common.fingerprint;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Fingerprints are persisted (URL-seen keys, content hashes in stores and WARC-adjacent records), so they must never
 * change: golden values computed with the implementation as it was before the branch-free content hash (commit
 * 5dd7e34), and {@link Fingerprints#contentHash} checked against its definition — whitespace runs folded to one
 * space, leading and trailing whitespace dropped, then MurmurHash3 x64_128 of the result — on seeded random bodies
 * and on the real pages of {@code ../shared/data/html}.
 */
class FingerprintsTest {
    private static final Path HTML = Path.of("../../shared/data/html");

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(String s) {
        byte[] b = utf8(s);
        return Fingerprints.contentHash(b, b.length, true);
    }

    @Test
    void goldenValues_neverChange() {
        assertThat(text("")).isEqualTo("2bb3e4eb749ec76a61998a4b74133ad5");
        assertThat(text("a")).isEqualTo("c5094b59b8928eb1c5e678f047bfa767");
        assertThat(text("  <html>\n\t<body>Hello   world</body>\r\n</html>  "))
                .isEqualTo("f6946216eb4a09f6332971a3f93c710d");
        byte[] raw = utf8("  <html>\n\t<body>Hello   world</body>\r\n</html>  ");
        assertThat(Fingerprints.contentHash(raw, raw.length, false)).isEqualTo("abe04a877c94c2c1441cf3b3d7d6b8f5");
        assertThat(text("0123456789abcdef")).isEqualTo("875c9e8b246964a793a42d81182f6ff4");
        assertThat(text("0123456789abcdefX")).isEqualTo("6e2c96b8c65fe938ee87fee5fcfac00c");
        assertThat(text("café Größe 日本")).isEqualTo("3597523412099efa2422e6575f0f03f6");
        assertThat(Fingerprints.url("")).isEqualTo(3149112264387118954L);
        assertThat(Fingerprints.url("a")).isEqualTo(-4248781924726567247L);
        assertThat(Fingerprints.url("http://example.com/")).isEqualTo(2099811387200809954L);
    }

    private static String model(byte[] body, int length) {
        return ContentHashModel.contentHash(body, length);
    }

    @Test
    void contentHash_isTheHashOfTheNormalisedBody_onRandomBodies() {
        byte[] alphabet = {' ', '\t', '\n', '\r', '\f', 0x0b, 0, 0x1f, 0x21, 'a', '<', (byte) 0xc3, (byte) 0xa9,
                (byte) 0xff, (byte) 0x80, (byte) 0xa0};
        PropertyCheck.forAll(2_000, g -> {
            int length = g.intIn(0, 300);
            byte[] body = new byte[length + g.intIn(0, 5)]; // the buffer may be longer than the body
            for (int i = 0; i < body.length; i++) {
                body[i] = g.bool() ? g.anyByte() : alphabet[g.intIn(0, alphabet.length - 1)];
            }
            assertThat(Fingerprints.contentHash(body, length, true)).isEqualTo(model(body, length));
            long[] h = Fingerprints.fingerprint128(body, 0, length);
            assertThat(Fingerprints.contentHash(body, length, false))
                    .isEqualTo(String.format("%016x%016x", h[0], h[1]));
        });
    }

    @Test
    void contentHash_isTheHashOfTheNormalisedBody_onRealPages() throws IOException {
        assumeTrue(Files.isDirectory(HTML), "../shared/data/html is not beside the checkout");
        List<Path> pages;
        try (Stream<Path> s = Files.list(HTML)) {
            pages = s.filter(p -> p.toString().endsWith(".html.gz")).sorted().toList();
        }
        assertThat(pages).isNotEmpty();
        for (Path p : pages) {
            byte[] body;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
                body = in.readAllBytes();
            }
            assertThat(Fingerprints.contentHash(body, body.length, true)).as(p.toString())
                    .isEqualTo(model(body, body.length));
        }
    }
}
