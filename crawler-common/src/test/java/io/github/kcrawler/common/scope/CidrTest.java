package io.github.kcrawler.common.scope;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Cidr}: which texts are ranges (IPv4 and IPv6 literals with an optional {@code /prefix}, host bits ignored,
 * IPv4-mapped IPv6 ranges read as IPv4), which are refused with a message naming them, and {@link Cidr#contains} at
 * the edges of blocks of every alignment. A seeded property compares {@code contains} with an exact model: the
 * top {@code prefix} bits of two {@link BigInteger}s, families decided by {@link InetAddress} (literals only).
 */
class CidrTest {

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal); // literals only: never a name, so never DNS
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "10.0.0.0/8|10.0.0.0/8", "10.1.2.3/8|10.0.0.0/8", "192.0.2.7|192.0.2.7/32",
            " 127.0.0.0/8 |127.0.0.0/8", "10.0.0.0/08|10.0.0.0/8", "1.2.3.4/0|0.0.0.0/0",
            "255.255.255.255/31|255.255.255.254/31", "172.31.255.255/12|172.16.0.0/12",
            "2001:db8::/32|2001:db8:0:0:0:0:0:0/32", "2001:DB8:ffff::1/32|2001:db8:0:0:0:0:0:0/32",
            "::1|0:0:0:0:0:0:0:1/128", "fe80::1/10|fe80:0:0:0:0:0:0:0/10", "::/0|0:0:0:0:0:0:0:0/0",
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/127|ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127",
            "::ffff:10.1.2.3/104|10.0.0.0/8", "::ffff:1.2.3.4|1.2.3.4/32", "::ffff:0.0.0.0/96|0.0.0.0/0",
            "::ffff:a01:203/120|10.1.2.0/24", "::1.2.3.4|0:0:0:0:0:0:102:304/128",
            "1::2:3:4:5:6:7|1:0:2:3:4:5:6:7/128"})
    void parse_readsLiteralRanges_clearingHostBits(String text, String expected) {
        Cidr cidr = Cidr.parse(text);
        assertThat(cidr.toString()).isEqualTo(expected);
        assertThat(cidr.prefixLength()).isEqualTo(Integer.parseInt(expected.substring(expected.indexOf('/') + 1)));
        assertThat(cidr).isEqualTo(Cidr.parse(expected)).hasSameHashCodeAs(Cidr.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "localhost", "example.com/8", "1.2.3", "1.2.3.4.5", "1.2.3.256", "1.2.3.-1",
            "1.2.3.0004", "0x7f.0.0.1", "127.1", "2130706433", "\u0661.2.3.4", "[::1]", "[::1]/128", "fe80::1%eth0",
            "1::2::3", "1:2:3:4:5:6:7:8:9", "::g", "1.2.3.4 /8", "/8", "::ffff:1.2.3.4.5"})
    void parse_refusesWhatIsNotAnAddressLiteral_namingIt(String text) {
        assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address range must be an IP address or CIDR range, was '" + text + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.2.3.4/", "1.2.3.4/x", "1.2.3.4/+8", "1.2.3.4/-1", "1.2.3.4/ 8", "1.2.3.4/8/9",
            "1.2.3.4/0x8", "1.2.3.4/0008", "1.2.3.4/\uFF18", "::1/1e2"})
    void parse_refusesAPrefixThatIsNotAShortNumber(String text) {
        assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address range prefix must be a number, was '" + text + "'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"1.2.3.4/33|32", "0.0.0.0/999|32", "::/129|128", "::1/999|128",
            "::ffff:1.2.3.4/95|32", "::ffff:1.2.3.4/129|32"})
    void parse_refusesAPrefixLongerThanTheAddress(String text, int max) {
        assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address range prefix must be in 0.." + max + ", was '" + text + "'");
    }

    @Test
    void parse_refusesNull() {
        assertThatThrownBy(() -> Cidr.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 'null'");
    }

    @Test
    void parse_readsLeadingZerosAsDecimal_notAsTheUrlParsersOctal() throws UnknownHostException {
        // An operator's 010.0.0.0/8 is 10/8 (as InetAddress reads it), although a URL host 010.0.0.1 is 8.0.0.1.
        Cidr cidr = Cidr.parse("010.0.0.0/8");
        assertThat(cidr).isEqualTo(Cidr.parse("10.0.0.0/8"));
        assertThat(cidr.contains(ip("8.0.0.1"))).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "192.168.4.0/22|192.168.4.0|192.168.7.255|192.168.3.255|192.168.8.0",
            "10.0.0.0/7|10.0.0.0|11.255.255.255|9.255.255.255|12.0.0.0",
            "198.51.100.7/32|198.51.100.7|198.51.100.7|198.51.100.6|198.51.100.8",
            "128.0.0.0/1|128.0.0.0|255.255.255.255|127.255.255.255|",
            "0.0.0.0/1|0.0.0.0|127.255.255.255||128.0.0.0",
            "0.0.0.0/0|0.0.0.0|255.255.255.255||",
            "2001:db8::/32|2001:db8::|2001:db8:ffff:ffff:ffff:ffff:ffff:ffff|2001:db7:ffff:ffff:ffff:ffff:ffff:ffff|"
                    + "2001:db9::",
            "fe80::/10|fe80::|febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff|fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff|fec0::",
            "::1/128|::1|::1|::|::2",
            "::/0|::|ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff||",
            "2001:db8::80/121|2001:db8::80|2001:db8::ff|2001:db8::7f|2001:db8::100"})
    void contains_firstAndLastAddress_butNotTheNeighboursOutside(String range, String first, String last,
                                                                  String below, String above) throws Exception {
        Cidr cidr = Cidr.parse(range);
        assertThat(cidr.contains(ip(first))).as("first").isTrue();
        assertThat(cidr.contains(ip(last))).as("last").isTrue();
        if (below != null) {
            assertThat(cidr.contains(ip(below))).as("one below").isFalse();
        }
        if (above != null) {
            assertThat(cidr.contains(ip(above))).as("one above").isFalse();
        }
    }

    @Test
    void contains_neverMatchesTheOtherFamily() throws UnknownHostException {
        assertThat(Cidr.parse("0.0.0.0/0").contains(ip("::"))).isFalse();
        assertThat(Cidr.parse("0.0.0.0/0").contains(ip("::1.2.3.4"))).isFalse();
        assertThat(Cidr.parse("::/0").contains(ip("0.0.0.0"))).isFalse();
        assertThat(Cidr.parse("::/0").contains(ip("10.0.0.1"))).isFalse();
        // the JDK reads an IPv4-mapped literal as the IPv4 address, so it falls in IPv4 ranges only
        assertThat(Cidr.parse("::/0").contains(ip("::ffff:10.0.0.1"))).isFalse();
        assertThat(Cidr.parse("10.0.0.0/8").contains(ip("::ffff:10.0.0.1"))).isTrue();
        assertThat(Cidr.parse("::ffff:0.0.0.0/96").contains(ip("203.0.113.1"))).isTrue();
    }

    @Test
    void equality_isTheNetworkAndPrefix() {
        assertThat(Cidr.parse("10.9.8.7/8")).isEqualTo(Cidr.parse("10.0.0.0/8"));
        assertThat(Cidr.parse("10.0.0.0/8")).isNotEqualTo(Cidr.parse("10.0.0.0/9"));
        assertThat(Cidr.parse("10.0.0.0/8")).isNotEqualTo(Cidr.parse("11.0.0.0/8"));
        assertThat(Cidr.parse("0.0.0.0/0")).isNotEqualTo(Cidr.parse("::/0"));
        assertThat(Cidr.parse("::1")).isNotEqualTo(Cidr.parse("::1/127"));
    }

    @Test
    void contains_agreesWithABigIntegerModel_onRandomRangesAndAddresses() {
        PropertyCheck.forAll(3_000, g -> {
            boolean v4 = g.bool();
            int bits = v4 ? 32 : 128;
            byte[] raw = randomAddress(g, v4 ? 4 : 16);
            int prefix = g.intIn(0, bits);
            String text = literal(g, raw) + "/" + prefix;
            Cidr cidr = Cidr.parse(text);
            BigInteger network = new BigInteger(1, ip(literal(g, raw)).getAddress());
            assertThat(cidr.prefixLength()).as(text).isEqualTo(prefix);
            BigInteger size = BigInteger.ONE.shiftLeft(bits - prefix);
            BigInteger first = network.shiftRight(bits - prefix).shiftLeft(bits - prefix);
            List<BigInteger> probes = new ArrayList<>(List.of(first, first.add(size).subtract(BigInteger.ONE),
                    first.subtract(BigInteger.ONE), first.add(size), network));
            probes.add(first.add(new BigInteger(bits - prefix, new java.util.Random(g.random().nextLong()))));
            for (BigInteger probe : probes) {
                BigInteger p = probe.mod(BigInteger.ONE.shiftLeft(bits)); // wrap past either end of the space
                InetAddress address = InetAddress.getByAddress(toBytes(p, bits / 8));
                BigInteger a = new BigInteger(1, address.getAddress());
                boolean expected = address.getAddress().length == bits / 8
                        && a.shiftRight(bits - prefix).equals(network.shiftRight(bits - prefix));
                assertThat(cidr.contains(address)).as(text + " contains " + address).isEqualTo(expected);
            }
            InetAddress other = InetAddress.getByAddress(randomAddress(g, v4 ? 16 : 4));
            assertThat(cidr.contains(other)).as(text + " contains " + other).isFalse();
        });
    }

    /** Random bytes, never an IPv4-mapped IPv6 address (the JDK turns those into IPv4). */
    private static byte[] randomAddress(Gen g, int length) {
        byte[] b = new byte[length];
        do {
            g.random().nextBytes(b);
            if (g.intIn(0, 4) == 0) {
                java.util.Arrays.fill(b, g.intIn(0, length), length, (byte) g.ofInts(0, 0xFF));
            }
        } while (length == 16 && new BigInteger(1, b).shiftRight(32).equals(BigInteger.valueOf(0xFFFF)));
        return b;
    }

    /** Dotted quad, or eight hex pieces in random case with random leading zeros. */
    private static String literal(Gen g, byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i += b.length == 4 ? 1 : 2) {
            if (b.length == 4) {
                sb.append(i == 0 ? "" : ".").append(Byte.toUnsignedInt(b[i]));
            } else {
                String hex = Integer.toHexString(Byte.toUnsignedInt(b[i]) << 8 | Byte.toUnsignedInt(b[i + 1]));
                hex = "0".repeat(g.intIn(0, 4 - hex.length())) + hex;
                sb.append(i == 0 ? "" : ":").append(g.bool() ? hex.toUpperCase(Locale.ROOT) : hex);
            }
        }
        return sb.toString();
    }

    private static byte[] toBytes(BigInteger v, int length) {
        byte[] out = new byte[length];
        byte[] big = v.toByteArray(); // may carry a leading sign byte or be shorter
        int n = Math.min(length, big.length);
        System.arraycopy(big, big.length - n, out, length - n, n);
        return out;
    }

    /**
     * Parsing never touches DNS: a text with a ':' that does not start as a literal (".::1") is refused before
     * InetAddress could look it up as a host name (a bug found by this test). Checked in a child JVM whose name
     * service is a hosts file ({@code jdk.net.hosts.file}) that knows ".::1", so a lookup would resolve.
     */
    @Test
    void parse_neverLooksUpAHostName(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "10.1.2.3 .::1\n");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djdk.net.hosts.file=" + hosts, "-cp", System.getProperty("java.class.path"),
                ParseInChildJvm.class.getName(), ".::1").redirectErrorStream(true).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(out).isEqualTo("refused");
    }

    /** Prints the range {@link Cidr#parse} makes of its argument, or "refused". */
    static final class ParseInChildJvm {
        public static void main(String[] args) {
            try {
                System.out.println(Cidr.parse(args[0]));
            } catch (IllegalArgumentException e) {
                System.out.println("refused");
            }
        }
    }
}
