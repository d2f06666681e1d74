package io.github.kcrawler.fetcher.http;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.scope.CrawlScope;

import java.util.Locale;

/**
 * Bounds every value a server controls before it enters a record or a store (issue 20, item 1): response header
 * values the crawler keeps (ETag, Last-Modified, Content-Type, Retry-After), the redirect target taken from
 * {@code Location}, the human-readable error text (which quotes server bytes) and the size of a page's link list.
 * No Kafka, no metrics: each bound value is reported to a {@link Listener}.
 *
 * <p>Per field the action differs, chosen by what the value is for:
 * <ul>
 *   <li>{@code ETag}, {@code Last-Modified}: a validator must be sent back byte for byte in a conditional GET, so a
 *       cut one is a different validator: over the limit, or holding anything but visible ASCII, space and tab
 *       (obs-text bytes 0x80–0xFF are legal in HTTP but the request encoder writes ASCII only, so they would not
 *       come back as they were sent), it is <b>dropped</b>; the next visit is then an unconditional GET.</li>
 *   <li>{@code Content-Type}: only its media type and charset are read, so a long one is <b>truncated</b>.</li>
 *   <li>{@code Retry-After}: a date or a number of seconds is short; a longer or non-ASCII value is <b>dropped</b>
 *       (ignored for the back-off; the error text quotes its first 64 characters, and is bounded itself).</li>
 *   <li>Redirect target: a URL cut short is another URL, so one longer than {@code max-url-length} after
 *       normalisation is <b>dropped</b> (the 3xx becomes HTTP_ERROR "without a usable Location").</li>
 *   <li>Error text: <b>truncated</b> (it is for people).</li>
 *   <li>Link list: links past the byte budget are <b>truncated</b> from the page's link graph (carried by its
 *       {@code FetchResult}), so one record never exceeds what a Kafka producer accepts.</li>
 * </ul>
 *
 * <p>Sizes are UTF-8 bytes as the JSON serialiser writes them (a header value decoded as ISO-8859-1 takes two bytes
 * per character above 0x7F). Invariant (asserted): a value returned is null or within its limit; an unchanged
 * value is the same instance (no allocation on the common path).
 */
public final class ValueBounds {

    /** Where a bound applied; the {@code field} tag of {@code crawler.fetch.values.bounded}. */
    public enum Field {
        ETAG(true), LAST_MODIFIED(true), CONTENT_TYPE(false), RETRY_AFTER(true), REDIRECT_TARGET(false),
        ERROR(false), LINK_LIST(false);

        private final boolean validator;

        Field(boolean validator) {
            this.validator = validator;
        }

        /** What crossing this field's limit does (one action per field). */
        public Action action() {
            return validator || this == REDIRECT_TARGET ? Action.DROPPED : Action.TRUNCATED;
        }

        /** Whether this field can be bounded for {@code reason} (only dropped header values can be INVALID). */
        public boolean can(Reason reason) {
            return reason == Reason.TOO_LONG || validator;
        }

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What was done; the {@code action} tag. */
    public enum Action {
        TRUNCATED, DROPPED;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why; the {@code reason} tag: over the limit, or bytes that cannot be kept as they are. */
    public enum Reason {
        TOO_LONG, INVALID;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Told about every value bounded. Called on worker and I/O threads; must be thread-safe and cheap. */
    @FunctionalInterface
    public interface Listener {
        void bounded(Field field, Action action, Reason reason);
    }

    /**
     * The limits, in UTF-8 bytes (settings of the fetcher: {@code max-etag-bytes}, {@code max-last-modified-bytes},
     * {@code max-content-type-bytes}, {@code max-retry-after-bytes}, {@code max-error-bytes},
     * {@code max-link-list-bytes}; redirect targets use the scope's {@code max-url-length}).
     */
    public record Limits(int etagBytes, int lastModifiedBytes, int contentTypeBytes, int retryAfterBytes,
                         int errorBytes, int linkListBytes, int urlLength) {
        public static final Setting<Integer> ETAG_BYTES = Setting.integer("max-etag-bytes", 256,
                Check.range(0, 2048), "an ETag longer than this is dropped (not kept for revisits)");
        public static final Setting<Integer> LAST_MODIFIED_BYTES = Setting.integer("max-last-modified-bytes", 64,
                Check.range(0, 256), "a Last-Modified longer than this is dropped");
        public static final Setting<Integer> CONTENT_TYPE_BYTES = Setting.integer("max-content-type-bytes", 256,
                Check.range(16, 4096), "a Content-Type is cut at this many bytes");
        public static final Setting<Integer> RETRY_AFTER_BYTES = Setting.integer("max-retry-after-bytes", 64,
                Check.range(0, 256), "a longer Retry-After is ignored");
        public static final Setting<Integer> ERROR_BYTES = Setting.integer("max-error-bytes", 1024,
                Check.range(64, 65_536), "an error text in a result is cut at this many bytes");
        public static final Setting<Integer> LINK_LIST_BYTES = Setting.integer("max-link-list-bytes", 512 * 1024,
                Check.range(4096, 64 * 1024 * 1024), "a page's link graph (in its fetch result) holds links up to "
                        + "about this many bytes of JSON");
        /** The keys of the bounded server values (issue 20); redirect targets use the scope's max-url-length. */
        public static final SettingSet SETTINGS = SettingSet.of(ETAG_BYTES, LAST_MODIFIED_BYTES, CONTENT_TYPE_BYTES,
                RETRY_AFTER_BYTES, ERROR_BYTES, LINK_LIST_BYTES);
        public static final Limits DEFAULTS = from(Settings.empty(), CrawlScope.URL_LENGTH_LIMIT.defaultValue());

        public Limits {
            ETAG_BYTES.check(etagBytes);
            LAST_MODIFIED_BYTES.check(lastModifiedBytes);
            CONTENT_TYPE_BYTES.check(contentTypeBytes);
            RETRY_AFTER_BYTES.check(retryAfterBytes);
            ERROR_BYTES.check(errorBytes);
            LINK_LIST_BYTES.check(linkListBytes);
            CrawlScope.URL_LENGTH_LIMIT.check(urlLength);
        }

        /** Reads the bounds' keys; {@code urlLength} is the scope's {@code max-url-length}. */
        public static Limits from(Settings s, int urlLength) {
            return new Limits(s.get(ETAG_BYTES), s.get(LAST_MODIFIED_BYTES), s.get(CONTENT_TYPE_BYTES),
                    s.get(RETRY_AFTER_BYTES), s.get(ERROR_BYTES), s.get(LINK_LIST_BYTES), urlLength);
        }
    }

