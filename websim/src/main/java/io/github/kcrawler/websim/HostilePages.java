package io.github.kcrawler.websim;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.github.kcrawler.websim.HostileReply.full;
import static io.github.kcrawler.websim.HostileReply.html;
import static io.github.kcrawler.websim.HostileReply.notFound;
import static io.github.kcrawler.websim.HostileReply.redirect;
import static io.github.kcrawler.websim.HostileReply.text;

/**
 * The well-formed pages of the hostile hosts, one response each, with nothing of the connection in them: the index
 * of each mode, the redirect chain, the calendar and session-id traps, invalid UTF-8, wrong declared charsets and the
 * 429/503 answers. The answers an HTTP encoder would refuse or repair are {@link HostileResponder}'s.
 */
final class HostilePages {
    static final int CHAIN_LENGTH = 40;
    /** Query parameters the session trap's "sort by date" link adds to the page's own. */
    static final int SESSION_PARAMS_PER_HOP = 8;
    /** The Retry-After value of the throttling modes that send one, seconds (small so that a demo finishes). */
    static final int RETRY_AFTER_SECONDS = 1;

    private HostilePages() {
    }

    /** The paths the index page of {@code mode} links to. */
    static List<String> entryPaths(HostileMode mode) {
        return switch (mode) {
            case BIG_BODY -> List.of("/big", "/big-chunked");
            case GZIP_BOMB -> List.of("/bomb");
            case REDIRECT_LOOP -> List.of("/loop/a", "/self");
            case REDIRECT_CHAIN -> List.of("/chain/0");
            case SLOW -> List.of("/slow");
            case RESET -> List.of("/reset", "/reset-mid");
            case HALF_HEAD -> List.of("/half-head");
            case HALF_BODY -> List.of("/half-body");
            case CALENDAR_TRAP -> List.of("/cal/2026/11/");
            case SESSION_TRAP -> List.of("/s/0?sid=" + sessionId(0, ""));
            case MANY_LINKS -> List.of("/many");
            case BAD_UTF8 -> List.of("/bad-utf8");
            case WRONG_CHARSET -> List.of("/latin1", "/utf16", "/bogus", "/meta");
            case ROBOTS_HTML, ROBOTS_5XX, ROBOTS_4XX, ROBOTS_HUGE, ROBOTS_REDIRECT, ROBOTS_TIMEOUT ->
                    List.of("/a", "/private/b");
            case THROTTLE_429_RETRY_AFTER, THROTTLE_429, THROTTLE_503_RETRY_AFTER, THROTTLE_503 ->
                    List.of("/t/0", "/t/1", "/t/2");
            case OVERSIZED_HEADERS -> List.of("/etag", "/last-modified", "/content-type", "/retry-after");
            case OVERSIZED_REDIRECT -> List.of("/redirect", "/redirect-utf8");
            case NON_ASCII_HEADERS -> List.of("/latin1-bytes", "/utf8-value");
        };
    }

    static String index(HostileMode mode) {
        StringBuilder sb = new StringBuilder(512);
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hostile host: ").append(mode.label())
                .append("</title></head><body>\n<h1>").append(mode.label()).append("</h1>\n<ul>\n");
        for (String p : entryPaths(mode)) {
            sb.append("<li><a href=\"").append(p.replace("&", "&amp;")).append("\">").append(p).append("</a></li>\n");
        }
        return sb.append("</ul>\n</body></html>\n").toString();
    }

    static String plainPage(String path) {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + path + "</title></head>"
                + "<body><p>an ordinary page at " + path + "</p></body></html>\n";
    }

    static HostileReply chain(String path) {
        if (!path.startsWith("/chain/")) {
            return notFound();
        }
        int n = WebSimHandler.parsePageId("/p/" + path.substring("/chain/".length()));
        if (n < 0 || n > CHAIN_LENGTH) {
            return notFound();
        }
        return n < CHAIN_LENGTH ? redirect(HttpResponseStatus.FOUND, "/chain/" + (n + 1))
                : html(plainPage(path));
    }

