package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.LinkStore;
import java.util.function.IntPredicate;

/**
 * PageRank of the crawled graph as paper 002's batch-PR baseline keeps it (§4.2, after Cho, Garcia-Molina and Page
 * 1998): the URLs known so far, the links of the fetched pages, one power iteration from the previous values every
 * {@code recomputeEvery} fetches. {@link BatchPageRank} orders by it alone; {@link NewSiteRecomputedPageRankOrdering}
 * (ours) also adds to it between recomputations. Both hold one of these, so the recomputation is written once.
 *
 * <p>A URL valued for the first time starts the iteration at {@code 1/N} (N = URLs known); unfetched URLs and fetched
 * pages without links are dangling, their mass spread evenly; the random jump is {@code 1 - damping}. Invariants: every
 * node is recorded as known at most once and as fetched at most once (the caller's {@link FrontierOrdering} states
 * guarantee it); a recomputation maps the sum S of the known URLs' values (first-time ones at 1/N) to
 * {@code (1 - damping) + damping · S}, so the values sum to 1 when no URL is new and nothing was raised since the last
 * one. Cost: O(outdeg) per fetch, O(known URLs + known links) per recomputation. Not thread-safe.
 */
final class CrawledGraphPageRank {

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

    CrawledGraphPageRank(int numNodes, int recomputeEvery, double damping) {
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

    /** A URL became known. */
    void discovered(int node) {
        known[knownCount++] = node;
    }

    /**
     * A page was fetched with these links: stores its distinct links and counts the fetch towards the next
     * recomputation.
     *
     * @return whether a recomputation is due now (every {@code recomputeEvery} fetches)
     */
    boolean fetched(int page, int[] pageLinks, int from, int to) {
        links.add(page, pageLinks, from, to);
        fetchedPages[fetchedCount++] = page;
        if (++sinceRecompute >= recomputeEvery) {
            sinceRecompute = 0;
            return true;
        }
        return false;
    }

    /**
     * One power iteration over the crawled graph from the previous values; {@code isFetched} tells fetched pages from
     * URLs only known.
     */
    void recompute(IntPredicate isFetched) {
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
        recomputations++;
    }

    /** The value of {@code node}: its last one, or {@code 1/N} if no recomputation has valued it yet. */
    double valueOrInitial(int node) {
        return valued[node] ? rank[node] : 1.0 / knownCount;
    }

    /** The values by node (0 for a node never valued nor raised); the caller may raise entries with {@link #raise}. */
    double[] values() {
        return rank;
    }

    /** Adds {@code amount} to the value of {@code node} (ours: the incremental part between recomputations). */
    void raise(int node, double amount) {
        rank[node] += amount;
    }

    /** The known URLs, {@code [0, knownCount())}, in discovery order. */
    int[] known() {
        return known;
    }

    int knownCount() {
        return knownCount;
    }

    LinkStore links() {
        return links;
    }

    double damping() {
        return damping;
    }

    int recomputations() {
        return recomputations;
    }

    int recomputeEvery() {
        return recomputeEvery;
    }
}
