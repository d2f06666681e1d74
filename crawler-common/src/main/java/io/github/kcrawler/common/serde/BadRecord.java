package io.github.kcrawler.common.serde;

import java.util.Locale;

/**
 * Why an input record (or one outlink of it) was skipped: the {@code reason} tag of {@code crawler.records.bad}.
 * Every reason is registered up front for every input topic so dashboards see zeros rather than missing series.
 * Never reorder or rename: the tag values are what operators alert on.
 */
public enum BadRecord {
    /** The value is not JSON of the expected shape. */
    MALFORMED,
    /** A tombstone (null value) where a payload was expected. */
    NULL_VALUE,
    /** No key: the record cannot be tied to its host's partition. */
    MISSING_KEY,
    /** The payload's format version {@code v} is not one this build understands. */
    UNSUPPORTED_VERSION,
    /** The URL is null or blank. */
    BLANK_URL,
    /** The fingerprint does not match the URL it came with. */
    FINGERPRINT_MISMATCH,
    /** The link depth is negative. */
    NEGATIVE_DEPTH,
    /** One outlink of a link list has no URL, no IP or a wrong fingerprint; the rest of the list is used. */
    INVALID_OUTLINK,
    /** A score delta that is not a finite number. */
    INVALID_AMOUNT;

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /** The metric tag value, e.g. {@code invalid-outlink}. */
    public String tag() {
        return tag;
    }
}
