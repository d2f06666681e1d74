package io.github.kcrawler.common.url;

import java.util.Optional;

/**
 * Turns every href the crawler sees into one canonical absolute http(s) URL, or into nothing. It runs for every
 * outlink of every page, and its output is what dedup fingerprints, what the scope filter reads and what decides a
 * URL's host key, so two spellings of one resource must meet in one string and no input may crash a service.
 *
 * <p>Parsing follows the WHATWG URL Standard for special schemes (what browsers do, so links resolve as their
 * authors saw them work): leading/trailing C0 controls and spaces trimmed, tabs and newlines removed, {@code \} read
 * as {@code /}, relative references resolved against the base (scheme-relative {@code //host}, {@code /path},
 * {@code ?q}, {@code #f}, {@code ../x}, and {@code http:x} against an http base), scheme and host lower-cased, IDNs
 * to punycode, legacy IPv4 forms to dotted quads, IPv6 compressed, default ports (80, 443) dropped, dot segments
 * removed, an empty path made {@code /}, characters outside the standard's encode sets escaped as UTF-8, query kept
 * in order. On top of the standard, for crawling: the fragment is dropped, user-info ({@code user:pass@}) is
 * dropped (a crawler never sends credentials found in links), and escapes are canonical (upper-case hex, unreserved
 * characters decoded, see {@link PercentCodec}).
 *
 * <p>Refused (empty result): schemes other than http and https, a missing or invalid host, a port past 65535,
 * input longer than {@link #MAX_INPUT_LENGTH} characters, and a result longer than {@link #MAX_OUTPUT_LENGTH}
 * (percent-encoding can make 8 KiB of input nine times longer, and a relative reference adds its base's length).
 * So every URL this class returns is at most 8 KiB of ASCII and is itself acceptable input. Every method is total: it returns an answer for any
 * string, null included, and never throws. The parser is a single forward scan without regular expressions;
 * output is idempotent ({@code normalize(normalize(x)) == normalize(x)}).
 */
public final class UrlNormalizer {
    /** Longer input is refused before it is scanned (8 KiB; real links are far shorter, crawler traps are not). */
    public static final int MAX_INPUT_LENGTH = 8 * 1024;
    /**
     * Longer results are refused (issue 20: a bound on every URL before it enters a record or a store); equal to
     * {@link #MAX_INPUT_LENGTH}, so that {@code normalize(normalize(x)) == normalize(x)} holds for every result.
     */
    public static final int MAX_OUTPUT_LENGTH = MAX_INPUT_LENGTH;

    private UrlNormalizer() {
    }

    /** Resolves {@code href} against {@code base} (may be null for absolute input) and normalises; empty if unusable. */
    public static Optional<String> normalize(String base, String href) {
        if (base == null) {
            return normalize(href);
        }
        return Optional.ofNullable(safeParse(href, parseBase(base)));
    }

    /** Normalises an absolute http(s) URL; empty if unusable. */
    public static Optional<String> normalize(String absolute) {
        return Optional.ofNullable(safeParse(absolute, null));
    }

    /**
     * Parses a base once for resolving the many links of one page. Empty if the base is not a usable http(s) URL
     * (absolute hrefs can still be normalised with {@link #normalize(String)}).
     */
    public static Optional<Base> base(String url) {
        return Optional.ofNullable(parseBase(url));
    }

    /** Lower-cased host of a normalised URL (IPv6 in brackets, as {@link java.net.URI#getHost()}), or null. */
    public static String host(String normalizedUrl) {
        int start = hostStart(normalizedUrl);
        if (start < 0) {
            return null;
        }
        int end = hostEnd(normalizedUrl, start);
        return end == start ? null : HostParser.lowerAscii(normalizedUrl.substring(start, end));
    }

    /** The port a normalised URL connects to (explicit, or 80/443 by scheme); -1 if it is not an http(s) URL. */
    public static int port(String normalizedUrl) {
        int start = hostStart(normalizedUrl);
        if (start < 0) {
            return -1;
        }
        int end = hostEnd(normalizedUrl, start);
        if (end < normalizedUrl.length() && normalizedUrl.charAt(end) == ':') {
            int port = 0;
            int i = end + 1;
            for (; i < normalizedUrl.length() && isDigit(normalizedUrl.charAt(i)) && port <= 65535; i++) {
                port = port * 10 + normalizedUrl.charAt(i) - '0';
            }
            return i == end + 1 || port > 65535 ? -1 : port;
        }
        return start == "https://".length() ? 443 : 80;
    }

