package io.github.kcrawler.lab.ranker.pagerank;

import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import java.util.Arrays;

/**
 * {@code IPR-NS}: <b>our</b> variant of paper 002's incremental-PageRank ordering (not in the paper; issue 21 item 1).
 * It keeps the paper's DL1 scores exactly ({@link IncrementalPageRank} with cut-off DL1: {@code s_p += 1} on fetch,
 * {@code s_p / outdeg(p)} to each distinct outlink) and adds one rule in front of them, "new site first":
 * <ol>
 *   <li>tier 2: seeds not yet fetched;</li>
 *   <li>tier 1: URLs on a host of which no page has been fetched yet;</li>
 *   <li>tier 0: every other URL;</li>
 * </ol>
 * higher tier first, then the higher DL1 score, then discovery order (off-site links of a page before its same-site
 * links, as in every strategy of {@link FrontierOrdering}). When the first page of a host is fetched, that host's
 * other frontier URLs drop to tier 0.
 *
 * <p>Why (measured on cnr-2000, BENCHMARKS.md "Crawl ordering on cnr-2000", issue 21): the PageRank a crawl
 * collects early is limited by <i>discovery</i> — a greedy order by the true PageRank of the known frontier collects
 * only 0.199 of it at 10 % from the 100-SCC seeds, less than breadth-first — and the paper's scores, which only grow
 * along links already seen, reach a large site hidden behind one low-scored entry link last (its navigation pages
 * hold over 5 % of all PageRank and are discovered at 87 % of the crawl by IPR-DL1 and batch PR). Taking one page of
 * every newly seen host before going deeper into known hosts is the site-level exploration of Cho, Garcia-Molina and
 * Page (1998) and of Baeza-Yates, Castillo, Marín and Rodríguez, "Crawling a country: better strategies than
 * breadth-first for web page ordering" (WWW 2005), whose site-aware strategies beat page-level ones; the combination
 * with the paper's DL1 scores is ours. Seeds first fixes what a many-seed crawl does to IPR: an unfetched seed
 * holds score 0, below any linked URL, so all but the first seed waited to the end of the crawl.
 *
 * <p>The tier rule does not depend on any constant fitted to a graph; it does depend on what a host is (here websim's
 * host layout), and it does not win everywhere: see BENCHMARKS.md for the layouts and the synthetic graph on which
 * it loses to batch PR or OPIC.
 *
 * <p>Priority encoding: the frontier heap holds one double, {@code tier + s / (1 + s)}; {@code s / (1 + s)} is in
 * [0, 1) and increasing in s, so tiers never mix and the order inside a tier is the order of s (up to the rounding of
 * that map). Cost per fetch: DL1's O(outdeg) plus, once per host, O(URLs of that host discovered so far). Memory:
 * three ints per node and one boolean per host, allocated up front. Not thread-safe.
 */
public final class NewSiteIncrementalPageRankOrdering extends FrontierOrdering {

    public static final String NAME = "IPR-NS";

    static final int TIER_OTHER = 0;
    static final int TIER_NEW_SITE = 1;
    static final int TIER_SEED = 2;

    private final IncrementalPageRank rank;
    private final boolean[] seed;
    private final boolean[] hostVisited;
    private final int[] hostHead;
    private final int[] nextInHost;
    private final IncrementalPageRank.ScoreListener listener = this::scoreChanged;

    /** {@code params}' cut-off is ignored: IPR-NS always uses DL1, the cut-off of the paper's result curves. */
    public NewSiteIncrementalPageRankOrdering(NodeLabels labels, IprParams params) {
        super(NAME, labels);
        this.rank = new IncrementalPageRank(params.withCutOff(IprParams.CutOff.DL1), numNodes);
        int hosts = 0;
        for (int v = 0; v < numNodes; v++) {
            int h = labels.hostOf(v);
            if (h < 0) {
                throw new IllegalArgumentException("host of node " + v + " is negative: " + h);
            }
            hosts = Math.max(hosts, h + 1);
        }
        this.seed = new boolean[numNodes];
        this.hostVisited = new boolean[hosts];
        this.hostHead = new int[hosts];
        Arrays.fill(hostHead, -1);
        this.nextInHost = new int[numNodes];
    }

    /** The priority of {@code tier} and DL1 score {@code score} as the heap holds it. */
    static double priority(int tier, double score) {
        assert score >= 0 : "negative score " + score;
        return tier + score / (1.0 + score);
    }

    /** The tier of a node now (meaningful for frontier nodes). */
    int tier(int node) {
        if (seed[node]) {
            return TIER_SEED;
        }
        return hostVisited[labels.hostOf(node)] ? TIER_OTHER : TIER_NEW_SITE;
    }

    @Override
    protected void onSeed(int node) {
        seed[node] = true;
    }

    @Override
    protected void onDiscovered(int node) {
        int h = labels.hostOf(node);
        nextInHost[node] = hostHead[h];
        hostHead[h] = node;
    }

    @Override
    protected double initialPriority(int node) {
        return priority(tier(node), rank.score(node));
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        seed[page] = false;
        int h = labels.hostOf(page);
        if (!hostVisited[h]) {
            hostVisited[h] = true;
            for (int v = hostHead[h]; v >= 0; v = nextInHost[v]) {
                if (inFrontier(v)) {
                    setPriority(v, priority(tier(v), rank.score(v)));
                }
            }
        }
        rank.fetch(page, links, from, to, listener);
    }

    private void scoreChanged(int node, double score) {
        setPriority(node, priority(tier(node), score));
    }

    /** The underlying DL1 scores. */
    public IncrementalPageRank rank() {
        return rank;
    }
}
