package io.github.kcrawler.websim;

/**
 * One request as the simulated web saw it.
 *
 * @param atMs arrival time in milliseconds since the server started (from {@link System#nanoTime()}, so
 *     monotonic), with sub-millisecond precision
 * @param ip the local (simulated) address the connection arrived on
 * @param host the host named by the request's Host header (without port; "-" when missing)
 * @param method the HTTP method
 * @param path the request target as sent
 * @param status the response status
 * @param kind what was asked for
 * @param page the page id for a page request ({@link Kind#PAGE}), otherwise -1
 */
public record Access(double atMs, String ip, String host, String method, String path, int status, Kind kind,
        int page) {

    /** What a request asked for. */
    public enum Kind {
        /** {@code /p/<id>} on the page's own host (any status). */
        PAGE,
        /** {@code /robots.txt} of a known host. */
        ROBOTS,
        /** Anything else (unknown host or path, bad method, bad request). */
        OTHER,
        /** Anything asked of a hostile mode's host ({@link HostileMode}), robots.txt included. */
        HOSTILE
    }

    /** The access as one TSV line (no trailing newline), fields in declaration order. */
    public String toTsv() {
        return String.format(java.util.Locale.ROOT, "%.3f", atMs) + '\t' + ip + '\t' + clean(host) + '\t'
                + clean(method) + '\t' + clean(path) + '\t' + status + '\t' + kind + '\t' + page;
    }

    /** The TSV header line matching {@link #toTsv()}. */
    public static String tsvHeader() {
        return "at_ms\tip\thost\tmethod\tpath\tstatus\tkind\tpage";
    }

    private static String clean(String s) {
        if (s == null) {
            return "-";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (sb == null) {
                    sb = new StringBuilder(s.substring(0, i));
                }
                sb.append('?');
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
