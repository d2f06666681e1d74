package io.github.kcrawler.common.model;

/**
 * A score contribution to one URL, one entry of a {@link RankDeltaBatch} on {@code crawl.rank.deltas}: the ranker
 * sends a page's contributions to the partition owning each target, one record per target partition.
 *
 * @param url         the target's normalised URL
 * @param fingerprint the target's URL fingerprint
 * @param ip          the IP the target's host resolved to (its partition is the partition of the batch's key)
 * @param amount      the score given
 * @param depth       how many links the amount has travelled from the fetched page: 1 for a fetched page's direct
 *                    outlinks, more where incremental PageRank's VR and AR cut-offs propagate further (0 is read
 *                    as 1)
 */
public record RankDelta(String url, long fingerprint, String ip, double amount, int depth) {
    public RankDelta {
        if (depth == 0) {
            depth = 1;
        }
    }

    /** A contribution to a direct outlink of a fetched page. */
    public static RankDelta of(String url, long fingerprint, String ip, double amount) {
        return new RankDelta(url, fingerprint, ip, amount, 1);
    }

    public static RankDelta of(String url, long fingerprint, String ip, double amount, int depth) {
        return new RankDelta(url, fingerprint, ip, amount, depth);
    }
}
