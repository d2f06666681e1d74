package io.github.kcrawler.common.model;

/** The current priority score of one URL. Topic {@code crawl.rank.scores}, key: host IP. */
public record RankScore(int v, String url, long fingerprint, double score) {
    public static final int VERSION = 1;

    public static RankScore of(String url, long fingerprint, double score) {
        return new RankScore(VERSION, url, fingerprint, score);
    }
}
