package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.LinkList;

import java.util.List;

/**
 * The incremental-PageRank state of one URL in the ranker's store (key: URL fingerprint), on the partition that owns
 * the URL's host: its approximate score, AR's accumulator, whether it was fetched, and — only where the cut-off
 * propagates beyond the direct outlinks (VR, AR) — its distinct outlinks. Stored in binary ({@link RankPageCodec},
 * which still reads the earlier JSON form), with a format version.
 *
 * @param ip       the key the URL's messages arrive under, used to publish its score
 * @param outlinks distinct outlinks in document order; empty when unfetched or when the cut-off is DL1
 * @param degree   number of distinct outlinks (kept even when the list itself is not stored)
 * @param epoch    the task's publication epoch when the entry was last written ({@link UnpublishedScores}); in the
 *                 epoch mark (no URL) the task's current epoch. Absent in entries written before it existed (0)
 */
public record RankPage(int v, String url, String ip, double score, double accumulated, boolean fetched, int degree,
                       List<LinkList.Link> outlinks, long epoch) {
    public static final int VERSION = 1;

    /** How the page store carries publication epochs. */
    static final UnpublishedScores.Epochs<RankPage> EPOCHS = new UnpublishedScores.Epochs<>() {
        @Override
        public long epochOf(RankPage value) {
            return value.epoch();
        }

        @Override
        public RankPage mark(long epoch) {
            return new RankPage(VERSION, null, null, 0.0, 0.0, false, 0, List.of(), epoch);
        }

        @Override
        public boolean publishable(RankPage value) {
            return !value.fetched() && value.url() != null;
        }
    };

    public RankPage {
        outlinks = outlinks == null ? List.of() : List.copyOf(outlinks);
    }

    /** A URL first heard of: score 0, not fetched. */
    public static RankPage unfetched(String url, String ip) {
        return new RankPage(VERSION, url, ip, 0.0, 0.0, false, 0, List.of(), 0);
    }

    RankPage withScore(double newScore, double newAccumulated, long newEpoch) {
        return new RankPage(v, url, ip, newScore, newAccumulated, fetched, degree, outlinks, newEpoch);
    }

    RankPage asFetched(double newScore, int newDegree, List<LinkList.Link> storedOutlinks, long newEpoch) {
        return new RankPage(v, url, ip, newScore, 0.0, true, newDegree, storedOutlinks, newEpoch);
    }
}
