package io.github.kcrawler.fetcher.http;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * One GET to send: where (scheme, host for the Host header and SNI, port, the IP to connect to), what (the
 * request target: path and query) and the extra headers (conditional-GET validators). The caller has already
 * resolved the host and passed the politeness guard.
 *
 * @param readPrefix when the declared Content-Length exceeds {@code maxBodyBytes}, still read the first
 *                   {@code maxBodyBytes} (robots.txt: RFC 9309 parses at least the first 500 KiB) instead of
 *                   giving up at the head (pages: a prefix is not the page)
 */
public record HttpFetch(boolean https, String host, int port, InetAddress address, String requestTarget,
                        List<Map.Entry<String, String>> extraHeaders, int maxBodyBytes, boolean readPrefix) {
    public HttpFetch(boolean https, String host, int port, InetAddress address, String requestTarget,
                     List<Map.Entry<String, String>> extraHeaders, int maxBodyBytes) {
        this(https, host, port, address, requestTarget, extraHeaders, maxBodyBytes, false);
    }

    public HttpFetch {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535, was " + port);
        }
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 0, was " + maxBodyBytes);
        }
        extraHeaders = extraHeaders == null ? List.of() : extraHeaders;
    }

    /** The Host header value: the host, with the port when it is not the scheme's default. */
    public String hostHeader() {
        boolean defaultPort = https ? port == 443 : port == 80;
        return defaultPort ? host : host + ":" + port;
    }
}
