package io.github.kcrawler.fetcher;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.scope.AddressPolicy;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.github.kcrawler.fetcher.HostileServer.html;
import static io.github.kcrawler.fetcher.HostileServer.status;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9, security: address policy on the connected address, DNS rebinding, secrets kept out of logs and topics. */
class SecurityTest {

    @Test
    void metadataPrivateLoopbackLinkLocalAndUniqueLocalAreRefusedByDefault() throws Exception {
        AddressPolicy strict = FetcherConfig.defaults(Map.of()).addressPolicy();
        for (String a : List.of("169.254.169.254", "fd00:ec2::254", "127.0.0.1", "::1", "10.1.2.3", "172.16.0.1",
                "192.168.1.1", "fe80::1", "fc00::1", "100.64.0.1", "0.0.0.0", "::ffff:169.254.169.254")) {
            assertThat(strict.check(InetAddress.getByName(a)).permitted()).as(a).isFalse();
        }
        assertThat(strict.check(InetAddress.getByName("93.184.215.14")).permitted()).isTrue();
    }

    @Test
    void aStrictFetcherNeverConnectsToLoopback() throws IOException {
        try (HostileServer server = new HostileServer("127.0.0.1");
             PipelineHarness h = new PipelineHarness(Map.of("allow-addresses", ""))) {
            server.on("/admin", html("root"));
            FetchResult r = h.fetch("127.0.0.1", "http://127.0.0.1:" + server.port() + "/admin",
                    Duration.ofSeconds(10));
            assertThat(r.outcome()).isEqualTo(FetchOutcome.OUT_OF_SCOPE);
            assertThat(r.error()).contains("loopback");
            assertThat(server.hits).isEmpty();
        }
    }

    /**
     * DNS rebinding: the name answers an allowed address first and an internal one on the next lookup. The
     * fetcher must resolve once, police that address and connect to exactly it (robots.txt included); a later
     * lookup that rebinds is policed again and refused. 127.0.0.2 plays the public host, 127.0.0.1 the internal.
     */
    @Test
    void dnsRebindingCannotRedirectAFetchToAnInternalAddress() throws IOException {
        HostileServer outside = null;
        HostileServer inside = null;
        for (int attempt = 0; attempt < 5 && inside == null; attempt++) {
            outside = new HostileServer("127.0.0.2");
            try {
                inside = new HostileServer("127.0.0.1", outside.port());
            } catch (BindException e) {
                outside.close();
            }
        }
        assertThat(inside).as("two loopback servers on one port").isNotNull();
        InetAddress publicIp = InetAddress.getByName("127.0.0.2");
        InetAddress internalIp = InetAddress.getByName("127.0.0.1");
        try (HostileServer out = outside; HostileServer in = inside;
             PipelineHarness h = new PipelineHarness(Map.of("allow-addresses", "127.0.0.2/32"),
                     Map.of("rebind.test", List.of(publicIp, internalIp)))) {
            out.on("/page", html("public"));
            in.on("/page", html("internal secret"));
            String url = "http://rebind.test:" + out.port() + "/page";
            FetchResult first = h.fetch(null, url, Duration.ofSeconds(10));
            assertThat(first.outcome()).isEqualTo(FetchOutcome.OK);
            assertThat(h.lookups.get("rebind.test")).isEqualTo(1);
            assertThat(out.hits).extracting(HostileServer.Hit::path).containsExactly("/robots.txt", "/page");

            FetchResult second = h.fetch(null, url, Duration.ofSeconds(10)); // the name now answers 127.0.0.1
            assertThat(second.outcome()).isEqualTo(FetchOutcome.OUT_OF_SCOPE);
            assertThat(in.hits).as("nothing ever reached the internal address").isEmpty();
        }
    }

    @Test
    void cookiesAndCredentialsNeverReachLogsOrTopics() throws IOException {
        Logger root = (Logger) LoggerFactory.getLogger("io.github.kcrawler");
        Level before = root.getLevel();
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        root.addAppender(logs);
        root.setLevel(Level.DEBUG);
        try (HostileServer server = new HostileServer("127.0.0.1"); PipelineHarness h = new PipelineHarness(Map.of())) {
            String base = "http://127.0.0.1:" + server.port();
            server.on("/login", html("<a href=\"http://user:PASSWORD_SECRET@127.0.0.1:" + server.port()
                    + "/next\">next</a>", "Set-Cookie: sid=COOKIE_SECRET; Path=/",
                    "WWW-Authenticate: Basic realm=\"x\""));
            server.on("/moved", status(302, "Location: http://admin:REDIRECT_SECRET@127.0.0.1:" + server.port()
                    + "/login", "Set-Cookie: sid=COOKIE_SECRET"));
            server.on("/next", html("next"));
            FetchResult login = h.fetch(base + "/login");
            FetchResult moved = h.fetch(base + "/moved");
            h.fetch(base + "/next");
            assertThat(login.outcome()).isEqualTo(FetchOutcome.OK);
            assertThat(moved.outcome()).isEqualTo(FetchOutcome.REDIRECT);

            StringBuilder topics = new StringBuilder();
            for (FetchResult r : h.results) {
                topics.append(json(FetchResult.class, r));
            }
            for (DiscoveredUrls d : h.discoveredRecords) {
                topics.append(json(DiscoveredUrls.class, d));
            }
            for (LinkList l : h.links) {
                topics.append(json(LinkList.class, l));
            }
            assertThat(topics.toString()).contains("/next").doesNotContain("COOKIE_SECRET", "PASSWORD_SECRET",
                    "REDIRECT_SECRET", "sid=");
            StringBuilder logged = new StringBuilder();
            for (ILoggingEvent e : logs.list) {
                logged.append(e.getFormattedMessage()).append('\n');
            }
            assertThat(logged.toString()).doesNotContain("COOKIE_SECRET", "PASSWORD_SECRET", "REDIRECT_SECRET");
            for (HostileServer.Hit hit : server.hits) { // nothing stored is ever sent back either
                String head = hit.head().toLowerCase(java.util.Locale.ROOT);
                assertThat(head).doesNotContain("cookie:", "authorization:");
            }
        } finally {
            root.detachAppender(logs);
            root.setLevel(before);
        }
    }

    private static <T> String json(Class<T> type, T value) {
        return new String(JsonSerde.of(type).serializer().serialize("t", value), StandardCharsets.UTF_8);
    }
}