    /** JSON bytes a link of the link graph costs besides its URL (field names, fingerprint, IP). */
    public static final int LINK_OVERHEAD_BYTES = 96;

    private final Limits limits;
    private final Listener listener;

    public ValueBounds(Limits limits, Listener listener) {
        this.limits = java.util.Objects.requireNonNull(limits, "limits");
        this.listener = java.util.Objects.requireNonNull(listener, "listener");
    }

    public Limits limits() {
        return limits;
    }

    /** The ETag to keep, or null: dropped when over {@code max-etag-bytes} or not visible ASCII. */
    public String etag(String v) {
        return validator(Field.ETAG, v, limits.etagBytes());
    }

    /** The Last-Modified to keep, or null (as for the ETag). */
    public String lastModified(String v) {
        return validator(Field.LAST_MODIFIED, v, limits.lastModifiedBytes());
    }

    /** The Retry-After to act on, or null (as for the ETag). */
    public String retryAfter(String v) {
        return validator(Field.RETRY_AFTER, v, limits.retryAfterBytes());
    }

    /** The Content-Type to keep: cut to {@code max-content-type-bytes}. */
    public String contentType(String v) {
        return truncate(Field.CONTENT_TYPE, v, limits.contentTypeBytes());
    }

    /** The error text to keep: cut to {@code max-error-bytes}. */
    public String error(String v) {
        return truncate(Field.ERROR, v, limits.errorBytes());
    }

    /** A normalised redirect target to keep, or null when longer than {@code max-url-length}. */
    public String redirectTarget(String url) {
        if (url == null || url.length() <= limits.urlLength()) {
            return url;
        }
        listener.bounded(Field.REDIRECT_TARGET, Action.DROPPED, Reason.TOO_LONG);
        return null;
    }

    /** JSON bytes one link of {@code url} costs in the link graph (an upper bound). */
    public static long linkBytes(String url) {
        return utf8Length(url) + LINK_OVERHEAD_BYTES;
    }

    /**
     * Whether a link graph already holding {@code usedBytes} of links may take one more of {@code linkBytes}
     * ({@code max-link-list-bytes}). The caller keeps a prefix: once a link does not fit it stops adding, and
     * reports the cut once with {@link #linkListTruncated()}.
     */
    public boolean linkFits(long usedBytes, long linkBytes) {
        return usedBytes + linkBytes <= limits.linkListBytes();
    }

    /** Reports that a page's link graph was cut at {@code max-link-list-bytes}. */
    public void linkListTruncated() {
        listener.bounded(Field.LINK_LIST, Action.TRUNCATED, Reason.TOO_LONG);
    }

    private String validator(Field field, String v, int max) {
        if (v == null) {
            return null;
        }
        // a validator is ASCII, so its UTF-8 length is its length; length > max is the cheap first test
        if (v.length() > max) {
            listener.bounded(field, Action.DROPPED, Reason.TOO_LONG);
            return null;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7E) {
                listener.bounded(field, Action.DROPPED, Reason.INVALID);
                return null;
            }
        }
        return v;
    }

    private String truncate(Field field, String v, int max) {
        if (v == null || v.length() <= max / 3 || utf8Length(v) <= max) {
            return v; // at most 3 UTF-8 bytes per char: short strings need no count
        }
        String cut = cutToUtf8(v, max);
        listener.bounded(field, Action.TRUNCATED, Reason.TOO_LONG);
        assert utf8Length(cut) <= max : "truncated " + field + " still over " + max;
        return cut;
    }

    /** The longest prefix of {@code s} whose UTF-8 encoding fits {@code max} bytes, never splitting a pair. */
    static String cutToUtf8(String s, int max) {
        int bytes = 0;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int n;
            int chars = 1;
            if (c < 0x80) {
                n = 1;
            } else if (c < 0x800) {
                n = 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n = 4;
                chars = 2;
            } else {
                n = 3; // BMP, or a lone surrogate (written as one replacement character, 3 bytes)
            }
            if (bytes + n > max) {
                break;
            }
            bytes += n;
            i += chars;
        }
        return s.substring(0, i);
    }

    /** UTF-8 bytes of {@code s} (a lone surrogate counts as the 3-byte replacement character). */
    public static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
