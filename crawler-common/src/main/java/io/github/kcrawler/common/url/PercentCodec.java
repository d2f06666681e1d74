package io.github.kcrawler.common.url;

/**
 * Percent-encoding for the normaliser's path and query, in one step per character so the scanner never makes a
 * second pass. Two goals: characters the URL Standard says must be escaped are escaped (UTF-8 for everything past
 * ASCII, lone surrogates as U+FFFD), and existing escapes are put in one canonical form (RFC 3986 section 6.2.2:
 * upper-case hex, escapes of unreserved characters {@code A-Z a-z 0-9 - . _ ~} decoded), so {@code /%7euser} and
 * {@code /~user} fingerprint alike. A {@code %} not followed by two hex digits is kept as it is, as browsers do, and
 * an escaped hex digit right after such a {@code %} stays escaped so that decoding never forms a new escape.
 * Decoding only unreserved characters never changes a URL's structure, which keeps the whole normaliser
 * idempotent.
 */
final class PercentCodec {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** Path percent-encode set, ASCII part: C0 controls, space, " # < > ? ^ ` { } and DEL. */
    private static final boolean[] PATH = new boolean[128];
    /** Special-query percent-encode set, ASCII part: C0 controls, space, " # < > ' and DEL. */
    private static final boolean[] QUERY = new boolean[128];
    private static final boolean[] UNRESERVED = new boolean[128];

    static {
        for (int c = 0; c <= 0x20; c++) {
            PATH[c] = true;
            QUERY[c] = true;
        }
        PATH[0x7F] = true;
        QUERY[0x7F] = true;
        for (char c : "\"#<>".toCharArray()) {
            PATH[c] = true;
            QUERY[c] = true;
        }
        for (char c : "?^`{}".toCharArray()) {
            PATH[c] = true;
        }
        QUERY['\''] = true;
        for (int c = 'a'; c <= 'z'; c++) {
            UNRESERVED[c] = true;
            UNRESERVED[c - 32] = true;
        }
        for (int c = '0'; c <= '9'; c++) {
            UNRESERVED[c] = true;
        }
        for (char c : "-._~".toCharArray()) {
            UNRESERVED[c] = true;
        }
    }

    private PercentCodec() {
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * Appends the character at {@code in[i]} to {@code out}, escaped as the path ({@code query == false}) or query
     * set demands, and returns the index of the next character to read.
     */
    static int append(StringBuilder out, String in, int i, int end, boolean query) {
        char c = in.charAt(i);
        if (c < 0x80) {
            if (c == '%' && i + 2 < end) {
                int h = hex(in.charAt(i + 1));
                int l = hex(in.charAt(i + 2));
                if (h >= 0 && l >= 0) {
                    int b = h * 16 + l;
                    if (b < 0x80 && UNRESERVED[b] && !(hex((char) b) >= 0 && endsInStrayPercent(out))) {
                        out.append((char) b);
                    } else {
                        out.append('%').append(HEX[h]).append(HEX[l]);
                    }
                    return i + 3;
                }
            }
            if ((query ? QUERY : PATH)[c]) {
                escape(out, c);
            } else {
                out.append(c);
            }
            return i + 1;
        }
        int cp = c;
        int next = i + 1;
        if (Character.isHighSurrogate(c) && next < end && Character.isLowSurrogate(in.charAt(next))) {
            cp = Character.toCodePoint(c, in.charAt(next));
            next++;
        } else if (Character.isSurrogate(c)) {
            cp = 0xFFFD;
        }
        if (cp < 0x800) {
            escape(out, 0xC0 | (cp >> 6));
            escape(out, 0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            escape(out, 0xE0 | (cp >> 12));
            escape(out, 0x80 | ((cp >> 6) & 0x3F));
            escape(out, 0x80 | (cp & 0x3F));
        } else {
            escape(out, 0xF0 | (cp >> 18));
            escape(out, 0x80 | ((cp >> 12) & 0x3F));
            escape(out, 0x80 | ((cp >> 6) & 0x3F));
            escape(out, 0x80 | (cp & 0x3F));
        }
        return next;
    }

    /**
     * Writes the UTF-8 bytes of the code point at {@code in[i]} into {@code out} from {@code len}; returns new len. A
     * surrogate pair is read only when both halves lie before {@code to} (a high surrogate last in the range is
     * malformed there, whatever follows it outside).
     */
    static int utf8(String in, int i, int to, byte[] out, int len) {
        char c = in.charAt(i);
        int cp = c;
        if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(in.charAt(i + 1))) {
            cp = Character.toCodePoint(c, in.charAt(i + 1));
        } else if (Character.isSurrogate(c)) {
            cp = 0xFFFD;
        }
        if (cp < 0x80) {
            out[len++] = (byte) cp;
        } else if (cp < 0x800) {
            out[len++] = (byte) (0xC0 | (cp >> 6));
            out[len++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[len++] = (byte) (0xE0 | (cp >> 12));
            out[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[len++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            out[len++] = (byte) (0xF0 | (cp >> 18));
            out[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            out[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[len++] = (byte) (0x80 | (cp & 0x3F));
        }
        return len;
    }

    /**
     * Whether the output ends in {@code %} or {@code %X} that is no escape: decoding a hex digit there would make one
     * ({@code %%41} must not become {@code %A} and then, normalised again, {@code %AF...}).
     */
    private static boolean endsInStrayPercent(StringBuilder out) {
        int len = out.length();
        return (len >= 1 && out.charAt(len - 1) == '%')
                || (len >= 2 && out.charAt(len - 2) == '%' && hex(out.charAt(len - 1)) >= 0);
    }

    private static void escape(StringBuilder out, int b) {
        out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }
}
