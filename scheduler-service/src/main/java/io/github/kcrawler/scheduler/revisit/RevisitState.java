package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.serde.JsonSerde;

/**
 * What the crawler knows about one fetched page for revisiting it (DESIGN §4.4): the validators for a conditional
 * GET, the fingerprint of the body last seen, and the change history the Cho–Garcia-Molina estimator reads. Stored as
 * the record of the page in the partition's {@link SatlStore} (about 200 bytes of JSON, the paper's record size) and
 * mirrored in a changelog-backed store for crash recovery. JSON with a format version.
 *
 * @param visits        revisits compared with the previous copy so far (n)
 * @param changes       of those, how many found the page changed (X ≤ n)
 * @param observedUnits time units covered by those n comparisons (the mean interval is observedUnits / n)
 * @param intervalUnits the interval in force
 * @param lastFetchedMs when the page was last fetched (epoch millis)
 * @param dueUnit       time unit of the next revisit
 */
public record RevisitState(int v, String url, long fingerprint, String ip, int depth, String etag,
                           String lastModified, String contentHash, long visits, long changes, long observedUnits,
                           long intervalUnits, long lastFetchedMs, long dueUnit) {
    public static final int VERSION = 1;
    public static final JsonSerde<RevisitState> SERDE = JsonSerde.of(RevisitState.class);

    /** True when the record can be scheduled (a corrupted or hand-edited changelog may hold junk). */
    public boolean isUsable() {
        return v >= 1 && v <= VERSION && url != null && !url.isBlank() && ip != null && !ip.isBlank()
                && visits >= 0 && changes >= 0 && changes <= visits && intervalUnits > 0;
    }
}
