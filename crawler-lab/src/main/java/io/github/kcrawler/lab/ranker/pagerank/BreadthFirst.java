package io.github.kcrawler.lab.ranker.pagerank;

/**
 * Baseline BF of paper 002 (§4.2): URLs are fetched in the order they were discovered, off-site links of a page
 * before its same-site links. All priorities stay 0, so the frontier's discovery-order tie rule is the whole
 * strategy.
 */
public final class BreadthFirst extends FrontierOrdering {

    public static final String NAME = "BF";

    public BreadthFirst(NodeLabels labels) {
        super(NAME, labels);
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        // breadth-first: no priorities change
    }
}