    /** Whether two normalised URLs have the same host (case-insensitive); allocation-free. */
    public static boolean sameHost(String a, String b) {
        int sa = hostStart(a);
        int sb = hostStart(b);
        if (sa < 0 || sb < 0) {
            return false;
        }
        int ea = hostEnd(a, sa);
        int eb = hostEnd(b, sb);
        return ea - sa == eb - sb && ea > sa && a.regionMatches(true, sa, b, sb, ea - sa);
    }

    /** A parsed, normalised base URL: resolving many hrefs against it skips re-parsing the base each time. */
    public static final class Base {
        private final String url;
        private final boolean https;
        private final int pathStart;
        private final int pathEnd;

        private Base(String url) {
            this.url = url;
            this.https = url.startsWith("https://");
            this.pathStart = url.indexOf('/', https ? 8 : 7);
            int q = url.indexOf('?', pathStart);
            this.pathEnd = q < 0 ? url.length() : q;
        }

        /** The normalised base URL. */
        public String url() {
            return url;
        }

        /** Resolves and normalises {@code href} against this base; empty if unusable. */
        public Optional<String> resolve(String href) {
            return Optional.ofNullable(safeParse(href, this));
        }

        @Override
        public String toString() {
            return url;
        }
    }

    private static Base parseBase(String base) {
        String b = safeParse(base, null);
        return b == null ? null : new Base(b);
    }

    /** The last line of the totality promise: a defect in the scanner drops the URL instead of crashing a service. */
    private static String safeParse(String input, Base base) {
        try {
            String url = parse(input, base);
            return url == null || url.length() > MAX_OUTPUT_LENGTH ? null : url;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String parse(String input, Base base) {
        if (input == null || input.length() > MAX_INPUT_LENGTH) {
            return null;
        }
        String s = input;
        int p = 0;
        int n = s.length();
        while (p < n && s.charAt(p) <= ' ') {
            p++;
        }
        while (n > p && s.charAt(n - 1) <= ' ') {
            n--;
        }
        for (int i = p; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\t' || c == '\n' || c == '\r') {
                s = stripTabsAndNewlines(s, p, n);
                p = 0;
                n = s.length();
                break;
            }
        }
        int colon = -1;
        if (p < n && isAlpha(s.charAt(p))) {
            int i = p + 1;
            while (i < n && isSchemeChar(s.charAt(i))) {
                i++;
            }
            if (i < n && s.charAt(i) == ':') {
                colon = i;
            }
        }
        if (colon < 0) {
            return base == null ? null : relative(s, p, n, base);
        }
        boolean https;
        if (colon - p == 4 && s.regionMatches(true, p, "http", 0, 4)) {
            https = false;
        } else if (colon - p == 5 && s.regionMatches(true, p, "https", 0, 5)) {
            https = true;
        } else {
            return null;
        }
        int rest = colon + 1;
        if (base != null && base.https == https) {
            return relative(s, rest, n, base);
        }
        while (rest < n && isSlash(s.charAt(rest))) {
            rest++;
        }
        return authority(s, rest, n, https);
    }

    /** The standard's relative state: {@code s[p, n)} is a reference without a scheme (or with the base's). */
    private static String relative(String s, int p, int n, Base base) {
        if (p < n && isSlash(s.charAt(p))) {
            if (p + 1 < n && isSlash(s.charAt(p + 1))) {
                int q = p + 2;
                while (q < n && isSlash(s.charAt(q))) {
                    q++;
                }
                return authority(s, q, n, base.https);
            }
            StringBuilder sb = new StringBuilder(base.pathStart + n - p + 8).append(base.url, 0, base.pathStart);
            return path(s, p + 1, n, sb, base.pathStart);
        }
        if (p == n || s.charAt(p) == '#') {
            return base.url;
        }
        StringBuilder sb = new StringBuilder(base.pathEnd + n - p + 8);
        if (s.charAt(p) == '?') {
            sb.append(base.url, 0, base.pathEnd);
            return query(s, p, n, sb);
        }
        sb.append(base.url, 0, base.pathEnd);
        shorten(sb, base.pathStart);
        return path(s, p, n, sb, base.pathStart);
    }

    /** Authority from {@code s[p]} (slashes already skipped), then the path. */
    private static String authority(String s, int p, int n, boolean https) {
        int e = p;
        while (e < n) {
            char c = s.charAt(e);
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                break;
            }
            e++;
        }
        int hs = p;
        for (int i = p; i < e; i++) {
            if (s.charAt(i) == '@') {
                hs = i + 1; // the last '@' ends the user-info, which is dropped
            }
        }
        int colon = -1;
        boolean inBrackets = false;
        for (int i = hs; i < e; i++) {
            char c = s.charAt(i);
            if (c == '[') {
                inBrackets = true;
            } else if (c == ']') {
                inBrackets = false;
            } else if (c == ':' && !inBrackets) {
                colon = i;
                break;
            }
        }
        int he = colon < 0 ? e : colon;
        if (he == hs) {
            return null;
        }
        int port = -1;
        if (colon >= 0 && colon + 1 < e) {
            port = 0;
            for (int i = colon + 1; i < e; i++) {
                char c = s.charAt(i);
                if (!isDigit(c)) {
                    return null;
                }
                port = Math.min(100_000, port * 10 + c - '0');
            }
            if (port > 65535) {
                return null;
            }
            if (port == (https ? 443 : 80)) {
                port = -1;
            }
        }
        String host = HostParser.parse(s, hs, he);
        if (host == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder(n - p + 16).append(https ? "https://" : "http://").append(host);
        if (port >= 0) {
            sb.append(':').append(port);
        }
        int pathStart = sb.length();
        if (e < n && isSlash(s.charAt(e))) {
            e++;
        }
        return path(s, e, n, sb, pathStart);
    }

    /**
     * The standard's path state from {@code s[p]} (the first character of a segment), appending to {@code sb},
     * whose path (each segment written as {@code /segment}) begins at {@code pathStart}; then the query.
     */
    private static String path(String s, int p, int n, StringBuilder sb, int pathStart) {
        int segStart = sb.length();
        sb.append('/');
        while (true) {
            char c = p < n ? s.charAt(p) : '#';
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                boolean slash = c == '/' || c == '\\';
                int segLen = sb.length() - segStart - 1;
                boolean dot = segLen == 1 && sb.charAt(segStart + 1) == '.';
                boolean dotDot = segLen == 2 && sb.charAt(segStart + 1) == '.' && sb.charAt(segStart + 2) == '.';
                if (dot || dotDot) {
                    sb.setLength(segStart);
                    if (dotDot) {
                        shorten(sb, pathStart);
                    }
                    if (!slash) {
                        sb.append('/');
                    }
                }
                if (!slash) {
                    break;
                }
                p++;
                segStart = sb.length();
                sb.append('/');
            } else {
                p = PercentCodec.append(sb, s, p, n, false);
            }
        }
        return query(s, p, n, sb);
    }

