package io.github.kcrawler.common.scope;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AddressPolicyTest {
    /** Literals only: InetAddress.getByName on an address literal never queries DNS. */
    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "93.184.216.34,ALLOWED",
            "8.8.8.8,ALLOWED",
            "127.0.0.1,LOOPBACK",
            "127.255.255.254,LOOPBACK",
            "10.0.0.1,PRIVATE",
            "172.16.0.1,PRIVATE",
            "172.31.255.255,PRIVATE",
            "172.32.0.1,ALLOWED",
            "172.15.255.255,ALLOWED",
            "192.168.1.1,PRIVATE",
            "192.169.0.1,ALLOWED",
            "169.254.169.254,LINK_LOCAL",
            "100.64.0.1,SHARED",
            "100.127.255.255,SHARED",
            "100.128.0.1,ALLOWED",
            "100.63.255.255,ALLOWED",
            "224.0.0.1,MULTICAST",
            "239.255.255.250,MULTICAST",
            "0.0.0.0,ANY_LOCAL",
            "0.1.2.3,RESERVED",
            "240.0.0.1,RESERVED",
            "255.255.255.255,RESERVED",
    })
    void shouldClassifyIpv4(String literal, AddressDecision expected) throws UnknownHostException {
        assertThat(AddressPolicy.strict().check(ip(literal))).isEqualTo(expected);
        assertThat(expected.permitted()).isEqualTo(expected == AddressDecision.ALLOWED);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "2606:2800:220:1:248:1893:25c8:1946,ALLOWED",
            "::1,LOOPBACK",
            "::,ANY_LOCAL",
            "fc00::1,PRIVATE",
            "fd12:3456:789a::1,PRIVATE",
            "fec0::1,PRIVATE",
            "fe80::1,LINK_LOCAL",
            "febf::1,LINK_LOCAL",
            "ff02::1,MULTICAST",
            "64:ff9b::7f00:1,LOOPBACK",
            "64:ff9b::808:808,ALLOWED",
            "2002:a00:1::1,PRIVATE",
            "2002:808:808::1,ALLOWED",
            "::a00:1,PRIVATE",
            "::2,RESERVED",
    })
    void shouldClassifyIpv6(String literal, AddressDecision expected) throws UnknownHostException {
        assertThat(AddressPolicy.strict().check(ip(literal))).isEqualTo(expected);
    }

    @Test
    void shouldJudgeMappedIpv6ByItsIpv4Address() throws UnknownHostException {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        mapped[12] = 127;
        mapped[15] = 1;
        InetAddress a = Inet6Address.getByAddress(null, mapped, null);
        assertThat(AddressPolicy.strict().check(a)).isEqualTo(AddressDecision.LOOPBACK);
        assertThat(AddressPolicy.allowing("127.0.0.0/8").check(a)).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(AddressPolicy.strict().check(ip("::ffff:10.1.2.3"))).isEqualTo(AddressDecision.PRIVATE);
    }

    @Test
    void shouldAllowListedRanges() throws UnknownHostException {
        AddressPolicy policy = AddressPolicy.allowing("127.0.0.0/8", "10.1.0.0/16", "fd00::/8", "192.168.5.5");
        assertThat(policy.check(ip("127.3.4.5"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(policy.check(ip("10.1.200.1"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(policy.check(ip("10.2.0.1"))).isEqualTo(AddressDecision.PRIVATE);
        assertThat(policy.check(ip("fd12::1"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(policy.check(ip("fc00::1"))).isEqualTo(AddressDecision.PRIVATE);
        assertThat(policy.check(ip("192.168.5.5"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(policy.check(ip("192.168.5.6"))).isEqualTo(AddressDecision.PRIVATE);
        assertThat(policy.check(ip("::1"))).as("an IPv4 range does not cover IPv6 loopback").isEqualTo(AddressDecision.LOOPBACK);
        assertThat(policy.check(ip("8.8.8.8"))).isEqualTo(AddressDecision.ALLOWED);
        assertThat(AddressDecision.ALLOW_LISTED.permitted()).isTrue();
    }

    @Test
    void shouldMatchPrefixesThatAreNotByteAligned() throws UnknownHostException {
        Cidr c = Cidr.parse("172.16.0.0/12");
        assertThat(c.contains(ip("172.31.255.255"))).isTrue();
        assertThat(c.contains(ip("172.32.0.0"))).isFalse();
        assertThat(Cidr.parse("10.9.8.7/8")).isEqualTo(Cidr.parse("10.0.0.0/8"));
        assertThat(Cidr.parse("0.0.0.0/0").contains(ip("203.0.113.9"))).isTrue();
        assertThat(Cidr.parse("0.0.0.0/0").contains(ip("2001:db8::1"))).isFalse();
        assertThat(Cidr.parse("fe80::/10").contains(ip("febf:ffff::1"))).isTrue();
        assertThat(Cidr.parse("fe80::/10").contains(ip("fec0::1"))).isFalse();
        assertThat(Cidr.parse("::ffff:127.0.0.0/104").contains(ip("127.9.9.9"))).isTrue();
        assertThat(Cidr.parse(" 127.0.0.0/8 ").toString()).isEqualTo("127.0.0.0/8");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost", "example.com/8", "1.2.3/8", "1.2.3.256/8", "1.2.3.4/33", "1.2.3.4/",
            "1.2.3.4/x", "::1/129", "1::2::3", "fe80::1%eth0", "01.2.3.4.5"})
    void shouldRejectMalformedRangesNamingThem(String text) {
        assertThatThrownBy(() -> AddressPolicy.allowing(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allow-addresses")
                .hasMessageContaining("'" + text.trim());
    }

    @Test
    void shouldReadSettings() throws UnknownHostException {
        AddressPolicy policy = AddressPolicy.from(Settings.parse(AddressPolicy.KEYS,
                Map.of("CRAWLER_ALLOW_ADDRESSES", "127.0.0.0/8, ::1")));
        assertThat(policy.allow()).hasSize(2);
        assertThat(policy.check(ip("127.0.0.1"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(policy.check(ip("::1"))).isEqualTo(AddressDecision.ALLOW_LISTED);
        assertThat(AddressPolicy.from(Settings.parse(AddressPolicy.KEYS, Map.of())).allow()).isEmpty();
        assertThat(AddressDecision.LINK_LOCAL.tag()).isEqualTo("link-local");
    }
}
