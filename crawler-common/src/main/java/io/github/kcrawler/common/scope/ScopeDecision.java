package io.github.kcrawler.common.scope;

import java.util.Locale;

/**
 * Why {@link CrawlScope} took or refused a URL. Every refusal has its own reason so the fetcher can count them in
 * {@code crawler.links.rejected} with a {@code reason} tag registered up front from {@link #tag()}. Append new
 * reasons at the end only.
 */
public enum ScopeDecision {
    IN_SCOPE,
    /** Deeper than {@code max-depth} links from a seed. */
    TOO_DEEP,
    /** Longer than {@code max-url-length} characters (a common crawler-trap signature). */
    TOO_LONG,
    /** Not an http or https URL. */
    BAD_SCHEME,
    /** Scope {@code same-host}: the link leaves the source page's host. */
    OFF_HOST,
    /** Scope {@code same-domain}: the link leaves the source page's registered domain. */
    OFF_DOMAIN,
    /** Matched a {@code deny} pattern (deny wins over allow). */
    DENIED_PATTERN,
    /** The {@code allow} list is not empty and no pattern in it matched. */
    NOT_ALLOWED_PATTERN,
    /** A path segment repeats more than {@code max-repeated-segments} times ({@code /a/b/a/b/a/b/...}: a trap). */
    TRAP_REPEATED_SEGMENTS,
    /** More than {@code max-query-params} query parameters (a faceted-search or session-id explosion). */
    TRAP_QUERY_PARAMS;

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    public boolean inScope() {
        return this == IN_SCOPE;
    }

    /** Metric tag value, e.g. {@code off-domain}. */
    public String tag() {
        return tag;
    }
}
