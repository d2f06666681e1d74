package io.github.kcrawler.lab.ranker.pagerank;

/**
 * OPIC (Abiteboul, Preda, Cobena, "Adaptive On-Line Page Importance Computation", WWW 2003) with its greedy crawl
 * policy: a modern baseline added to paper 002's set (DESIGN §4.3). Every page holds cash; the seeds share one unit
 * at the start. Fetching a page adds its cash to its history and splits the cash equally over its distinct outlinks;
 * the frontier is ordered by cash, highest first.
 *
 * <p>Without revisits, cash that reaches an already fetched page stays there (it would move on at the next visit).
 * The cash of pages without outlinks goes, in the paper, to a virtual page that spreads it over all pages; that adds
 * the same amount to every page and so cannot change the order, and is left out. Cash shrinks geometrically with
 * link depth; far below the seeds it can underflow to 0, where the discovery-order tie rule takes over.
 */
public final class Opic extends FrontierOrdering {

    public static final String NAME = "OPIC";

    private final double[] cash;
    private final double[] history;
    private final int[] stamp;
    private int epoch;
    private final it.unimi.dsi.fastutil.ints.IntArrayList seeds = new it.unimi.dsi.fastutil.ints.IntArrayList();

    public Opic(NodeLabels labels) {
        super(NAME, labels);
        cash = new double[numNodes];
        history = new double[numNodes];
        stamp = new int[numNodes];
    }

    @Override
    protected void onSeed(int node) {
        // the seeds share one unit of cash: rescale the seeds added so far (those not yet fetched)
        seeds.add(node);
        double each = 1.0 / seeds.size();
        cash[node] = each;
        for (int i = 0; i < seeds.size() - 1; i++) {
            int s = seeds.getInt(i);
            if (inFrontier(s)) {
                cash[s] = each;
                setPriority(s, each);
            }
        }
    }

    @Override
    protected double initialPriority(int node) {
        return cash[node];
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        double c = cash[page];
        history[page] += c;
        cash[page] = 0.0;
        if (++epoch == 0) {
            java.util.Arrays.fill(stamp, 0);
            epoch = 1;
        }
        int distinct = 0;
        for (int i = from; i < to; i++) {
            if (stamp[links[i]] != epoch) {
                stamp[links[i]] = epoch;
                distinct++;
            }
        }
        if (distinct == 0) {
            return;
        }
        double share = c / distinct;
        epoch++;
        if (epoch == 0) {
            java.util.Arrays.fill(stamp, 0);
            epoch = 1;
        }
        for (int i = from; i < to; i++) {
            int q = links[i];
            if (stamp[q] != epoch) {
                stamp[q] = epoch;
                cash[q] += share;
                setPriority(q, cash[q]);
            }
        }
    }

    /** Current cash of a node. */
    public double cash(int node) {
        return cash[node];
    }

    /** Cash a node has passed on so far (its importance estimate, up to normalisation). */
    public double history(int node) {
        return history[node];
    }
}
