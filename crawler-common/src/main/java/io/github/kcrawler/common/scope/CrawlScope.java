package io.github.kcrawler.common.scope;

import crawlercommons.domains.EffectiveTldFinder;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.url.UrlNormalizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which URLs the crawl may follow: the fetcher asks for every outlink, the app for every seed. A crawl without
 * bounds wanders into calendars, session-id loops and the rest of the web; these are the operator's bounds.
 *
 * <p>Checks, cheapest first, first failure wins: http(s) only, length at most {@code max-url-length}, depth at most
 * {@code max-depth}, then the scope {@link Mode} relative to the page the link was found on ({@code SAME_DOMAIN}
 * compares registered domains from the public suffix list, so {@code a.github.io} and {@code b.github.io} are
 * different sites), then {@code deny} patterns, then {@code allow} patterns (when any are given, a URL must match
 * one). Patterns are Java regular expressions searched anywhere in the normalised URL ({@code find}); anchor them
 * with {@code ^}/{@code $} for a full match. In settings they are comma-separated, so a pattern cannot itself
 * contain a comma.
 *
 * <p>The URL is expected normalised ({@link UrlNormalizer}). An in-scope answer allocates nothing beyond the
 * matchers the patterns need (and, for {@code SAME_DOMAIN} links that change host, the public-suffix lookup).
 */
public record CrawlScope(int maxDepth, int maxUrlLength, Mode mode, List<Pattern> allow, List<Pattern> deny) {
    public static final int DEFAULT_MAX_DEPTH = 20;
    public static final int DEFAULT_MAX_URL_LENGTH = 2048;
    public static final Mode DEFAULT_MODE = Mode.ANY;
    /** Shortest sensible limit ({@code http://a.b/} is 11 characters). */
    public static final int MIN_URL_LENGTH = 16;
    public static final int MAX_URL_LENGTH = 65_536;

    /** The keys {@link #from(Settings)} reads. */
    public static final Set<String> KEYS = Set.of("max-depth", "max-url-length", "scope", "allow", "deny");

    /** How far from the source page a link may go. */
    public enum Mode {
        /** Anywhere on the web. */
        ANY,
        /** Only the source page's host ({@code www.example.com} and {@code example.com} differ). */
        SAME_HOST,
        /** Only the source page's registered domain ({@code *.example.co.uk}). */
        SAME_DOMAIN;

        /** Parses {@code any}, {@code same-host}, {@code same-domain} (case-insensitive, {@code _} accepted). */
        public static Mode parse(String value) {
            String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (Mode m : values()) {
                if (m.name().equals(v)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("scope must be one of any, same-host, same-domain, was '" + value + "'");
        }
    }

    public CrawlScope {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("max-depth must be >= 0, was " + maxDepth);
        }
        if (maxUrlLength < MIN_URL_LENGTH || maxUrlLength > MAX_URL_LENGTH) {
            throw new IllegalArgumentException("max-url-length must be in " + MIN_URL_LENGTH + ".." + MAX_URL_LENGTH
                    + ", was " + maxUrlLength);
        }
        Objects.requireNonNull(mode, "scope mode");
        allow = List.copyOf(allow == null ? List.of() : allow);
        deny = List.copyOf(deny == null ? List.of() : deny);
    }

    /** Any host, default depth and length, no patterns. */
    public static CrawlScope defaults() {
        return new CrawlScope(DEFAULT_MAX_DEPTH, DEFAULT_MAX_URL_LENGTH, DEFAULT_MODE, List.of(), List.of());
    }

    /** Builds a scope from regex sources; an invalid regex is refused with its text and the key it came from. */
    public static CrawlScope of(int maxDepth, int maxUrlLength, Mode mode, List<String> allow, List<String> deny) {
        return new CrawlScope(maxDepth, maxUrlLength, mode, compile("allow", allow), compile("deny", deny));
    }

    public static CrawlScope from(Settings s) {
        return of(s.integer("max-depth", DEFAULT_MAX_DEPTH), s.integer("max-url-length", DEFAULT_MAX_URL_LENGTH),
                Mode.parse(s.string("scope", DEFAULT_MODE.name())), s.list("allow", List.of()),
                s.list("deny", List.of()));
    }

    /** For seeds: every check except the mode, which needs a source page. */
    public ScopeDecision checkSeed(String url) {
        return check(url, 0, null);
    }

    /**
     * @param url       the normalised URL to follow
     * @param depth     its depth (links from a seed: 1)
     * @param sourceUrl the normalised URL of the page it was found on; null for seeds (the mode is not checked)
     */
    public ScopeDecision check(String url, int depth, String sourceUrl) {
        if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            return ScopeDecision.BAD_SCHEME;
        }
        if (url.length() > maxUrlLength) {
            return ScopeDecision.TOO_LONG;
        }
        if (depth > maxDepth) {
            return ScopeDecision.TOO_DEEP;
        }
        if (sourceUrl != null && mode != Mode.ANY && !UrlNormalizer.sameHost(url, sourceUrl)) {
            if (mode == Mode.SAME_HOST) {
                return ScopeDecision.OFF_HOST;
            }
            String a = UrlNormalizer.host(url);
            String b = UrlNormalizer.host(sourceUrl);
            if (a == null || b == null || !registeredDomain(a).equals(registeredDomain(b))) {
                return ScopeDecision.OFF_DOMAIN;
            }
        }
        for (int i = 0; i < deny.size(); i++) {
            if (deny.get(i).matcher(url).find()) {
                return ScopeDecision.DENIED_PATTERN;
            }
        }
        if (!allow.isEmpty()) {
            for (int i = 0; i < allow.size(); i++) {
                if (allow.get(i).matcher(url).find()) {
                    return ScopeDecision.IN_SCOPE;
                }
            }
            return ScopeDecision.NOT_ALLOWED_PATTERN;
        }
        return ScopeDecision.IN_SCOPE;
    }

    /**
     * The registered domain of a normalised host: the public suffix plus one label ({@code www.bbc.co.uk} to
     * {@code bbc.co.uk}); a host under no known suffix ({@code host1.websim}, {@code localhost}) falls back to its
     * last two labels; an IP address is its own domain. A trailing dot is ignored.
     */
    public static String registeredDomain(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (h.isEmpty() || h.charAt(0) == '[' || isDigitsAndDots(h)) {
            return h; // IPv6 literal or IPv4 address
        }
        String d;
        try {
            d = EffectiveTldFinder.getAssignedDomain(h, true, false);
        } catch (RuntimeException e) {
            d = null; // unusual label shapes: fall back below rather than fail the link
        }
        if (d != null) {
            return d;
        }
        int last = h.lastIndexOf('.');
        int secondLast = last <= 0 ? -1 : h.lastIndexOf('.', last - 1);
        return secondLast < 0 ? h : h.substring(secondLast + 1);
    }

    private static boolean isDigitsAndDots(String h) {
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    private static List<Pattern> compile(String key, List<String> sources) {
        List<Pattern> out = new ArrayList<>();
        for (String src : sources == null ? List.<String>of() : sources) {
            try {
                out.add(Pattern.compile(src));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(key + " pattern is not a valid regular expression, was '" + src
                        + "': " + e.getDescription());
            }
        }
        return out;
    }
}
