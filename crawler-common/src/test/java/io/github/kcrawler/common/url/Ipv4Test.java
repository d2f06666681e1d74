package io.github.kcrawler.common.url;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Ipv4} against the WHATWG URL Standard's "IPv4 parser" and "ends in a number"
 * (https://url.spec.whatwg.org/#concept-ipv4-parser): 1 to 4 parts, each decimal, {@code 0x} hex or {@code 0}-prefixed
 * octal, all but the last at most 255, the last filling the remaining bytes; one trailing dot allowed; output always
 * the dotted quad. Seeded properties
 * render random 32-bit addresses in random legacy spellings, and random part lists against a BigInteger model of the
 * overflow rules; the expected dotted quad comes from {@link InetAddress#getByAddress(byte[])}.
 */
class Ipv4Test {

    @ParameterizedTest
    @CsvSource({
            "127.0.0.1, 127.0.0.1", "0x7f.1, 127.0.0.1", "0X7F.0.0.1, 127.0.0.1", "0177.0.0.1, 127.0.0.1",
            "2130706433, 127.0.0.1", "017700000001, 127.0.0.1", "0x7f000001, 127.0.0.1", "127.1, 127.0.0.1",
            "127.0.1, 127.0.0.1", "1.2.772, 1.2.3.4", "1.131844, 1.2.3.4", "4294967295, 255.255.255.255",
            "0xffffffff, 255.255.255.255", "0xFF.0377.255.0xff, 255.255.255.255", "0, 0.0.0.0", "00, 0.0.0.0",
            "0x, 0.0.0.0", "0x.0x.0x.0x, 0.0.0.0", "1.0x, 1.0.0.0", "1.2.3.4., 1.2.3.4",
            "000000000000000000000001.2.3.4, 1.2.3.4", "0x00000000000000000000ff, 0.0.0.255",
            "1.16777215, 1.255.255.255", "1.2.65535, 1.2.255.255", "255.255.255.255, 255.255.255.255"})
    void parse_acceptsEveryLegacySpelling_andWritesTheDottedQuad(String host, String expected) {
        assertThat(Ipv4.endsInNumber(host)).isTrue();
        assertThat(Ipv4.parse(host)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"4294967296", "0x100000000", "256.0.0.1", "1.256.0.0", "1.2.3.256", "1.2.65536",
            "1.16777216", "1.2.3.4.5", "1..2.3", ".1.2.3", "09", "08.1", "1.2.3.09", "0x1g", "0xx1", "1.2.3.-4",
            "1.2.3.+4", "1.2.3.4..", "99999999999999999999999", "0xffffffffffffffffffffffffffff",
            "0777777777777777777777777777", "a.1", "1.2.3.\uFF14", "1.2.3.\u0664", " 1.2.3.4", "1.2.3.4 "})
    void parse_refusesInvalidAddresses(String host) {
        assertThat(Ipv4.parse(host)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.2.3.4", "a.1", "a.0x1f", "a.0x", "a.09", "a.0", "1.2.3.4.", "127",
            "example.99999999999"})
    void endsInNumber_whenTheLastLabelIsDigitsOrAValidNumber(String host) {
        assertThat(Ipv4.endsInNumber(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com", "1.a", "a.0xg", "a.1a", "a.-1", "", ".", "a.", "1.2.3.4..", "1.2.3.4x",
            "a.\uFF11"})
    void endsInNumber_isFalseOtherwise(String host) {
        assertThat(Ipv4.endsInNumber(host)).isFalse();
    }

    @Test
    void lastPart_mayFillExactlyTheBytesLeft() {
        String[] prefixes = {"", "1.", "1.2.", "1.2.3."};
        for (int parts = 1; parts <= 4; parts++) {
            long limit = 1L << (8 * (5 - parts));
            String prefix = prefixes[parts - 1];
            assertThat(Ipv4.parse(prefix + (limit - 1))).as(parts + " parts").isNotNull();
            assertThat(Ipv4.parse(prefix + (limit))).as(parts + " parts").isNull();
            assertThat(Ipv4.parse(prefix + "0x" + Long.toHexString(limit))).as(parts + " parts, hex").isNull();
        }
    }

    @Test
    void randomAddresses_inRandomLegacySpellings_parseToTheirDottedQuad() {
        PropertyCheck.forAll(2_000, g -> {
            long value = g.longIn(0, 0xFFFF_FFFFL);
            String expected = dottedQuad(value);
            String spelled = spell(g, value);
            assertThat(Ipv4.endsInNumber(spelled)).as(spelled).isTrue();
            assertThat(Ipv4.parse(spelled)).as(spelled).isEqualTo(expected);
            assertThat(Ipv4.parse(expected)).as("the output reads back as itself").isEqualTo(expected);
        });
    }

    @Test
    void randomPartLists_areAcceptedExactlyWithinTheOverflowRules() {
        PropertyCheck.forAll(2_000, g -> {
            int count = g.intIn(1, 4);
            List<BigInteger> parts = new ArrayList<>();
            StringBuilder host = new StringBuilder();
            for (int i = 0; i < count; i++) {
                BigInteger part = BigInteger.valueOf(g.bool() ? g.longIn(0, 300) : g.longIn(0, 1L << 34));
                if (g.intIn(0, 20) == 0) {
                    part = part.shiftLeft(g.intIn(1, 80)); // far past a long
                }
                parts.add(part);
                host.append(i == 0 ? "" : ".").append(g.bool() ? part.toString() : "0x" + part.toString(16));
            }
            BigInteger byteMax = BigInteger.valueOf(255);
            boolean valid = parts.subList(0, count - 1).stream().allMatch(p -> p.compareTo(byteMax) <= 0)
                    && parts.get(count - 1).compareTo(BigInteger.ONE.shiftLeft(8 * (5 - count))) < 0;
            String expected = null;
            if (valid) {
                BigInteger address = parts.get(count - 1);
                for (int i = 0; i < count - 1; i++) {
                    address = address.add(parts.get(i).shiftLeft(8 * (3 - i)));
                }
                expected = dottedQuad(address.longValueExact());
            }
            assertThat(Ipv4.parse(host.toString())).as(host.toString()).isEqualTo(expected);
        });
    }

    /** The address written as a resolver would read it: dotted quad from the JDK, not from {@link Ipv4}. */
    private static String dottedQuad(long value) throws Exception {
        byte[] b = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
        return InetAddress.getByAddress(b).getHostAddress();
    }

    /** {@code value} in 1 to 4 parts, each part decimal, octal or hex with random case and leading zeros. */
    private static String spell(Gen g, long value) {
        int count = g.intIn(1, 4);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            long part = i < count - 1 ? (value >>> (8 * (3 - i))) & 0xFF : value & ((1L << (8 * (5 - count))) - 1);
            out.append(i == 0 ? "" : ".").append(spellNumber(g, part));
        }
        return g.intIn(0, 9) == 0 ? out + "." : out.toString();
    }

    private static String spellNumber(Gen g, long n) {
        String zeros = "0".repeat(g.intIn(0, 3));
        switch (g.intIn(0, 2)) {
            case 0:
                return Long.toString(n);
            case 1:
                return "0" + zeros + Long.toOctalString(n);
            default:
                String hex = n == 0 && g.bool() ? "" : zeros + Long.toHexString(n);
                return (g.bool() ? "0x" : "0X") + (g.bool() ? hex.toUpperCase(Locale.ROOT) : hex);
        }
    }
}
