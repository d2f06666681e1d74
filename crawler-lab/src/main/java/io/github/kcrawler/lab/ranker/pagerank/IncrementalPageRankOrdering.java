package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;

/**
 * Strategy IPR of paper 002 (§4.2): the frontier ordered by {@link IncrementalPageRank}'s approximate score, highest
 * first; the score of an unfetched URL is its priority. Named {@code IPR-DL1}, {@code IPR-PL}, {@code IPR-VR} or
 * {@code IPR-AR} after the cut-off.
 *
 * <p>Seeds are fetched first, in the order given (issue 21). The paper crawled from one seed, so it does not say
 * where further seeds go; before this rule an unfetched seed held score 0 — below every URL that had received
 * anything — so with many seeds all but the first waited until the end of the crawl (measured on cnr-2000 with the
 * 100-SCC seeds: criterion B at 20 % 0.348 before, 0.429 after). The scores themselves are the paper's, unchanged: a
 * seed enters the frontier with priority +∞ while its score stays what the rule makes it.
 */
public final class IncrementalPageRankOrdering extends FrontierOrdering {

    private final IncrementalPageRank rank;
    private final boolean[] seed;
    private final IncrementalPageRank.ScoreListener listener = this::scoreChanged;

    public IncrementalPageRankOrdering(NodeLabels labels, IprParams params) {
        super(params.cutOff().strategyName(), labels);
        this.rank = new IncrementalPageRank(params, labels.numNodes());
        this.seed = new boolean[labels.numNodes()];
    }

    @Override
    protected void onSeed(int node) {
        seed[node] = true;
    }

    @Override
    protected double initialPriority(int node) {
        return seed[node] ? Double.POSITIVE_INFINITY : rank.score(node);
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        seed[page] = false;
        rank.fetch(page, links, from, to, listener);
    }

    private void scoreChanged(int node, double score) {
        if (!seed[node]) {
            setPriority(node, score);
        }
    }

    /** The underlying scores. */
    public IncrementalPageRank rank() {
        return rank;
    }
}
