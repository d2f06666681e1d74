package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A fetched page's revisit state as it travels with the work (issue 22, DESIGN §4.4): the scheduler's SAT/L queue
 * hands a due page out as a {@link FetchKind#REVISIT} {@link FetchRequest} carrying this memo, the fetcher echoes it
 * unchanged into the {@link FetchResult}, and the scheduler computes the page's next state from the result alone —
 * no per-page read of a store. Optional everywhere (null on first fetches and in records written before issue 22),
 * so old records still decode. Absent fields are left out of its JSON ({@code NON_NULL}; a missing field reads as
 * null, as before), and the validators travel once per request: here, not also as the request's own {@code etag}
 * and {@code lastModified} (the fetcher reads them from whichever carries them). Every string is bounded by the
 * scheduler before it sends a memo (validators at {@link #MAX_VALIDATOR_BYTES}, the content hash is 32 hex digits).
 *
 * @param v              format version ({@value #VERSION})
 * @param etag           validator the scheduler keeps for the page (also sent as If-None-Match), or null
 * @param lastModified   validator (HTTP date; also sent as If-Modified-Since), or null
 * @param contentHash    fingerprint of the body last seen, or null
 * @param visits         revisits compared with the previous copy so far (n)
 * @param changes        of those, how many found the page changed (X ≤ n)
 * @param observedUnits  time units covered by those n comparisons
 * @param intervalUnits  the revisit interval in force, in units
 * @param firstFetchedMs when the page was first fetched (epoch millis)
 * @param lastFetchedMs  when the page was last fetched (epoch millis)
 * @param changedUnits   of {@code observedUnits}, the units covered by the X comparisons that found a change (issue
 *                       21; 0 in memos written before it)
 * @param changedIntervals the lengths of those X intervals, summarised in {@link ChangeIntervals#BUCKETS} classes
 *                       (issue 21; null in memos written before it)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RevisitMemo(int v, String etag, String lastModified, String contentHash, long visits, long changes,
                          long observedUnits, long intervalUnits, long firstFetchedMs, long lastFetchedMs,
                          long changedUnits, ChangeIntervals changedIntervals) {
    public static final int VERSION = 1;
    /** Longest ETag or Last-Modified a memo carries, in UTF-8 bytes (the fetcher's bound for both headers). */
    public static final int MAX_VALIDATOR_BYTES = 256;

    /** Largest count or span a memo may hold (2^40): far beyond any real history, far from overflowing a sum. */
    public static final long MAX_COUNT = 1L << 40;

    /**
     * True when the memo can be continued (a forged or corrupted record may hold anything): counts and spans within
     * [0, {@link #MAX_COUNT}], X ≤ n, an interval ≥ 1, a last fetch after 1970 and not before the first, the changed
     * span within the observed one. A change-interval summary that does not match X is not refused: the scheduler
     * reads it as a memo written before issue 21 (all X changed intervals at their mean length).
     */
    /** A memo without the change-interval fields (as written before issue 21). */
    public RevisitMemo(int v, String etag, String lastModified, String contentHash, long visits, long changes,
                       long observedUnits, long intervalUnits, long firstFetchedMs, long lastFetchedMs) {
        this(v, etag, lastModified, contentHash, visits, changes, observedUnits, intervalUnits, firstFetchedMs,
                lastFetchedMs, 0, null);
    }

    public boolean isUsable() {
        return v >= 1 && v <= VERSION && visits >= 0 && visits <= MAX_COUNT && changes >= 0 && changes <= visits
                && observedUnits >= 0 && observedUnits <= MAX_COUNT && intervalUnits > 0
                && intervalUnits <= MAX_COUNT && lastFetchedMs > 0 && firstFetchedMs >= 0
                && firstFetchedMs <= lastFetchedMs && changedUnits >= 0 && changedUnits <= observedUnits;
    }
}
