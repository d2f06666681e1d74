package io.github.kcrawler.ranker.ranking;

import io.github.kcrawler.common.model.LinkList;

import java.util.List;

/**
 * How page scores are computed, kept free of Kafka so the Streams processors, the simulator and the benchmarks run
 * the same code. The ranker splits the work in two halves that meet over the {@code crawl.rank.deltas} topic: on
 * the source page's partition a fetched page's outlinks become {@link Contribution}s; on each target's partition
 * the contributions are folded into its score with {@link #accumulate}. The foundation strategy is
 * {@link BacklinkCounter}; incremental PageRank (DESIGN §4.3) replaces it behind this interface.
 */
public interface RankingStrategy {
    /**
     * The contributions a fetched page makes to the pages it links to.
     *
     * @param sourceFingerprint fingerprint of the fetched page
     * @param outlinks          its outlinks, already validated (non-blank URL and IP, fingerprint matching the URL)
     */
    List<Contribution> contributions(long sourceFingerprint, List<LinkList.Link> outlinks);

    /** The score of a page after it receives {@code amount}; a page never seen before has score 0. */
    double accumulate(double currentScore, double amount);
}
