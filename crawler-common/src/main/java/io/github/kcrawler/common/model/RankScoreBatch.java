package io.github.kcrawler.common.model;

import java.util.List;

/**
 * The scores one ranker partition publishes in one flush. Topic {@code crawl.rank.scores}, key: the IP of one of
 * the entries' hosts; every entry's IP hashes to the key's partition, so the scheduler task owning those hosts reads
 * them. Compact JSON, e.g.
 * {@code {"v":2,"scores":[{"url":"http://a.test/","fingerprint":-42,"ip":"10.0.0.2","score":1.5}]}}.
 *
 * <p>Format 2 replaced one record per URL (format 1, one {@code RankScore} per record); an old record reads with
 * {@code v = 1} and no entries and is refused as an unsupported version.
 *
 * @param scores the entries (null only in a record read from the topic, which readers refuse)
 */
public record RankScoreBatch(int v, List<RankScore> scores) {
    public static final int VERSION = 2;
    /** Readers refuse a batch with more entries than this (writers cut batches far below it). */
    public static final int MAX_ENTRIES = 100_000;

    public RankScoreBatch {
        scores = scores == null ? null : List.copyOf(scores);
    }

    public static RankScoreBatch of(List<RankScore> scores) {
        return new RankScoreBatch(VERSION, scores);
    }
}
