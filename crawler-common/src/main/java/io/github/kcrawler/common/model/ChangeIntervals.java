package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;

/**
 * A bounded summary of the intervals after which a page was found changed (issue 21 item 4; ours): how many of them
 * fell in each power-of-two length class, {@code [2^b, 2^(b+1))} time units for b = 0 … {@value #BUCKETS} − 2, the
 * last class holding everything from 2^({@value #BUCKETS} − 1) units up. Cho &amp; Garcia-Molina's estimator for
 * irregular access intervals ("Estimating frequency of change", ACM TOIT 2003, §4.3) needs the length of every
 * interval in which a change was detected; a page revisited for years would need an unbounded list. This class keeps
 * at most {@value #BUCKETS} counts instead (at most ~{@value #MAX_JSON_BYTES} bytes of JSON); with the exact sum of
 * those lengths kept beside it ({@code changedUnits}) the estimator replaces each length by its class's geometric
 * midpoint, rescaled so that the sum is exact (DESIGN §4.4). With one-minute units the classes reach 2^20 minutes
 * (728 days), beyond the 400-day maximum interval.
 *
 * <p>JSON: an array of counts without trailing zeros ({@code [0,2,1]}). Untrusted input (a memo may come from any
 * producer) never throws: an array that is too long, or holds a negative or too large count, reads as an instance
 * that is not {@link #valid()}, which the scheduler treats like a record written before the field existed.
 *
 * <p>Invariants: immutable; when valid, {@code counts.length == BUCKETS}, every count in [0, {@link
 * RevisitMemo#MAX_COUNT}] and {@link #total()} is their sum.
 */
public final class ChangeIntervals {
    /** Length classes kept: 2^0 … 2^20 units and above. */
    public static final int BUCKETS = 21;
    /** Largest JSON of a valid instance: 21 counts of at most 13 digits, commas and brackets. */
    public static final int MAX_JSON_BYTES = BUCKETS * 14 + 1;
    /** No change observed yet. */
    public static final ChangeIntervals EMPTY = new ChangeIntervals(new long[BUCKETS], 0, true);
    private static final ChangeIntervals INVALID = new ChangeIntervals(new long[BUCKETS], 0, false);

    private final long[] counts;
    private final long total;
    private final boolean valid;

    private ChangeIntervals(long[] counts, long total, boolean valid) {
        this.counts = counts;
        this.total = total;
        this.valid = valid;
    }

    /** From the JSON array (null or empty = {@link #EMPTY}); never throws. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChangeIntervals of(long[] counts) {
        if (counts == null || counts.length == 0) {
            return EMPTY;
        }
        if (counts.length > BUCKETS) {
            return INVALID;
        }
        long[] c = new long[BUCKETS];
        long total = 0;
        for (int b = 0; b < counts.length; b++) {
            long v = counts[b];
            if (v < 0 || v > RevisitMemo.MAX_COUNT) {
                return INVALID;
            }
            c[b] = v;
            total += v; // ≤ 21 · 2^40: no overflow
        }
        return new ChangeIntervals(c, total, true);
    }

    /** The class of an interval of {@code units} (≥ 1; smaller values count as 1): ⌊log2 units⌋, capped. */
    public static int bucket(long units) {
        long u = Math.max(1, units);
        return Math.min(BUCKETS - 1, 63 - Long.numberOfLeadingZeros(u));
    }

    /** This summary with one more changed interval of {@code units}; an invalid one stays invalid. */
    public ChangeIntervals plus(long units) {
        if (!valid) {
            return this;
        }
        long[] c = counts.clone();
        int b = bucket(units);
        if (c[b] >= RevisitMemo.MAX_COUNT) {
            return this; // a history of 2^40 changes: the estimate no longer moves, the record stays bounded
        }
        c[b]++;
        return new ChangeIntervals(c, total + 1, true);
    }

    /** All {@code n} changed intervals in the class of {@code units}: how a record without the field is read. */
    public static ChangeIntervals allIn(long n, long units) {
        if (n <= 0) {
            return EMPTY;
        }
        long[] c = new long[BUCKETS];
        c[bucket(units)] = Math.min(n, RevisitMemo.MAX_COUNT);
        return new ChangeIntervals(c, c[bucket(units)], true);
    }

    public long count(int bucket) {
        return counts[bucket];
    }

    /** Changed intervals summarised (the page's X when consistent). */
    public long total() {
        return total;
    }

    /** False when the JSON it was read from was not a summary (too long, negative or oversized counts). */
    public boolean valid() {
        return valid;
    }

    /** The JSON form: the counts up to the last non-zero one (an invalid instance writes as empty). */
    @JsonValue
    public long[] toArray() {
        int len = BUCKETS;
        while (len > 0 && counts[len - 1] == 0) {
            len--;
        }
        return Arrays.copyOf(counts, valid ? len : 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChangeIntervals c && c.valid == valid && Arrays.equals(c.counts, counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts) * 31 + (valid ? 1 : 0);
    }

    @Override
    public String toString() {
        return valid ? Arrays.toString(toArray()) : "invalid";
    }
}
