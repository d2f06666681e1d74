package io.github.kcrawler.lab.ranker.pagerank;

/**
 * Baseline PR of paper 002 (§4.2, after Cho, Garcia-Molina and Page 1998): PageRank of the crawled graph (fetched
 * pages and the URLs they link to), recomputed every {@code recomputeEvery} fetches — the paper recomputed every
 * 165,000 of 16.5 M pages, about 100 times per crawl — with a single power iteration started from the previous
 * values and no convergence test ({@link CrawledGraphPageRank}). The frontier is re-sorted with the new values after
 * each recomputation.
 *
 * <p>Details the paper leaves open, as chosen here: a URL discovered since the last recomputation has priority 0
 * until the next one (it is fetched after every URL that has a value, in discovery order) and starts the iteration
 * at {@code 1/N} (N = URLs known); unfetched URLs have no known outlinks and, like fetched pages without outlinks,
 * are dangling — their mass is spread uniformly, which lifts every value equally and does not change the order; the
 * random jump is {@code 1 - damping} = 15%.
 *
 * <p>Cost: O(known URLs + known links) per recomputation, so O(crawl × links / recomputeEvery) over a crawl — it
 * grows with the crawl, unlike incremental PageRank's per-fetch cost.
 */
public final class BatchPageRank extends FrontierOrdering {

    public static final String NAME = "PR";
    public static final double DEFAULT_DAMPING = 0.85;

    private final CrawledGraphPageRank graph;

    public BatchPageRank(NodeLabels labels, int recomputeEvery, double damping) {
        super(NAME, labels);
        this.graph = new CrawledGraphPageRank(numNodes, recomputeEvery, damping);
    }

    @Override
    protected void onDiscovered(int node) {
        graph.discovered(node);
    }

    @Override
    protected void onFetched(int page, int[] pageLinks, int from, int to) {
        if (graph.fetched(page, pageLinks, from, to)) {
            graph.recompute(this::isFetched);
            reprioritizeFrontier(graph.values());
        }
    }

    @Override
    protected double initialPriority(int node) {
        return 0.0;
    }

    /** Recomputations done so far. */
    public int recomputations() {
        return graph.recomputations();
    }

    public int recomputeEvery() {
        return graph.recomputeEvery();
    }
}