    /** {@code /cal/<year>/<month>/} followed by any number of {@code events/}: prev, next and a nested link. */
    static HostileReply calendar(String path) {
        String[] parts = path.split("/", -1); // "", "cal", year, month, ["events"...], ""
        if (parts.length < 5 || !parts[1].equals("cal") || !parts[parts.length - 1].isEmpty()) {
            return notFound();
        }
        int year = WebSimHandler.parsePageId("/p/" + parts[2]);
        int month = WebSimHandler.parsePageId("/p/" + parts[3]);
        if (year < 1 || year > 9999 || month < 1 || month > 12) {
            return notFound();
        }
        for (int i = 4; i < parts.length - 1; i++) {
            if (!parts[i].equals("events")) {
                return notFound();
            }
        }
        int prevY = month == 1 ? year - 1 : year;
        int prevM = month == 1 ? 12 : month - 1;
        int nextY = month == 12 ? year + 1 : year;
        int nextM = month == 12 ? 1 : month + 1;
        StringBuilder sb = new StringBuilder(512);
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>calendar ").append(year).append('-')
                .append(month).append("</title></head><body>\n");
        if (prevY >= 1) {
            sb.append("<a href=\"/cal/").append(prevY).append('/').append(prevM).append("/\">previous month</a>\n");
        }
        if (nextY <= 9999) {
            sb.append("<a href=\"/cal/").append(nextY).append('/').append(nextM).append("/\">next month</a>\n");
        }
        sb.append("<a href=\"events/\">events</a>\n</body></html>\n");
        return html(sb.toString());
    }

    /**
     * {@code /s/<n>?sid=…[&x…=…]}: links to {@code /s/<n+1>} with a fresh session id, and to itself with
     * {@value #SESSION_PARAMS_PER_HOP} more query parameters (a query-parameter explosion: after four such hops a URL
     * has more than 32). The session id is a hash of (n, query), so the web is deterministic yet every page differs.
     */
    static HostileReply session(String path, String query) {
        if (!path.startsWith("/s/")) {
            return notFound();
        }
        int n = WebSimHandler.parsePageId("/p/" + path.substring(3));
        if (n < 0 || query.length() > 8192) {
            return notFound();
        }
        int params = query.isEmpty() ? 0 : query.split("&", -1).length;
        String next = "/s/" + (n + 1) + "?sid=" + sessionId(n + 1, query);
        StringBuilder more = new StringBuilder(path).append('?')
                .append(query.isEmpty() ? "sid=" + sessionId(n, "") : query);
        for (int i = 0; i < SESSION_PARAMS_PER_HOP; i++) {
            more.append("&x").append(params + i).append('=').append(params + i);
        }
        return html("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>session page " + n + "</title></head>"
                + "<body>\n<a href=\"" + next.replace("&", "&amp;") + "\">next</a>\n<a href=\""
                + more.toString().replace("&", "&amp;") + "\">sort by date</a>\n</body></html>\n");
    }

    static String sessionId(int n, String query) {
        return Long.toHexString(Mix.hash(0x5E55_1011L, n, query.hashCode()) | (1L << 60));
    }

