package io.github.kcrawler.fetcher.http;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.github.kcrawler.common.time.CrawlClock;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS with certificate and host-name verification: a loopback HTTPS server with a self-signed certificate for
 * {@code localhost} is accepted only by a client that trusts that certificate, and only under the name
 * {@code localhost}.
 */
class NettyHttpClientTlsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static SelfSignedCertificate cert;
    private static HttpsServer server;
    private static NettyTransport transport;

    @BeforeAll
    static void setUp() throws Exception {
        try {
            cert = new SelfSignedCertificate("localhost");
        } catch (Exception | LinkageError e) {
            assumeTrue(false, "cannot generate a self-signed certificate here: " + e);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] pw = "test".toCharArray();
        ks.setKeyEntry("server", cert.key(), pw, new Certificate[] {cert.cert()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pw);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(LOOPBACK, 0), 10);
        server.setHttpsConfigurator(new HttpsConfigurator(ctx));
        server.createContext("/", ex -> {
            byte[] body = "secure".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        server.start();
        transport = new NettyTransport(1, true);
    }

    @AfterAll
    static void tearDown() {
        if (server != null) {
            server.stop(0);
        }
        if (transport != null) {
            transport.close();
        }
        if (cert != null) {
            cert.delete();
        }
    }

    private HttpFetchResponse fetch(List<X509Certificate> trust, String host) {
        NettyHttpClient client = new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000,
                5_000, 10_000, null, 2, 10, 10_000, trust), CrawlClock.SYSTEM);
        try {
            return client.fetch(new HttpFetch(true, host, server.getAddress().getPort(), LOOPBACK, "/", List.of(),
                    1000)).join();
        } finally {
            client.close();
        }
    }

    @Test
    void trustedCertificateForTheRightNameIsAccepted() {
        HttpFetchResponse r = fetch(List.of(cert.cert()), "localhost");
        assertThat(r.status()).as(String.valueOf(r.error())).isEqualTo(200);
    }

    @Test
    void httpsGoesThroughAProxyTunnelToTheTargetIp() throws Exception {
        try (TestServers.ConnectProxy proxy = new TestServers.ConnectProxy()) {
            NettyHttpClient client = new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000,
                    5_000, 10_000, proxy.address(), 2, 10, 10_000, List.of(cert.cert())), CrawlClock.SYSTEM);
            HttpFetchResponse r = client.fetch(new HttpFetch(true, "localhost", server.getAddress().getPort(),
                    LOOPBACK, "/", List.of(), 1000)).join();
            client.close();
            assertThat(r.status()).as(String.valueOf(r.error())).isEqualTo(200);
            assertThat(proxy.tunnels.get()).isEqualTo(1);
            assertThat(proxy.targets).containsExactly("127.0.0.1:" + server.getAddress().getPort());
        }
    }

    @Test
    void untrustedCertificateIsRefused() {
        HttpFetchResponse r = fetch(List.of(), "localhost");
        assertThat(r.failure()).isEqualTo(HttpFailure.TLS);
        assertThat(r.error()).isNotBlank();
    }

    @Test
    void trustedCertificateForAnotherNameIsRefused() {
        HttpFetchResponse r = fetch(List.of(cert.cert()), "other.example");
        assertThat(r.failure()).isEqualTo(HttpFailure.TLS);
    }

    @Test
    void plainHttpServerOnAnHttpsUrlIsATlsFailure() throws Exception {
        try (TestServers.RawServer plain = new TestServers.RawServer((s, head) ->
                TestServers.write(s, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"), false)) {
            NettyHttpClient client = new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000,
                    2_000, 10_000, null, 2, 10, 10_000, List.of()), CrawlClock.SYSTEM);
            HttpFetchResponse r = client.fetch(new HttpFetch(true, "localhost", plain.port(), LOOPBACK, "/",
                    List.of(), 1000)).join();
            assertThat(r.failure()).isIn(HttpFailure.TLS, HttpFailure.PROTOCOL);
            client.close();
        }
    }

    @Test
    void verificationIsOnByDefaultAndTheInsecureOptOutIsExplicit() {
        // default settings: JDK trust store, host name checked; the self-signed server is refused
        HttpFetchResponse verified = fetch(List.of(), "localhost");
        assertThat(verified.failure()).isEqualTo(HttpFailure.TLS);
        NettyHttpClient insecure = new NettyHttpClient(transport, new HttpClientSettings("kcrawler-test/1.0", 2_000,
                5_000, 10_000, null, 2, 10, 10_000, List.of(), 10_000, true), CrawlClock.SYSTEM);
        try {
            HttpFetchResponse r = insecure.fetch(new HttpFetch(true, "wrong-name.test", server.getAddress().getPort(),
                    LOOPBACK, "/", List.of(), 1000)).join();
            assertThat(r.status()).as(String.valueOf(r.error())).isEqualTo(200);
        } finally {
            insecure.close();
        }
    }
}
