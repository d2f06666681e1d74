package io.github.kcrawler.websim;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * One way a server misbehaves on purpose (issue 9, item 1). Each enabled mode gets its own host,
 * {@code <label>.hostile.websim.test}, on its own loopback address (127.2.0.x), so a crawler's per-IP back-off,
 * robots.txt verdict and per-host budget for one mode never mix with another's, and websim can count accesses per
 * mode. What each host serves is described on the constant and implemented in {@link HostileResponder}; every host
 * has an ordinary index page at {@code /} linking to its hostile resources, and the seed pages of the simulated web
 * link to every index, so a crawl that starts at the seeds finds them all. Never reorder or rename: labels are
 * command-line values and stats keys.
 */
public enum HostileMode {
    /** {@code /big}: 100 MiB declared with Content-Length, {@code /big-chunked}: 100 MiB chunked; streamed. */
    BIG_BODY("big-body"),
    /** {@code /bomb}: one gzip member of ~1 MiB that inflates to 1 GiB of zeros, sent whatever Accept-Encoding says. */
    GZIP_BOMB("gzip-bomb"),
    /** {@code /loop/a} → {@code /loop/b} → {@code /loop/a}, and {@code /self} → {@code /self} (302). */
    REDIRECT_LOOP("redirect-loop"),
    /** {@code /chain/0} → {@code /chain/1} → … → {@code /chain/40} (200): longer than any sane redirect limit. */
    REDIRECT_CHAIN("redirect-chain"),
    /** {@code /slow}: a complete, valid response written one byte a second. */
    SLOW("slow"),
    /** {@code /reset}: RST right after the request; {@code /reset-mid}: head and part of the body, then RST. */
    RESET("reset"),
    /** {@code /half-head}: part of a response head, then the connection is closed (FIN). */
    HALF_HEAD("half-head"),
    /** {@code /half-body}: a head declaring 8192 bytes, 2000 of them, then FIN. */
    HALF_BODY("half-body"),
    /**
     * {@code /cal/<year>/<month>/}: an endless calendar, each month linking the previous and next one, plus a
     * relative {@code events/} link that nests forever ({@code …/events/events/…}: repeated path segments).
     */
    CALENDAR_TRAP("calendar"),
    /**
     * {@code /s/<n>?sid=…}: every page links to the next one with a fresh session id, and to itself with eight more
     * query parameters (a query-parameter explosion).
     */
    SESSION_TRAP("session-ids"),
    /**
     * {@code /many}: one page of 100,000 links (~3 MiB): ten to small pages of the same host, the rest to distinct
     * addresses in 10.0.0.0/8 that an address policy must refuse.
     */
    MANY_LINKS("many-links"),
    /** {@code /bad-utf8}: declared UTF-8, full of invalid sequences (also inside hrefs). */
    BAD_UTF8("bad-utf8"),
    /**
     * {@code /latin1}: Latin-1 bytes declared UTF-8; {@code /utf16}: UTF-8 bytes declared UTF-16;
     * {@code /bogus}: a charset that does not exist; {@code /meta}: header and meta charset disagree.
     */
    WRONG_CHARSET("wrong-charset"),
    /** robots.txt answered 200 text/html with an HTML page. */
    ROBOTS_HTML("robots-html"),
    /** robots.txt answered 500. */
    ROBOTS_5XX("robots-5xx"),
    /** robots.txt answered 403. */
    ROBOTS_4XX("robots-4xx"),
    /** robots.txt of 8 MiB (comment and Disallow lines for paths that do not exist), streamed. */
    ROBOTS_HUGE("robots-huge"),
    /** robots.txt → 301 → 301 → a robots.txt disallowing {@code /private/}. */
    ROBOTS_REDIRECT("robots-redirect"),
    /** robots.txt never answered: the connection stays open and silent. */
    ROBOTS_TIMEOUT("robots-timeout"),
    /** {@code /t/<n>}: 429 with {@code Retry-After: 1}. */
    THROTTLE_429_RETRY_AFTER("throttle-429-retry-after"),
    /** {@code /t/<n>}: 429 without Retry-After. */
    THROTTLE_429("throttle-429"),
    /** {@code /t/<n>}: 503 with {@code Retry-After: 1}. */
    THROTTLE_503_RETRY_AFTER("throttle-503-retry-after"),
    /** {@code /t/<n>}: 503 without Retry-After. */
    THROTTLE_503("throttle-503"),
    /**
     * Oversized values of every response header the crawler keeps (issue 20), 6,000 bytes each as in the issue's
     * reproduction: {@code /etag}, {@code /last-modified}, {@code /content-type} (200 pages linking to
     * {@code /ok/}) and {@code /retry-after} (503).
     */
    OVERSIZED_HEADERS("oversized-headers"),
    /**
     * Redirects to targets too long to keep: {@code /redirect}: a 6,000-byte {@code Location}; {@code /redirect-utf8}:
     * a 2,008-byte {@code Location} of raw UTF-8 ("é" × 1,000), which a client reading header bytes as ISO-8859-1
     * percent-encodes to 12,008 characters.
     */
    OVERSIZED_REDIRECT("oversized-redirect"),
    /**
     * Header bytes that are not ASCII: {@code /latin1-bytes}: ETag, Last-Modified and {@code X-Raw} holding the raw
     * bytes 0x80–0xFF; {@code /utf8-value}: a UTF-8 multi-byte Content-Type parameter and ETag (200 pages).
     */
    NON_ASCII_HEADERS("non-ascii-headers");

    /** Host names of hostile hosts end with this. */
    public static final String DOMAIN_SUFFIX = ".hostile.websim.test";

    private final String label;

    HostileMode(String label) {
        this.label = label;
    }

    /** The command-line name and the first label of the mode's host name. */
    public String label() {
        return label;
    }

    /** The mode's host name. */
    public String hostName() {
        return label + DOMAIN_SUFFIX;
    }

    /** The mode's loopback address: 127.2.0.(ordinal + 1), apart from the ordinary hosts' 127.1.x.y. */
    public String ipAddress() {
        return "127.2.0." + (ordinal() + 1);
    }

    /** The mode served by {@code hostName} (case-insensitive, an optional {@code :port} ignored), or null. */
    public static HostileMode ofHost(String hostName) {
        if (hostName == null) {
            return null;
        }
        String h = hostName.toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        if (colon >= 0) {
            h = h.substring(0, colon);
        }
        if (!h.endsWith(DOMAIN_SUFFIX)) {
            return null;
        }
        return ofLabel(h.substring(0, h.length() - DOMAIN_SUFFIX.length()));
    }

    /** The mode called {@code label}, or null. */
    public static HostileMode ofLabel(String label) {
        for (HostileMode m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Parses a comma-separated list of labels; {@code all} (or an empty string) means every mode, {@code none}
     * none. An unknown label is refused with a message listing the known ones.
     */
    public static Set<HostileMode> parseList(String list) {
        String s = list == null ? "" : list.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("all")) {
            return Collections.unmodifiableSet(EnumSet.allOf(HostileMode.class));
        }
        if (s.equals("none")) {
            return Set.of();
        }
        EnumSet<HostileMode> modes = EnumSet.noneOf(HostileMode.class);
        for (String part : s.split(",")) {
            String label = part.trim();
            HostileMode m = ofLabel(label);
            if (m == null) {
                throw new IllegalArgumentException("unknown hostile mode '" + label + "'; known: all, none, "
                        + String.join(", ", EnumSet.allOf(HostileMode.class).stream().map(HostileMode::label)
                        .toList()));
            }
            modes.add(m);
        }
        return Collections.unmodifiableSet(modes);
    }
}