    /** Declared UTF-8 with overlong forms, lone continuation bytes, surrogates, 0xFF and a cut sequence at the end. */
    static HostileReply badUtf8() {
        byte[][] parts = {
            "<!DOCTYPE html>\n<html><head><title>bad \u00e9 ".getBytes(StandardCharsets.UTF_8),
            {(byte) 0xC3, 0x28, (byte) 0xA0, (byte) 0xA1},
            "</title></head><body><p>overlong: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xC0, (byte) 0xAF, (byte) 0xE0, (byte) 0x80, (byte) 0xAF},
            " surrogate: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            " ff: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xFF, (byte) 0xFE, (byte) 0xFD},
            "</p><a href=\"/ok/".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xE2, (byte) 0x82},
            "1\">link with a broken sequence</a> <a href=\"/ok/2\">a clean link</a></body></html>"
                    .getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
        };
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] body = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, body, at, p.length);
            at += p.length;
        }
        return full(HttpResponseStatus.OK, HostileReply.HTML, body);
    }

    static HostileReply wrongCharset(String path) {
        String page = "<!DOCTYPE html>\n<html><head>%s<title>caf\u00e9 na\u00efve Gr\u00f6\u00dfe</title></head><body>"
                + "<p>d\u00e9j\u00e0 vu \u2014 r\u00e9sum\u00e9</p><a href=\"/ok/caf\u00e9\">caf\u00e9</a> "
                + "<a href=\"/ok/3\">three</a></body></html>\n";
        return switch (path) {
            case "/latin1" -> full(HttpResponseStatus.OK, "text/html; charset=utf-8",
                    String.format(page, "").replace('\u2014', '-').getBytes(StandardCharsets.ISO_8859_1));
            case "/utf16" -> full(HttpResponseStatus.OK, "text/html; charset=utf-16",
                    String.format(page, "").getBytes(StandardCharsets.UTF_8));
            case "/bogus" -> full(HttpResponseStatus.OK, "text/html; charset=x-no-such-charset-\u00e9",
                    String.format(page, "").getBytes(StandardCharsets.UTF_8));
            case "/meta" -> full(HttpResponseStatus.OK, "text/html; charset=iso-8859-1",
                    String.format(page, "<meta charset=\"shift_jis\">").getBytes(StandardCharsets.UTF_8));
            default -> ok(path);
        };
    }

    static HostileReply throttle(HostileMode mode, String path) {
        if (!path.startsWith("/t/")) {
            return ok(path);
        }
        boolean tooMany = mode == HostileMode.THROTTLE_429 || mode == HostileMode.THROTTLE_429_RETRY_AFTER;
        boolean retryAfter = mode == HostileMode.THROTTLE_429_RETRY_AFTER
                || mode == HostileMode.THROTTLE_503_RETRY_AFTER;
        HostileReply r = text(tooMany ? HttpResponseStatus.TOO_MANY_REQUESTS : HttpResponseStatus.SERVICE_UNAVAILABLE,
                "slow down\n");
        if (retryAfter) {
            r.response().headers().setInt(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return r;
    }

    /** Bytes of each oversized header value of {@link HostileMode#OVERSIZED_HEADERS} (the issue 20 reproduction). */
    static final int OVERSIZED_VALUE_BYTES = 6000;
    /** "é" repeated in {@code /redirect-utf8}'s Location: two bytes each on the wire. */
    static final int UTF8_REDIRECT_CHARS = 1000;

    /** An oversized value of {@code n} bytes for {@code header}, deterministic and visible ASCII. */
    static String oversized(String header, int n) {
        StringBuilder sb = new StringBuilder(n);
        switch (header) {
            case "ETag" -> sb.append('"').append("e".repeat(n - 2)).append('"');
            case "Content-Type" -> sb.append("text/html; charset=utf-8; x=").append("y".repeat(n - 28));
            case "Retry-After" -> sb.append("9".repeat(n));
            default -> sb.append("Tue, 15 Nov 1994 12:45:26 GMT ").append("z".repeat(n - 30));
        }
        return sb.toString();
    }

    static HostileReply oversizedHeaders(String path) {
        String page = "<!DOCTYPE html>\n<html><head><title>" + path + "</title></head><body>"
                + "<p>an ordinary page with an oversized header</p><a href=\"/ok/" + path.substring(1)
                + "\">next</a></body></html>\n";
        HostileReply r;
        switch (path) {
            case "/etag" -> {
                r = html(page);
                r.response().headers().set(HttpHeaderNames.ETAG, oversized("ETag", OVERSIZED_VALUE_BYTES));
            }
            case "/last-modified" -> {
                r = html(page);
                r.response().headers().set(HttpHeaderNames.LAST_MODIFIED,
                        oversized("Last-Modified", OVERSIZED_VALUE_BYTES));
            }
            case "/content-type" -> {
                r = html(page);
                r.response().headers().set(HttpHeaderNames.CONTENT_TYPE,
                        oversized("Content-Type", OVERSIZED_VALUE_BYTES));
            }
            case "/retry-after" -> {
                r = text(HttpResponseStatus.SERVICE_UNAVAILABLE, "slow down\n");
                r.response().headers().set(HttpHeaderNames.RETRY_AFTER, oversized("Retry-After", OVERSIZED_VALUE_BYTES));
            }
            default -> r = ok(path);
        }
        return r;
    }

    /** The raw bytes of {@code /redirect-utf8}'s Location: {@code /target/} then "é" as UTF-8, 2 bytes each. */
    static byte[] utf8RedirectLocation() {
        return ("/target/" + "\u00e9".repeat(UTF8_REDIRECT_CHARS)).getBytes(StandardCharsets.UTF_8);
    }

    static HostileReply oversizedRedirect(String path) {
        return switch (path) {
            case "/redirect" -> redirect(HttpResponseStatus.MOVED_PERMANENTLY,
                    "/target/" + "x".repeat(OVERSIZED_VALUE_BYTES - 8));
            case "/redirect-utf8" -> redirect(HttpResponseStatus.MOVED_PERMANENTLY,
                    new String(utf8RedirectLocation(), StandardCharsets.ISO_8859_1)); // one char per byte
            default -> path.startsWith("/target/") ? html(plainPage("/target/")) : ok(path);
        };
    }

    /** {@code /ok/…}: a small page, the target of the links on the charset pages. */
    static HostileReply ok(String path) {
        return path.startsWith("/ok/") ? html(plainPage("/ok/")) : notFound();
    }
}
