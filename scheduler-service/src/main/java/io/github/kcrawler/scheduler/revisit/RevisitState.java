package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.JsonSerde;

/**
 * What the crawler knows about one fetched page for revisiting it (DESIGN §4.4): the validators for a conditional
 * GET, the fingerprint of the body last seen, and the change history the Cho–Garcia-Molina estimator reads. Stored as
 * the record of the page in the partition's {@link SatlStore} (binary, {@link RevisitStateCodec}: about 110 bytes, most
 * of them the URL; the paper's record is ~200 bytes) and, while the page is being fetched, carried on the work as a
 * {@link RevisitMemo} (issue 22). JSON ({@link #SERDE}) only in the {@code revisit-state=store} baseline's RocksDB
 * store and in SAT/L records written before the binary codec; at most {@link RevisitRecords#MAX_RECORD_BYTES} as a
 * SAT/L record.
 *
 * <p>Size (issue 22 item 4, issue 21): the two change-interval fields add at most 20 + 19 digits for changedUnits
 * and {@link ChangeIntervals#MAX_JSON_BYTES} for the summary plus their names — a fixed bound of about 350 bytes,
 * typically 40 (a page changed a few times has one or two non-zero classes). The record stays far below
 * {@link RevisitRecords#MAX_RECORD_BYTES}, whose fitting rules are unchanged.
 *
 * @param visits         revisits compared with the previous copy so far (n)
 * @param changes        of those, how many found the page changed (X ≤ n)
 * @param observedUnits  time units covered by those n comparisons (the mean interval is observedUnits / n)
 * @param intervalUnits  the interval in force
 * @param lastFetchedMs  when the page was last fetched (epoch millis)
 * @param dueUnit        time unit of the next revisit
 * @param firstFetchedMs when the page was first fetched (epoch millis; 0 in states written before issue 22)
 * @param changedUnits   of observedUnits, the units covered by the X comparisons that found a change: with it the
 *                       irregular-interval estimator has Σ t_uj = observedUnits − changedUnits exactly (issue 21; 0
 *                       in states written before it)
 * @param changedIntervals the lengths of those X intervals in 21 power-of-two classes, for the same estimator's
 *                       Σ t_ci / (e^{λ t_ci} − 1) (issue 21; null in states written before it, which
 *                       {@link ChangeRateEstimator} then reads as a regular history)
 *
 */
public record RevisitState(int v, String url, long fingerprint, String ip, int depth, String etag,
                           String lastModified, String contentHash, long visits, long changes, long observedUnits,
                           long intervalUnits, long lastFetchedMs, long dueUnit, long firstFetchedMs,
                           long changedUnits, ChangeIntervals changedIntervals) {
    public static final int VERSION = 1;
    public static final JsonSerde<RevisitState> SERDE = JsonSerde.of(RevisitState.class);

    /** A state without the change-interval fields (as written before issue 21). */
    public RevisitState(int v, String url, long fingerprint, String ip, int depth, String etag, String lastModified,
                        String contentHash, long visits, long changes, long observedUnits, long intervalUnits,
                        long lastFetchedMs, long dueUnit, long firstFetchedMs) {
        this(v, url, fingerprint, ip, depth, etag, lastModified, contentHash, visits, changes, observedUnits,
                intervalUnits, lastFetchedMs, dueUnit, firstFetchedMs, 0, null);
    }

    /** True when the record can be scheduled (a corrupted or hand-edited changelog may hold junk). */
    public boolean isUsable() {
        return v >= 1 && v <= VERSION && url != null && !url.isBlank() && ip != null && !ip.isBlank()
                && visits >= 0 && changes >= 0 && changes <= visits && intervalUnits > 0 && changedUnits >= 0;
    }

    /** The part of the state that travels on a REVISIT request and comes back on its result. */
    public RevisitMemo memo() {
        return new RevisitMemo(RevisitMemo.VERSION, etag, lastModified, contentHash, visits, changes, observedUnits,
                intervalUnits, firstFetchedMs, lastFetchedMs, changedUnits, changedIntervals);
    }

    /** The state of a page from the memo its request carried (its due time is spent: 0). */
    public static RevisitState of(String url, long fingerprint, String ip, int depth, RevisitMemo m) {
        return new RevisitState(VERSION, url, fingerprint, ip, depth, m.etag(), m.lastModified(), m.contentHash(),
                m.visits(), m.changes(), m.observedUnits(), m.intervalUnits(), m.lastFetchedMs(), 0,
                m.firstFetchedMs(), m.changedUnits(), m.changedIntervals());
    }

    public RevisitState withDue(long due) {
        return new RevisitState(v, url, fingerprint, ip, depth, etag, lastModified, contentHash, visits, changes,
                observedUnits, intervalUnits, lastFetchedMs, due, firstFetchedMs, changedUnits, changedIntervals);
    }
}
