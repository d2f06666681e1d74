package io.github.kcrawler.fetcher.http;

import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Netty's resolver answers hosts-file names itself, so the simulated web never reaches a real DNS server. */
class NettyDnsLookupTest {
    @Test
    void hostsFileNamesResolveWithoutDns() throws Exception {
        HostsFile hosts = HostsFile.parse(List.of("127.1.0.1 host0.websim", "127.1.3.4 host9.websim"));
        try (NettyTransport transport = new NettyTransport(1, true);
             NettyDnsLookup lookup = new NettyDnsLookup(transport, hosts, 0, 60, 10, 500)) {
            assertThat(lookup.lookup("host9.websim").get(5, TimeUnit.SECONDS))
                    .isEqualTo(InetAddress.getByName("127.1.3.4"));
            assertThat(lookup.lookup("localhost").get(5, TimeUnit.SECONDS).isLoopbackAddress()).isTrue();
            HostResolver resolver = new HostResolver(lookup, HostsFile.empty(), 4, new SimpleMeterRegistry());
            assertThat(resolver.resolve("host0.websim").get(5, TimeUnit.SECONDS).ip()).isEqualTo("127.1.0.1");
        }
    }
}
