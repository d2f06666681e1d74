package io.github.kcrawler.fetcher.parse;

import java.nio.charset.Charset;
import java.util.Locale;

/**
 * Reads the Content-Type header the way the fetcher needs it: is this a document we extract links from, and which
 * charset does the server declare. Header values are untrusted: anything unrecognised means "not HTML" or "no
 * charset", never an exception.
 */
public final class ContentTypes {
    private static final int SNIFF_BYTES = 512;

    private ContentTypes() {
    }

    /** The media type in lower case without parameters ({@code text/html}), or null. */
    public static String mediaType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semi = contentType.indexOf(';');
        String t = (semi >= 0 ? contentType.substring(0, semi) : contentType).trim().toLowerCase(Locale.ROOT);
        return t.isEmpty() ? null : t;
    }

    /**
     * True for {@code text/html} and {@code application/xhtml+xml}; when the server sent no Content-Type, true if
     * the body starts like an HTML document (as browsers sniff).
     */
    public static boolean isHtml(String contentType, byte[] body, int length) {
        String t = mediaType(contentType);
        if (t == null) {
            return looksLikeHtml(body, length);
        }
        return t.equals("text/html") || t.equals("application/xhtml+xml");
    }

    /** The declared charset if the JVM supports it, else null (the parser then detects it from the document). */
    public static String charset(String contentType) {
        if (contentType == null) {
            return null;
        }
        String lower = contentType.toLowerCase(Locale.ROOT);
        int i = lower.indexOf("charset=");
        if (i < 0) {
            return null;
        }
        int start = i + "charset=".length();
        int end = start;
        while (end < contentType.length() && contentType.charAt(end) != ';' && contentType.charAt(end) != ' ') {
            end++;
        }
        String cs = contentType.substring(start, end).replace("\"", "").replace("'", "").trim();
        try {
            return !cs.isEmpty() && Charset.isSupported(cs) ? cs : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static boolean looksLikeHtml(byte[] body, int length) {
        int n = Math.min(length, SNIFF_BYTES);
        int i = 0;
        if (n >= 3 && (body[0] & 0xff) == 0xEF && (body[1] & 0xff) == 0xBB && (body[2] & 0xff) == 0xBF) {
            i = 3;
        }
        while (i < n && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n')) {
            i++;
        }
        if (i >= n || body[i] != '<') {
            return false;
        }
        String head = new String(body, i, Math.min(n - i, 16), java.nio.charset.StandardCharsets.ISO_8859_1)
                .toLowerCase(Locale.ROOT);
        return head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<head")
                || head.startsWith("<!--") || head.startsWith("<body");
    }
}
