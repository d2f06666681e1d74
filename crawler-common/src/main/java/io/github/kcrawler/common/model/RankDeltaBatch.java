package io.github.kcrawler.common.model;

import java.util.List;

/**
 * The score contributions one input record of the ranker sends to one other partition. Topic
 * {@code crawl.rank.deltas}, key: the IP of one of the entries' hosts, so the record lands on the partition owning
 * all of them (every entry's IP hashes to the same partition as the key). Compact JSON, e.g.
 * {@code {"v":3,"deltas":[{"url":"http://a.test/","fingerprint":-42,"ip":"10.0.0.2","amount":0.5,"depth":1}]}}.
 *
 * <p>Format 3 replaced one record per link (formats 1 and 2, one {@code RankDelta} per record); an old record
 * reads with its {@code v} and no entries and is refused as an unsupported version.
 *
 * @param deltas the entries in the order the sender produced them (never null once constructed by the ranker; a
 *               record read from the topic may carry null, which readers refuse)
 */
public record RankDeltaBatch(int v, List<RankDelta> deltas) {
    public static final int VERSION = 3;
    /** Readers refuse a batch with more entries than this (writers cut batches far below it). */
    public static final int MAX_ENTRIES = 100_000;

    public RankDeltaBatch {
        deltas = deltas == null ? null : List.copyOf(deltas);
    }

    public static RankDeltaBatch of(List<RankDelta> deltas) {
        return new RankDeltaBatch(VERSION, deltas);
    }
}
