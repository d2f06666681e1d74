package io.github.kcrawler.lab.ranker.pagerank;

/**
 * A crawl-ordering strategy: which known but unfetched URL the crawler fetches next. The crawl-ordering experiment of
 * paper 002 ({@code ../shared/seeds/002_f80a64bc45d2b4e4.txt}, §4.2) compares strategies that differ only here, so
 * they all sit behind this one interface and the simulator, the benchmark and the tests drive them identically.
 *
 * <p>Pages are dense int ids {@code 0 .. numNodes-1}. A strategy sees the web the way a crawler does: it knows the
 * seeds, and it learns a page's outlinks only when the page is reported {@link #fetched}; it never reads the
 * full graph. The protocol is {@code addSeed}…, then repeatedly {@code p = next()} followed by
 * {@code fetched(p, outlinks)}; a node is handed out by {@link #next()} at most once, so every node reachable from
 * the seeds is fetched exactly once.
 */
public interface CrawlOrdering {

    /** The strategy's short name as used in reports (e.g. {@code BF}, {@code IPR-DL1}). */
    String name();

    /** Makes {@code node} known (if it is not yet) so that {@link #next()} will hand it out. */
    void addSeed(int node);

    /** Removes the best frontier node and returns it, or -1 when the frontier is empty. */
    int next();

    /**
     * Reports that {@code page}, previously returned by {@link #next()}, has been fetched and links to
     * {@code links[from .. to)} (in document order; duplicates are collapsed, links to the page itself kept).
     *
     * @throws IllegalArgumentException if the page was not handed out, was already reported, or a link is not a node
     */
    void fetched(int page, int[] links, int from, int to);

    /** Frontier size: nodes known and not yet handed out. */
    int frontierSize();
}
