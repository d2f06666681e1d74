package io.github.kcrawler.fetcher.http;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Settings of {@link NettyHttpClient}, checked by the fetcher's config record before they get here.
 *
 * @param proxy               resolved HTTP proxy for all requests (https: CONNECT tunnel; http: absolute form), or null
 * @param maxIdlePerRoute     idle keep-alive connections kept per (scheme, IP, port[, TLS host])
 * @param maxIdleTotal        idle keep-alive connections kept in all
 * @param keepAliveMillis     an idle connection is closed after this long
 * @param trustedCertificates trust only these (tests); null or empty: the JDK's default trust store
 * @param firstByteTimeoutMillis request written → response head received, at most this long
 * @param insecureTls         true turns certificate and host-name verification off (logged loudly); default false
 * @param resendDelayMillis   a request written on a kept-alive connection that then died before the response head
 *                            may have reached the server: it is sent again on a fresh connection no sooner than this
 *                            (the fetcher passes T, so even a server that read it sees two requests T apart); a
 *                            request that was never written is sent again at once
 */
public record HttpClientSettings(String userAgent, int connectTimeoutMillis, int readTimeoutMillis,
                                 int totalTimeoutMillis, InetSocketAddress proxy, int maxIdlePerRoute,
                                 int maxIdleTotal, long keepAliveMillis, List<X509Certificate> trustedCertificates,
                                 int firstByteTimeoutMillis, boolean insecureTls, long resendDelayMillis) {
    /** A request that may have reached the server is sent again at once. */
    public HttpClientSettings(String userAgent, int connectTimeoutMillis, int readTimeoutMillis,
                              int totalTimeoutMillis, InetSocketAddress proxy, int maxIdlePerRoute, int maxIdleTotal,
                              long keepAliveMillis, List<X509Certificate> trustedCertificates,
                              int firstByteTimeoutMillis, boolean insecureTls) {
        this(userAgent, connectTimeoutMillis, readTimeoutMillis, totalTimeoutMillis, proxy, maxIdlePerRoute,
                maxIdleTotal, keepAliveMillis, trustedCertificates, firstByteTimeoutMillis, insecureTls, 0);
    }

    /** First-byte timeout equal to the total timeout, TLS verified. */
    public HttpClientSettings(String userAgent, int connectTimeoutMillis, int readTimeoutMillis,
                              int totalTimeoutMillis, InetSocketAddress proxy, int maxIdlePerRoute, int maxIdleTotal,
                              long keepAliveMillis, List<X509Certificate> trustedCertificates) {
        this(userAgent, connectTimeoutMillis, readTimeoutMillis, totalTimeoutMillis, proxy, maxIdlePerRoute,
                maxIdleTotal, keepAliveMillis, trustedCertificates, totalTimeoutMillis, false);
    }

    public HttpClientSettings {
        if (firstByteTimeoutMillis < 1) {
            throw new IllegalArgumentException("first-byte timeout must be >= 1 ms, was " + firstByteTimeoutMillis);
        }
        if (userAgent == null || userAgent.isBlank()) {
            throw new IllegalArgumentException("user agent must not be empty");
        }
        if (connectTimeoutMillis < 1 || readTimeoutMillis < 1 || totalTimeoutMillis < 1) {
            throw new IllegalArgumentException("timeouts must be >= 1 ms, were connect=" + connectTimeoutMillis
                    + " read=" + readTimeoutMillis + " total=" + totalTimeoutMillis);
        }
        if (maxIdlePerRoute < 0 || maxIdleTotal < 0 || keepAliveMillis < 0) {
            throw new IllegalArgumentException("pool limits must be >= 0, were perRoute=" + maxIdlePerRoute
                    + " total=" + maxIdleTotal + " keepAlive=" + keepAliveMillis);
        }
        if (resendDelayMillis < 0) {
            throw new IllegalArgumentException("resend delay must be >= 0 ms, was " + resendDelayMillis);
        }
        trustedCertificates = trustedCertificates == null ? List.of() : List.copyOf(trustedCertificates);
    }
}
