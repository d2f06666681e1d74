package io.github.kcrawler.common.scope;

import crawlercommons.domains.EffectiveTldFinder;
import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
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
 * {@code max-depth}, the trap shapes of {@link #checkTraps} ({@code max-repeated-segments},
 * {@code max-query-params}), then the scope {@link Mode} relative to the page the link was found on ({@code SAME_DOMAIN}
 * compares registered domains from the public suffix list, so {@code a.github.io} and {@code b.github.io} are
 * different sites), then {@code deny} patterns, then {@code allow} patterns (when any are given, a URL must match
 * one). Patterns are Java regular expressions searched anywhere in the normalised URL ({@code find}); anchor them
 * with {@code ^}/{@code $} for a full match. In settings they are comma-separated, so a pattern cannot itself
 * contain a comma.
 *
 * <p>The URL is expected normalised ({@link UrlNormalizer}). An in-scope answer allocates nothing beyond the
 * matchers the patterns need (and, for {@code SAME_DOMAIN} links that change host, the public-suffix lookup).
 */
public record CrawlScope(int maxDepth, int maxUrlLength, Mode mode, List<Pattern> allow, List<Pattern> deny,
                         int maxRepeatedSegments, int maxQueryParams) {
    public static final int DEFAULT_MAX_DEPTH = 20;
    /** A path segment may occur this many times in one path ({@code /a/b/a/b/a/b} has each twice... thrice). */
    public static final int DEFAULT_MAX_REPEATED_SEGMENTS = 3;
    /** Query parameters in one URL. */
    public static final int DEFAULT_MAX_QUERY_PARAMS = 32;
    public static final int DEFAULT_MAX_URL_LENGTH = 2048;
    public static final Mode DEFAULT_MODE = Mode.ANY;
    /** Shortest sensible limit ({@code http://a.b/} is 11 characters). */
    public static final int MIN_URL_LENGTH = 16;
    public static final int MAX_URL_LENGTH = 65_536;

    public static final Setting<Integer> MAX_DEPTH = Setting.integer("max-depth", DEFAULT_MAX_DEPTH, Check.atLeast(0),
            "links followed from a seed at most this deep (a seed is depth 0)");
    public static final Setting<Integer> URL_LENGTH_LIMIT = Setting.integer("max-url-length", DEFAULT_MAX_URL_LENGTH,
            Check.range(MIN_URL_LENGTH, MAX_URL_LENGTH), "longer URLs are not followed (and longer redirect targets dropped)");
    public static final Setting<Mode> SCOPE = Setting.choice("scope", DEFAULT_MODE,
            m -> m.name().toLowerCase(Locale.ROOT).replace('_', '-'), Mode::parse,
            "how far from its page a link may go: anywhere, the same host or the same registered domain",
            Mode.values());
    public static final Setting<List<String>> ALLOW = Setting.list("allow",
            "regular expressions; when any are given a followed URL must match one (docs/SCOPE.md)");
    public static final Setting<List<String>> DENY = Setting.list("deny",
            "regular expressions; a URL matching one is not followed (docs/SCOPE.md)");
    public static final Setting<Integer> MAX_REPEATED_SEGMENTS = Setting.integer("max-repeated-segments",
            DEFAULT_MAX_REPEATED_SEGMENTS, Check.atLeast(1), "a path segment may occur this often in one URL (traps)");
    public static final Setting<Integer> MAX_QUERY_PARAMS = Setting.integer("max-query-params",
            DEFAULT_MAX_QUERY_PARAMS, Check.atLeast(0), "query parameters allowed in one URL (traps)");
    /** The settings {@link #from(Settings)} reads, declared once here. */
    public static final SettingSet SETTINGS = SettingSet.of(MAX_DEPTH, URL_LENGTH_LIMIT, MAX_REPEATED_SEGMENTS,
            MAX_QUERY_PARAMS, SCOPE, ALLOW, DENY);
    /** The keys {@link #from(Settings)} reads. */
    public static final Set<String> KEYS = SETTINGS.keys();

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
        MAX_DEPTH.check(maxDepth);
        URL_LENGTH_LIMIT.check(maxUrlLength);
        Objects.requireNonNull(mode, "scope mode");
        MAX_REPEATED_SEGMENTS.check(maxRepeatedSegments);
        MAX_QUERY_PARAMS.check(maxQueryParams);
        allow = List.copyOf(allow == null ? List.of() : allow);
        deny = List.copyOf(deny == null ? List.of() : deny);
    }

    /** The trap limits at their defaults. */
    public CrawlScope(int maxDepth, int maxUrlLength, Mode mode, List<Pattern> allow, List<Pattern> deny) {
        this(maxDepth, maxUrlLength, mode, allow, deny, DEFAULT_MAX_REPEATED_SEGMENTS, DEFAULT_MAX_QUERY_PARAMS);
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
        return new CrawlScope(s.get(MAX_DEPTH), s.get(URL_LENGTH_LIMIT), s.get(SCOPE), compile("allow", s.get(ALLOW)),
                compile("deny", s.get(DENY)), s.get(MAX_REPEATED_SEGMENTS), s.get(MAX_QUERY_PARAMS));
    }

    /**
     * Crawler-trap shapes that no depth or length limit catches early: a path segment repeated more than
     * {@code maxRepeatedSegments} times (relative links that append to themselves, {@code /a/b/a/b/a/b/}) and more
     * than {@code maxQueryParams} query parameters. Linear in the URL's length; allocates only for the segments.
     * Returns IN_SCOPE when the URL shows neither.
     */
    public ScopeDecision checkTraps(String url) {
        int start = url.indexOf("://");
        int pathStart = start < 0 ? -1 : url.indexOf('/', start + 3);
        if (pathStart < 0) {
            return ScopeDecision.IN_SCOPE;
        }
        int query = url.indexOf('?', pathStart);
        int pathEnd = query < 0 ? url.length() : query;
        if (query >= 0) {
            int params = 1;
            for (int i = query + 1; i < url.length(); i++) {
                char c = url.charAt(i);
                if (c == '&' || c == ';') {
                    params++;
                    if (params > maxQueryParams) {
                        return ScopeDecision.TRAP_QUERY_PARAMS;
                    }
                }
            }
            if (params > maxQueryParams) {
                return ScopeDecision.TRAP_QUERY_PARAMS;
            }
        }
        java.util.HashMap<String, Integer> seen = null;
        int segStart = pathStart + 1;
        for (int i = segStart; i <= pathEnd; i++) {
            if (i == pathEnd || url.charAt(i) == '/') {
                if (i > segStart) {
                    if (seen == null) {
                        seen = new java.util.HashMap<>();
                    }
                    if (seen.merge(url.substring(segStart, i), 1, Integer::sum) > maxRepeatedSegments) {
                        return ScopeDecision.TRAP_REPEATED_SEGMENTS;
                    }
                }
                segStart = i + 1;
            }
        }
        return ScopeDecision.IN_SCOPE;
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
        ScopeDecision trap = checkTraps(url);
        if (!trap.inScope()) {
            return trap;
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
