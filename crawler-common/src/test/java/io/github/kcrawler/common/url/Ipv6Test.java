package io.github.kcrawler.common.url;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.net.Inet6Address;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Ipv6} against the WHATWG URL Standard's IPv6 parser and serializer
 * (https://url.spec.whatwg.org/#concept-ipv6-parser): every accepted spelling (compression anywhere, leading zeros,
 * upper case, an embedded IPv4 tail) gives one canonical text, which is RFC 5952 section 4 (lower-case hex, no
 * leading zeros, the longest run of two or more zero pieces as {@code ::}, the leftmost on ties, never a lone zero).
 * Unlike RFC 5952 section 5 an IPv4 tail is written back in hex, as the standard does. Seeded properties check random
 * 128-bit addresses, in the JDK's full spelling and in random alternative spellings, against an independent model:
 * RFC 5952's rules applied to the text.
 */
class Ipv6Test {
    /** A whole run of two or more {@code 0} pieces: from the start or a colon to a colon or the end. */
    private static final Pattern ZERO_RUN = Pattern.compile("(?:^|:)0(?::0)+(?=:|$)");

    private static String parse(String s) {
        return Ipv6.parse(s, 0, s.length());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "::|[::]", "::1|[::1]", "1::|[1::]", "0::0|[::]", "0:0:0:0:0:0:0:1|[::1]", "0:0::1|[::1]",
            "2001:DB8::1|[2001:db8::1]", "2001:0db8:0000:0000:0000:0000:0000:0001|[2001:db8::1]",
            "1:0:0:2:0:0:0:3|[1:0:0:2::3]", "1:0:0:2:0:0:3:4|[1::2:0:0:3:4]", "0:0:1:0:0:0:0:0|[0:0:1::]",
            "1:0:2:3:4:5:6:7|[1:0:2:3:4:5:6:7]", "1:2:3:4:5:6:7::|[1:2:3:4:5:6:7:0]",
            "::2:3:4:5:6:7:8|[0:2:3:4:5:6:7:8]", "1:2:3:4:5:6:7:8|[1:2:3:4:5:6:7:8]",
            "FFFF:ffff:FfFf:ffff:ffff:ffff:ffff:ffff|[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]",
            "::ffff:1.2.3.4|[::ffff:102:304]", "::1.2.3.4|[::102:304]", "1:2:3:4:5:6:1.2.3.4|[1:2:3:4:5:6:102:304]",
            "::0.0.0.0|[::]", "::255.255.255.255|[::ffff:ffff]", "1:0::|[1::]", "0:0:0:0:0:0:0:0|[::]",
            "1:0:0:0:0:0:0:0|[1::]", "0:0:0:0:0:0:1.0.0.0|[::100:0]", "0:0:1:0:0:2:3:4|[::1:0:0:2:3:4]",
            "1:2:0:0:3:4:0:0|[1:2::3:4:0:0]", "1:2:3:4:0:0:0:0|[1:2:3:4::]"})
    void parse_acceptsEverySpelling_andWritesTheCanonicalForm(String input, String expected) {
        assertThat(parse(input)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":", ":1", "1:", ":::", "1:::2", "1::2::3", "::1::", "12345::", "00000::", "g::",
            "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:",
            "::1.2.3", "::1.2.3.4.5", "::01.2.3.4", "::1.02.3.4", "::256.0.0.1", "::1.2.3.256", "::1.2.3.",
            "::1..2.3", "::.1.2.3", "::a.2.3.4", "::1.2.3.4:5", "1:2:3:4:5:6:7:1.2.3.4", "::0x1.2.3.4", "1.2.3.4",
            "fe80::1%eth0", "::1%25", " ::1", "::1 ", "[::1]", "::0x1", "::-1", "1:2:3:4:5:6:7:8.0.0.0",
            "0:0:0:0:0:0:0:1.0.0.0"})
    void parse_refusesWhatTheStandardRefuses(String input) {
        assertThat(parse(input)).isNull();
    }

    @Test
    void parse_readsOnlyTheGivenRange() {
        assertThat(Ipv6.parse("[::1]", 1, 4)).isEqualTo("[::1]");
        assertThat(Ipv6.parse("x1::2y", 1, 5)).isEqualTo("[1::2]");
        assertThat(Ipv6.parse("1::2:3", 0, 4)).isEqualTo("[1::2]");
        assertThat(Ipv6.parse("1::2:3", 0, 5)).as("a range ending in ':' is refused").isNull();
    }

    @Test
    void randomAddresses_inTheJdkFullSpelling_parseToTheModelText() {
        PropertyCheck.forAll(3_000, g -> {
            int[] pieces = pieces(g);
            String full = Inet6Address.getByAddress(null, bytes(pieces), -1).getHostAddress();
            String expected = "[" + rfc5952(pieces) + "]";
            assertThat(parse(full)).as(full).isEqualTo(expected);
            assertThat(parse(expected.substring(1, expected.length() - 1))).as("canonical text reads back as itself")
                    .isEqualTo(expected);
        });
    }

    @Test
    void randomAddresses_inAnyAlternativeSpelling_parseToTheModelText() {
        PropertyCheck.forAll(3_000, g -> {
            int[] pieces = pieces(g);
            String spelled = spell(g, pieces);
            assertThat(parse(spelled)).as(spelled).isEqualTo("[" + rfc5952(pieces) + "]");
        });
    }

    @Test
    void random128BitValues_roundTripThroughTheCanonicalText() {
        PropertyCheck.forAll(2_000, g -> {
            byte[] raw = new byte[16];
            g.random().nextBytes(raw);
            if (g.bool()) { // a zero run somewhere, so that the text has a "::" to expand
                int from = g.intIn(0, 7);
                Arrays.fill(raw, 2 * from, 2 * g.intIn(from + 1, 8), (byte) 0);
            }
            BigInteger value = new BigInteger(1, raw);
            int[] pieces = new int[8];
            for (int i = 0; i < 8; i++) {
                pieces[i] = value.shiftRight(16 * (7 - i)).intValue() & 0xFFFF;
            }
            String text = parse(Inet6Address.getByAddress(null, bytes(pieces), -1).getHostAddress());
            assertThat(text).isNotNull();
            BigInteger back = BigInteger.ZERO;
            for (String piece : expand(text.substring(1, text.length() - 1))) {
                back = back.shiftLeft(16).or(new BigInteger(piece, 16));
            }
            assertThat(back).isEqualTo(value);
        });
    }

    /** Eight pieces, zero half of the time so that zero runs of every length and position occur. */
    private static int[] pieces(Gen g) {
        int[] p = new int[8];
        boolean zeros = g.intIn(0, 9) != 0;
        for (int i = 0; i < 8; i++) {
            p[i] = zeros && g.bool() ? 0 : g.intIn(0, 0xFFFF);
        }
        return p;
    }

    private static byte[] bytes(int[] pieces) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[2 * i] = (byte) (pieces[i] >>> 8);
            b[2 * i + 1] = (byte) pieces[i];
        }
        return b;
    }

    /**
     * RFC 5952 section 4 on the text rather than on numbers: the full form in lower-case hex without leading zeros
     * (4.1, 4.3), then the maximal run of two or more {@code 0} pieces with the most pieces, the first on ties
     * (4.2.2, 4.2.3), replaced by {@code ::}. (Not "the shortest text": a run at either end saves one character less
     * than an equally long run inside.)
     */
    static String rfc5952(int[] pieces) {
        StringBuilder full = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            full.append(i == 0 ? "" : ":").append(Integer.toHexString(pieces[i]));
        }
        Matcher m = ZERO_RUN.matcher(full);
        int bestStart = -1;
        int bestEnd = -1;
        int bestPieces = 1;
        while (m.find()) {
            int zeroPieces = m.group().replace(":", "").length();
            if (zeroPieces > bestPieces) {
                bestStart = m.start();
                bestEnd = m.end();
                bestPieces = zeroPieces;
            }
        }
        if (bestStart < 0) {
            return full.toString();
        }
        String after = full.substring(bestEnd);
        return full.substring(0, bestStart) + "::" + (after.isEmpty() ? "" : after.substring(1));
    }

    /** Another valid spelling: any zero run (one piece is enough) as {@code ::}, padding, case, an IPv4 tail. */
    private static String spell(Gen g, int[] pieces) {
        String[] text = new String[8];
        for (int i = 0; i < 8; i++) {
            String hex = Integer.toHexString(pieces[i]);
            hex = "0".repeat(g.intIn(0, 4 - hex.length())) + hex;
            text[i] = g.bool() ? hex.toUpperCase(Locale.ROOT) : hex;
        }
        int end = 8;
        String tail = "";
        if (g.intIn(0, 3) == 0) {
            end = 6;
            tail = (pieces[6] >>> 8) + "." + (pieces[6] & 0xFF) + "." + (pieces[7] >>> 8) + "." + (pieces[7] & 0xFF);
        }
        int runStart = g.intIn(0, end - 1);
        int runEnd = runStart;
        while (runEnd < end && pieces[runEnd] == 0 && (runEnd == runStart || g.intIn(0, 4) != 0)) {
            runEnd++;
        }
        StringBuilder sb = new StringBuilder();
        if (runEnd == runStart) {
            sb.append(String.join(":", Arrays.copyOfRange(text, 0, end)));
            return tail.isEmpty() ? sb.toString() : sb + ":" + tail;
        }
        sb.append(String.join(":", Arrays.copyOfRange(text, 0, runStart))).append("::")
                .append(String.join(":", Arrays.copyOfRange(text, runEnd, end)));
        if (!tail.isEmpty()) {
            sb.append(runEnd == end ? "" : ":").append(tail);
        }
        return sb.toString();
    }

    /** The eight pieces of a text, {@code ::} expanded (the text's own hex, not the parser's arithmetic). */
    private static String[] expand(String text) {
        int gap = text.indexOf("::");
        String[] head = gap < 0 ? text.split(":") : gap == 0 ? new String[0] : text.substring(0, gap).split(":");
        String rest = gap < 0 ? "" : text.substring(gap + 2);
        String[] tail = rest.isEmpty() ? new String[0] : rest.split(":");
        String[] out = new String[8];
        Arrays.fill(out, "0");
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(tail, 0, out, 8 - tail.length, tail.length);
        return out;
    }
}