    /** Appends the query if {@code s[p]} is '?'; the fragment is dropped. */
    private static String query(String s, int p, int n, StringBuilder sb) {
        if (p < n && s.charAt(p) == '?') {
            sb.append('?');
            p++;
            while (p < n && s.charAt(p) != '#') {
                p = PercentCodec.append(sb, s, p, n, true);
            }
        }
        return sb.toString();
    }

    /** Removes the last path segment, if any. */
    private static void shorten(StringBuilder sb, int pathStart) {
        for (int i = sb.length() - 1; i >= pathStart; i--) {
            if (sb.charAt(i) == '/') {
                sb.setLength(i);
                return;
            }
        }
    }

    private static String stripTabsAndNewlines(String s, int from, int to) {
        StringBuilder sb = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c != '\t' && c != '\n' && c != '\r') {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Index after "http://" or "https://" (case-insensitive), or -1. */
    private static int hostStart(String url) {
        if (url == null) {
            return -1;
        }
        if (url.regionMatches(true, 0, "http://", 0, 7)) {
            return 7;
        }
        if (url.regionMatches(true, 0, "https://", 0, 8)) {
            return 8;
        }
        return -1;
    }

    private static int hostEnd(String url, int start) {
        int i = start;
        if (i < url.length() && url.charAt(i) == '[') {
            int close = url.indexOf(']', i);
            return close < 0 ? start : close + 1;
        }
        while (i < url.length()) {
            char c = url.charAt(i);
            if (c == ':' || c == '/' || c == '?' || c == '#' || c == '\\') {
                break;
            }
            i++;
        }
        return i;
    }

    private static boolean isSlash(char c) {
        return c == '/' || c == '\\';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isSchemeChar(char c) {
        return isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.';
    }
}
