package io.github.kcrawler.fetcher.dns;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** IP literals are recognised without DNS; names and near-literals are not mistaken for addresses. */
class IpLiteralsTest {
    @Test
    void parsesDottedQuads() throws Exception {
        assertThat(IpLiterals.parse("127.1.0.7")).isEqualTo(InetAddress.getByName("127.1.0.7"));
        assertThat(IpLiterals.parse("0.0.0.0")).isNotNull();
        assertThat(IpLiterals.parse("255.255.255.255")).isNotNull();
    }

    @Test
    void parsesIpv6WithOrWithoutBrackets() throws Exception {
        assertThat(IpLiterals.parse("[::1]")).isEqualTo(InetAddress.getByName("::1"));
        assertThat(IpLiterals.parse("2001:db8::1")).isEqualTo(InetAddress.getByName("2001:db8::1"));
    }

    @Test
    void namesAndMalformedLiteralsAreNotLiterals() {
        for (String s : new String[] {"example.com", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "", "[::1",
                "fe:::::1:zz", "1.2.3.4 ", "localhost", "[]", null}) {
            assertThat(IpLiterals.parse(s)).as(String.valueOf(s)).isNull();
        }
    }
}
