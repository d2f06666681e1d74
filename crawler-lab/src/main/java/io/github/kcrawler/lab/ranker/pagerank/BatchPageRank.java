package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.LinkStore;

/**
 * Baseline PR of paper 002 (§4.2, after Cho, Garcia-Molina and Page 1998): PageRank of the crawled graph (fetched
 * pages and the URLs they link to), recomputed every {@code recomputeEvery} fetches — the paper recomputed every
 * 165,000 of 16.5 M pages, about 100 times per crawl — with a single power iteration started from the previous
 * values and no convergence test. The frontier is re-sorted with the new values after each recomputation.
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

    private final int recomputeEvery;
    private final double damping;
    private final LinkStore links;
    private final double[] rank;
    private final double[] next;
    private final boolean[] valued;
    private final int[] known;
    private final int[] fetchedPages;
    private int knownCount;
    private int fetchedCount;
    private int sinceRecompute;
    private int recomputations;

    public BatchPageRank(NodeLabels labels, int recomputeEvery, double damping) {
        super(NAME, labels);
        if (recomputeEvery < 1) {
            throw new IllegalArgumentException("recomputeEvery must be >= 1, was " + recomputeEvery);
        }
        if (!(damping > 0 && damping < 1)) {
            throw new IllegalArgumentException("damping must be in (0, 1), was " + damping);
        }
        this.recomputeEvery = recomputeEvery;
        this.damping = damping;
        this.links = new LinkStore(numNodes);
        this.rank = new double[numNodes];
        this.next = new double[numNodes];
        this.valued = new boolean[numNodes];
        this.known = new int[numNodes];
        this.fetchedPages = new int[numNodes];
    }

    @Override
    protected void onDiscovered(int node) {
        known[knownCount++] = node;
    }

    @Override
    protected void onFetched(int page, int[] pageLinks, int from, int to) {
        links.add(page, pageLinks, from, to);
        fetchedPages[fetchedCount++] = page;
        if (++sinceRecompute >= recomputeEvery) {
            sinceRecompute = 0;
            recompute();
        }
    }

    /** One power iteration over the crawled graph from the previous values, then a re-sort of the frontier. */
    private void recompute() {
        powerIteration(known, knownCount, valued, rank, next, links, fetchedPages, fetchedCount, damping,
                this::isFetched);
        recomputations++;
        reprioritizeFrontier(rank);
    }

    @Override
    protected double initialPriority(int node) {
        return 0.0;
    }

    /** Recomputations done so far. */
    public int recomputations() {
        return recomputations;
    }

    public int recomputeEvery() {
        return recomputeEvery;
    }

    /**
     * One power iteration of PageRank over the crawled graph, from the previous values: the known pages
     * {@code known[0..knownCount)} (a page valued for the first time starts at 1/n), the fetched pages' links in
     * {@code links}; unfetched and out-link-free pages are dangling, their rank spread evenly. Leaves the new values in
     * {@code rank} and uses {@code next} as scratch. Shared with {@link NewSiteRecomputedPageRankOrdering}.
     */
    static void powerIteration(int[] known, int knownCount, boolean[] valued, double[] rank, double[] next,
                               LinkStore links, int[] fetchedPages, int fetchedCount, double damping,
                               java.util.function.IntPredicate isFetched) {
        int n = knownCount;
        double init = 1.0 / n;
        double dangling = 0.0;
        for (int i = 0; i < n; i++) {
            int v = known[i];
            if (!valued[v]) {
                valued[v] = true;
                rank[v] = init;
            }
            next[v] = 0.0;
            if (!isFetched.test(v) || links.degree(v) == 0) {
                dangling += rank[v];
            }
        }
        int[] pool = links.pool();
        for (int i = 0; i < fetchedCount; i++) {
            int u = fetchedPages[i];
            int d = links.degree(u);
            if (d == 0) {
                continue;
            }
            double share = damping * rank[u] / d;
            int s = links.start(u);
            for (int k = s; k < s + d; k++) {
                next[pool[k]] += share;
            }
        }
        double base = (1.0 - damping) / n + damping * dangling / n;
        for (int i = 0; i < n; i++) {
            int v = known[i];
            rank[v] = base + next[v];
        }
    }
}
