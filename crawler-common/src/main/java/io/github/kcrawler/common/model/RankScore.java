package io.github.kcrawler.common.model;

/**
 * The current priority score of one URL, one entry of a {@link RankScoreBatch} on {@code crawl.rank.scores}.
 *
 * @param ip the IP of the URL's host (its partition is the partition of the batch's key)
 */
public record RankScore(String url, long fingerprint, String ip, double score) {
    public static RankScore of(String url, long fingerprint, String ip, double score) {
        return new RankScore(url, fingerprint, ip, score);
    }
}
