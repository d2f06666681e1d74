package io.github.kcrawler.common.model;

/**
 * A score contribution to one URL, travelling to the partition that owns it. Topic {@code crawl.rank.deltas}.
 *
 * @param depth how many links the amount has travelled from the fetched page: 1 for a fetched page's direct
 *              outlinks, more where incremental PageRank's VR and AR cut-offs propagate further (format version 2;
 *              a version-1 record has no depth and is read as 1)
 */
public record RankDelta(int v, String url, long fingerprint, double amount, int depth) {
    public static final int VERSION = 2;

    public RankDelta {
        if (depth == 0) {
            depth = 1;
        }
    }

    /** A contribution to a direct outlink of a fetched page. */
    public static RankDelta of(String url, long fingerprint, double amount) {
        return new RankDelta(VERSION, url, fingerprint, amount, 1);
    }

    public static RankDelta of(String url, long fingerprint, double amount, int depth) {
        return new RankDelta(VERSION, url, fingerprint, amount, depth);
    }
}
