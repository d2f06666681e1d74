package io.github.kcrawler.fetcher.warc;

import org.netpreserve.jwarc.URIs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One line of a CDXJ index as pywb reads it (pywb's "CDXJ" format, written by its {@code cdx-indexer -j} and by
 * webrecorder's {@code cdxj-indexer}): {@code <surt> <timestamp> <json>}, e.g.
 * <pre>
 * com,example)/ 20170730223850 {"url": "http://example.com/", "mime": "text/html", "status": "200", "digest": "G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK", "length": "1219", "offset": "771", "filename": "example-20170730223917.warc.gz"}
 * </pre>
 * The key is the URL in SURT form (jwarc's {@link URIs#toNormalizedSurt}, which canonicalises as pywb does: lower
 * case, no {@code www}, sorted query, host reversed), the timestamp the capture's WARC-Date in 14 digits (UTC),
 * and the JSON block carries, as strings, the URL, the media type of the response (without parameters, {@code unk}
 * when none), the HTTP status, the payload digest (SHA-1, base 32, without its {@code sha1:} prefix), and where the
 * record lies: its {@code length} (bytes of its gzip member) and {@code offset} in the WARC file {@code filename}.
 *
 * <p>Invariant: every line is printable ASCII without a line break (non-ASCII characters are escaped: %-encoded
 * UTF-8 in the key, {@code \}u escapes in the JSON), so sorting lines as Java strings sorts them byte-wise, as
 * {@code LC_ALL=C sort} would and as pywb's binary search over the file expects.
 */
public final class Cdxj {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** Longest media type kept; a longer (hostile) Content-Type is cut. */
    static final int MAX_MIME = 100;
    /** Longest URL written into a line (normalised URLs are far shorter: max-url-length). */
    static final int MAX_URL = 16_384;

    private Cdxj() {
    }

    /** The index file beside a WARC file: {@code NAME.warc.gz} (or {@code NAME.warc.gz.open}) → {@code NAME.cdxj}. */
    public static Path indexPathFor(Path warc) {
        String name = warc.getFileName().toString();
        if (name.endsWith(".open")) {
            name = name.substring(0, name.length() - ".open".length());
        }
        for (String ext : new String[] {".warc.gz", ".warc"}) {
            if (name.endsWith(ext)) {
                name = name.substring(0, name.length() - ext.length());
                break;
            }
        }
        return warc.resolveSibling(name + ".cdxj");
    }

    /**
     * The part of a response record's line that does not depend on where it lands: everything up to the value of
     * {@code offset}. {@link #finish} completes it.
     */
    static String head(String url, long dateMillis, String contentType, int status, String digestBase32,
                       long length) {
        StringBuilder sb = new StringBuilder(160 + 2 * url.length());
        appendKey(sb, url);
        sb.append(' ').append(TIMESTAMP.format(Instant.ofEpochMilli(dateMillis))).append(" {\"url\": \"");
        appendJson(sb, url.length() > MAX_URL ? url.substring(0, MAX_URL) : url);
        sb.append("\", \"mime\": \"").append(mime(contentType))
                .append("\", \"status\": \"").append(status)
                .append("\", \"digest\": \"").append(digestBase32 == null ? "-" : digestBase32)
                .append("\", \"length\": \"").append(length)
                .append("\", \"offset\": \"");
        return sb.toString();
    }

    /** A complete line (without its line break). */
    static String finish(String head, long offset, String filename) {
        StringBuilder sb = new StringBuilder(head.length() + 64 + filename.length());
        sb.append(head).append(offset).append("\", \"filename\": \"");
        appendJson(sb, filename);
        return sb.append("\"}").toString();
    }

    /** A full line: {@link #head} and {@link #finish} together. */
    public static String line(String url, long dateMillis, String contentType, int status, String digestBase32,
                              long length, long offset, String filename) {
        return finish(head(url, dateMillis, contentType, status, digestBase32, length), offset, filename);
    }

    /**
     * The media type of a Content-Type value: before any {@code ;}, trimmed, lower case, only the characters a
     * media type may hold, at most {@value #MAX_MIME} of them; {@code unk} (pywb's word) when nothing is left.
     */
    static String mime(String contentType) {
        if (contentType == null) {
            return "unk";
        }
        StringBuilder sb = new StringBuilder(Math.min(contentType.length(), MAX_MIME));
        for (int i = 0; i < contentType.length() && sb.length() < MAX_MIME; i++) {
            char c = contentType.charAt(i);
            if (c == ';' || c == ',') {
                break;
            }
            if (c >= 'A' && c <= 'Z') {
                sb.append((char) (c + 32));
            } else if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || "!#$&^_.+-/".indexOf(c) >= 0) {
                sb.append(c);
            }
        }
        return sb.length() == 0 ? "unk" : sb.toString();
    }

    private static void appendKey(StringBuilder sb, String url) {
        String surt;
        try {
            surt = URIs.toNormalizedSurt(url);
        } catch (RuntimeException e) {
            surt = url.toLowerCase(Locale.ROOT); // never happens for a normalised URL; still a usable sort key
        }
        if (surt.length() > MAX_URL) {
            surt = surt.substring(0, MAX_URL);
        }
        for (int i = 0; i < surt.length(); i++) {
            char c = surt.charAt(i);
            if (c > 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                    sb.append('%').append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
                }
            }
        }
    }

    private static void appendJson(StringBuilder sb, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
    }
}
