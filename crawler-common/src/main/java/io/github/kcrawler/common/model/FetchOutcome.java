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
    BUDGET_EXHAUSTED
}
