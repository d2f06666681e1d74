package io.github.kcrawler.common.model;

/**
 * How a fetch ended, as a reason code that metrics and operators can count. Serialised by name; never rename.
 */
public enum FetchOutcome {
    /** 2xx with a body that was stored. */
    OK,
    /** 304 on a conditional GET. */
    NOT_MODIFIED,
    /** 3xx: the target was handed back as a discovered URL. */
    REDIRECT,
    /** 4xx / 5xx from the server. */
    HTTP_ERROR,
    /** robots.txt forbids the URL. */
    ROBOTS_DENIED,
    /** The host name did not resolve. */
    DNS_FAILURE,
    /** TCP connect failed or was refused. */
    CONNECT_FAILURE,
    /** connect, read or total timeout. */
    TIMEOUT,
    /** The body exceeded the maximum size; truncated. */
    TOO_LARGE,
    /** Response was not parsable HTTP, TLS failed, or another protocol error. */
    PROTOCOL_ERROR,
    /** The URL is outside the crawl's scope or refused by the address policy (private, loopback, link-local). */
    OUT_OF_SCOPE,
    /** The URL could not be parsed. */
    MALFORMED_URL,
    /** The crawl's page budget is used up; the URL was not fetched. */
    BUDGET_EXHAUSTED,
    /** 429, or 503 (with or without Retry-After): the server asked us to slow down; the host's back-off grew. */
    THROTTLED,
    /** 3xx whose target would make the redirect chain longer than {@code max-redirects}; target not followed. */
    REDIRECT_LIMIT,
    /** 3xx whose target is already in its own redirect chain; target not followed. */
    REDIRECT_LOOP,
    /** This host used up {@code max-pages-per-host}; the URL was not fetched. */
    HOST_BUDGET_EXHAUSTED,
    /** The connection was reset or closed before the response was complete (a half-written response). */
    CONNECTION_RESET,
    /** A compressed body inflated beyond {@code max-body-bytes} (a compression bomb); decoding stopped at the cap. */
    INFLATED_TOO_LARGE
}
