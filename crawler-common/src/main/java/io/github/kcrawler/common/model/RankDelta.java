package io.github.kcrawler.common.model;

/** A score contribution to one URL, travelling to the partition that owns it. Topic {@code crawl.rank.deltas}. */
public record RankDelta(int v, String url, long fingerprint, double amount) {
    public static final int VERSION = 1;

    public static RankDelta of(String url, long fingerprint, double amount) {
        return new RankDelta(VERSION, url, fingerprint, amount);
    }
}
