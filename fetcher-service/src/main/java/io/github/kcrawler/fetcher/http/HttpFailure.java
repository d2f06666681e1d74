package io.github.kcrawler.fetcher.http;

/** Why an HTTP exchange did not end with a complete response. */
public enum HttpFailure {
    /** TCP connect refused, unreachable, or the proxy refused the tunnel. */
    CONNECT,
    /** Connect, read (idle) or total timeout. */
    TIMEOUT,
    /** TLS handshake or certificate/hostname verification failed. */
    TLS,
    /** Not parsable HTTP. */
    PROTOCOL,
    /** The body exceeded the cap; status and headers are known, the body is cut at the cap. */
    TOO_LARGE,
    /** The client was shutting down. */
    CLOSED,
    /** The connection was reset or closed before the response was complete (nothing, or a half-written one). */
    RESET,
    /** A compressed body inflated beyond the cap (a compression bomb); decoding stopped there. */
    INFLATED_TOO_LARGE
}
