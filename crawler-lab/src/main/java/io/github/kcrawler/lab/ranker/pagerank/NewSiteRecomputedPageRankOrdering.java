package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.LinkStore;
import java.util.Arrays;

/**
 * {@code IPR-NSR}: <b>our</b> ordering (not in paper 002; issue 21 item 1) — PageRank of the crawled graph recomputed
 * periodically and updated incrementally in between, behind the "new site first" tiers of
 * {@link NewSiteIncrementalPageRankOrdering}:
 * <ol>
 *   <li>tier 2: seeds not yet fetched; tier 1: URLs on a host with no fetched page; tier 0: the rest;</li>
 *   <li>inside a tier, the higher estimate {@code r} first, then discovery order (off-site links of a page before
 *   its same-site links, as in every {@link FrontierOrdering}).</li>
 * </ol>
 * The estimate r:
 * <ul>
 *   <li>Every {@code recomputeEvery} fetches — the schedule of the batch-PR baseline ({@link BatchPageRank}, the paper's
 *   "every 1 % of the crawl") — one power iteration over the crawled graph (fetched pages and the URLs they link to)
 *   from the previous values, damping d, the mass of unfetched URLs and of fetched pages without links spread
 *   uniformly, a URL never valued before starting at {@code 1/N} (N = URLs known). This is {@link BatchPageRank}'s
 *   recomputation, unchanged.</li>
 *   <li>Between recomputations, the incremental part (the idea of paper 002's DL1 on PageRank's scale): when p is
 *   fetched, each distinct outlink q still in the frontier gets {@code d · r_p / outdeg(p)} added, with r_p p's
 *   current estimate ({@code 1/N} if p was never valued). The batch-PR baseline leaves such a URL at 0 until the
 *   next recomputation; the paper's IPR keeps its scores but never recomputes them, so a page's late in-links never
 *   reach what it points to.</li>
 * </ul>
 * Why: see {@link NewSiteIncrementalPageRankOrdering} and BENCHMARKS.md ("Crawl ordering on cnr-2000", issue 21). The
 * tiers find the PageRank that only exploration finds; the recomputation lets a page's late in-links reach what it
 * links to, which DL1 drops. The site-level ordering follows Baeza-Yates, Castillo, Marín and Rodríguez, "Crawling a
 * country: better strategies than breadth-first for web page ordering" (WWW 2005); the batch PageRank is Cho,
 * Garcia-Molina and Page (1998) as paper 002 runs it; the combination is ours. No constant is fitted to a graph: d is
 * PageRank's 0.85 and the schedule is the baseline's.
 *
 * <p>Priority encoding as in {@link NewSiteIncrementalPageRankOrdering#priority}: {@code tier + r / (1 + r)}. Cost:
 * O(outdeg) per fetch, O(known URLs + known links) per recomputation (like batch PR) and O(URLs of a host) once per
 * host. Not thread-safe.
 */
public final class NewSiteRecomputedPageRankOrdering extends FrontierOrdering {

    public static final String NAME = "IPR-NSR";

    private final CrawledGraphPageRank graph;
    /** The estimate r: the crawled graph's values, raised between recomputations (the array is the graph's). */
    private final double[] rank;
    private final double[] priorities;
    private final boolean[] seed;
    private final boolean[] hostVisited;
    private final int[] hostHead;
    private final int[] nextInHost;

    public NewSiteRecomputedPageRankOrdering(NodeLabels labels, int recomputeEvery, double damping) {
        super(NAME, labels);
        this.graph = new CrawledGraphPageRank(numNodes, recomputeEvery, damping);
        this.rank = graph.values();
        this.priorities = new double[numNodes];
        this.seed = new boolean[numNodes];
        int hosts = 0;
        for (int v = 0; v < numNodes; v++) {
            int h = labels.hostOf(v);
            if (h < 0) {
                throw new IllegalArgumentException("host of node " + v + " is negative: " + h);
            }
            hosts = Math.max(hosts, h + 1);
        }
        this.hostVisited = new boolean[hosts];
        this.hostHead = new int[hosts];
        Arrays.fill(hostHead, -1);
        this.nextInHost = new int[numNodes];
    }

    private int tier(int node) {
        if (seed[node]) {
            return NewSiteIncrementalPageRankOrdering.TIER_SEED;
        }
        return hostVisited[labels.hostOf(node)] ? NewSiteIncrementalPageRankOrdering.TIER_OTHER
                : NewSiteIncrementalPageRankOrdering.TIER_NEW_SITE;
    }

    private double priorityOf(int node) {
        return NewSiteIncrementalPageRankOrdering.priority(tier(node), rank[node]);
    }

    @Override
    protected void onSeed(int node) {
        seed[node] = true;
    }

    @Override
    protected void onDiscovered(int node) {
        graph.discovered(node);
        int h = labels.hostOf(node);
        nextInHost[node] = hostHead[h];
        hostHead[h] = node;
    }

    @Override
    protected double initialPriority(int node) {
        return priorityOf(node);
    }

    @Override
    protected void onFetched(int page, int[] pageLinks, int from, int to) {
        seed[page] = false;
        int h = labels.hostOf(page);
        if (!hostVisited[h]) {
            hostVisited[h] = true;
            for (int v = hostHead[h]; v >= 0; v = nextInHost[v]) {
                if (inFrontier(v)) {
                    setPriority(v, priorityOf(v));
                }
            }
        }
        boolean recomputeDue = graph.fetched(page, pageLinks, from, to);
        LinkStore links = graph.links();
        int degree = links.degree(page);
        if (degree > 0) {
            double share = graph.damping() * graph.valueOrInitial(page) / degree;
            int[] pool = links.pool();
            int s = links.start(page);
            for (int k = s; k < s + degree; k++) {
                int q = pool[k];
                if (inFrontier(q)) {
                    graph.raise(q, share);
                    setPriority(q, priorityOf(q));
                }
            }
        }
        if (recomputeDue) {
            recompute();
        }
    }

    /** One power iteration over the crawled graph from the previous values (as {@link BatchPageRank}), re-sort. */
    private void recompute() {
        graph.recompute(this::isFetched);
        int[] known = graph.known();
        for (int i = 0, n = graph.knownCount(); i < n; i++) {
            int v = known[i];
            priorities[v] = priorityOf(v);
        }
        reprioritizeFrontier(priorities);
    }

    /** The current estimate of {@code node} (0 for a node never reached). */
    public double estimate(int node) {
        return rank[node];
    }

    /** Recomputations done so far. */
    public int recomputations() {
        return graph.recomputations();
    }
}
