package io.github.kcrawler.ranker.pagerank;

/**
 * Strategy IPR of paper 002 (§4.2): the frontier ordered by {@link IncrementalPageRank}'s approximate score, highest
 * first; the score of an unfetched URL is its priority. Named {@code IPR-DL1}, {@code IPR-PL}, {@code IPR-VR} or
 * {@code IPR-AR} after the cut-off.
 */
public final class IncrementalPageRankOrdering extends FrontierOrdering {

    private final IncrementalPageRank rank;
    private final IncrementalPageRank.ScoreListener listener = this::setPriority;

    public IncrementalPageRankOrdering(NodeLabels labels, IprParams params) {
        super(params.cutOff().strategyName(), labels);
        this.rank = new IncrementalPageRank(params, labels.numNodes());
    }

    @Override
    protected double initialPriority(int node) {
        return rank.score(node);
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        rank.fetch(page, links, from, to, listener);
    }

    /** The underlying scores. */
    public IncrementalPageRank rank() {
        return rank;
    }
}
