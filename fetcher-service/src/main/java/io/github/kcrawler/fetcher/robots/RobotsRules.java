package io.github.kcrawler.fetcher.robots;

import crawlercommons.robots.BaseRobotRules;
import io.github.kcrawler.common.model.FetchOutcome;

/**
 * The robots.txt verdict for one site (scheme, host, port), wrapping crawler-commons' rules with what the fetcher
 * needs besides allow/deny: the Crawl-delay (already clamped), when the verdict expires, and — when robots.txt
 * could not be read (5xx, 429, network failure) — that visits are deferred and why. A deferred site is denied
 * everything until the entry expires and robots.txt is fetched again: the crawler never fails open.
 */
public final class RobotsRules {
    private final BaseRobotRules rules;
    private final long crawlDelayMillis;
    private final long expiresAt;
    private final boolean deferred;
    private final FetchOutcome networkFailure;
    private final String reason;
    /**
     * No verdict: robots.txt was not fetched because the request that asked for it left this instance (its
     * partition moved) before the fetch was sent. Never cached; a waiting request still owned here asks again.
     */
    public static final RobotsRules NOT_FETCHED = new RobotsRules(null, 0, 0, true, null,
            "robots.txt not fetched: the partition of the request that asked for it moved");

    /** The Sitemap lines were handed out once (the first request that saw this verdict reads the sitemaps). */
    private boolean sitemapsClaimed;

    RobotsRules(BaseRobotRules rules, long crawlDelayMillis, long expiresAt, boolean deferred,
                FetchOutcome networkFailure, String reason) {
        this.rules = rules;
        this.crawlDelayMillis = crawlDelayMillis;
        this.expiresAt = expiresAt;
        this.deferred = deferred;
        this.networkFailure = networkFailure;
        this.reason = reason;
    }

    /** True if the rules let our agent fetch this absolute URL (false for every URL of a deferred site). */
    public boolean isAllowed(String url) {
        if (deferred) {
            return false;
        }
        try {
            return rules.isAllowed(url);
        } catch (RuntimeException e) {
            return false; // a URL the rules cannot even read is not provably allowed
        }
    }

    /** crawler-commons' rules behind the verdict (shared between sites with equal rules). */
    BaseRobotRules rules() {
        return rules;
    }

    /** The site's Crawl-delay in milliseconds, clamped to the configured maximum; 0 when it sets none. */
    public long crawlDelayMillis() {
        return crawlDelayMillis;
    }

    public long expiresAt() {
        return expiresAt;
    }

    /** True for {@link #NOT_FETCHED}: no verdict for the site (deferred() is also true: nothing is allowed). */
    public boolean notFetched() {
        return this == NOT_FETCHED;
    }

    /** True when robots.txt was unavailable (5xx, 429 or no response) and visits wait until it can be read. */
    public boolean deferred() {
        return deferred;
    }

    /** For a deferred site that gave no HTTP response: what went wrong on the network; otherwise null. */
    public FetchOutcome networkFailure() {
        return networkFailure;
    }

    /** Human-readable source of the verdict ("robots.txt 200", "robots.txt 503", ...). */
    public String reason() {
        return reason;
    }

    /**
     * The {@code Sitemap:} URLs of the robots.txt behind this verdict, the first time this is called for it; empty
     * afterwards, and for a deferred or allow-all verdict. A site's sitemaps are thus read once per robots.txt read
     * (every {@code robots-ttl-ms}), by whichever request first meets the new verdict.
     */
    public synchronized java.util.List<String> claimSitemaps() {
        if (sitemapsClaimed || deferred) {
            return java.util.List.of();
        }
        sitemapsClaimed = true;
        try {
            java.util.List<String> s = rules.getSitemaps();
            return s == null ? java.util.List.of() : s;
        } catch (RuntimeException e) {
            return java.util.List.of();
        }
    }

    @Override
    public String toString() {
        return "RobotsRules[" + reason + ", crawlDelay=" + crawlDelayMillis + "ms, deferred=" + deferred + "]";
    }
}
