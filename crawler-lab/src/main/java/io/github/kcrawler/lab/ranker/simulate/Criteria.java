package io.github.kcrawler.lab.ranker.simulate;

import it.unimi.dsi.fastutil.ints.IntArrays;

/**
 * The three quality criteria of paper 002 (§4.3) for a complete crawl order, judged against the true PageRank of
 * every page. The population P is the set of pages a complete crawl collects (all strategies collect the same set:
 * everything reachable from the seeds); ranks, top sets and sums are taken within P.
 * <ul>
 *   <li><b>A</b>: share of the top {@code f} of P by PageRank (f = 0.1%, 1%, 10%; top set size
 *   {@code ceil(f·|P|)}) collected after k pages.</li>
 *   <li><b>B</b>: PageRank collected after k pages as a share of the PageRank of P.</li>
 *   <li><b>C</b>: {@code Σ_i |orderT(i) − orderR(i)| / sqrt(orderT(i) + c)} with orderT the 1-based fetch position
 *   and orderR the 1-based PageRank rank (ties by node id), divided by the same sum for the worst case, the crawl in
 *   ascending PageRank. The paper gives it for the complete crawl only; here C(k) sums over the first k pages and
 *   divides by the worst case's first k, so a perfect order gives 0 and the ascending order 1 at every k, and
 *   C(|P|) is the paper's value. The paper gives no value for c.</li>
 * </ul>
 * Values are taken after {@code k_j = ceil(j·|P|/100)} pages, j = 1..100 (every 1% of the crawl).
 */
public final class Criteria {

    /** The top fractions of criterion A. */
    public static final double[] TOP_FRACTIONS = {0.001, 0.01, 0.1};
    /** Report labels of the top fractions. */
    public static final String[] TOP_LABELS = {"top0.1%", "top1%", "top10%"};
    public static final int POINTS = 100;

    /** Curves at every 1%: {@code topShare[f][j]}, {@code pageRankShare[j]}, {@code orderError[j]}, j = 0..99. */
    public record Curves(double[][] topShare, double[] pageRankShare, double[] orderError) {
    }

    private final double[] truth;
    private final int size;
    private final int[] rankOf;
    private final boolean[] member;
    private final int[] topSize;
    private final double totalRank;
    private final double c;
    private final double[] worstPrefix;
    private final int[] checkpoints;

    /**
     * @param truth      true PageRank of every node of the graph
     * @param population the nodes of P (any order, no duplicates)
     * @param c          criterion C's correction term, {@code >= 0}
     */
    public Criteria(double[] truth, int[] population, double c) {
        if (!(c >= 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("c must be a finite number >= 0, was " + c);
        }
        if (population.length == 0) {
            throw new IllegalArgumentException("population must not be empty");
        }
        this.truth = truth;
        this.size = population.length;
        this.c = c;
        this.member = new boolean[truth.length];
        for (int v : population) {
            if (v < 0 || v >= truth.length || member[v]) {
                throw new IllegalArgumentException("population holds node " + v + " twice or out of range");
            }
            member[v] = true;
        }
        int[] byRank = population.clone();
        IntArrays.quickSort(byRank, (a, b) -> {
            int cmp = Double.compare(truth[b], truth[a]);
            return cmp != 0 ? cmp : Integer.compare(a, b);
        });
        this.rankOf = new int[truth.length];
        double total = 0.0;
        for (int i = 0; i < size; i++) {
            rankOf[byRank[i]] = i + 1;
        }
        for (int i = size - 1; i >= 0; i--) {
            total += truth[byRank[i]];
        }
        this.totalRank = total;
        this.topSize = new int[TOP_FRACTIONS.length];
        for (int f = 0; f < TOP_FRACTIONS.length; f++) {
            topSize[f] = (int) Math.max(1, Math.ceil(TOP_FRACTIONS[f] * size - 1e-9));
        }
        this.checkpoints = new int[POINTS];
        for (int j = 1; j <= POINTS; j++) {
            checkpoints[j - 1] = (int) Math.ceil((double) j * size / POINTS - 1e-9);
        }
        this.worstPrefix = new double[POINTS];
        double worst = 0.0;
        int next = 0;
        for (int t = 1; t <= size; t++) {
            worst += Math.abs(t - (size + 1.0 - t)) / Math.sqrt(t + c);
            while (next < POINTS && checkpoints[next] == t) {
                worstPrefix[next++] = worst;
            }
        }
    }

    public int populationSize() {
        return size;
    }

    public double c() {
        return c;
    }

    /** Pages crawled at each checkpoint (1% … 100%). */
    public int[] checkpoints() {
        return checkpoints.clone();
    }

    /** Size of the top set of each {@link #TOP_FRACTIONS} entry. */
    public int[] topSizes() {
        return topSize.clone();
    }

    /** 1-based PageRank rank of a node of P. */
    public int rank(int node) {
        return rankOf[node];
    }

    /** Evaluates a complete crawl order: a permutation of P. */
    public Curves evaluate(int[] order) {
        if (order.length != size) {
            throw new IllegalArgumentException("crawl order has " + order.length + " pages, population " + size);
        }
        boolean[] seen = new boolean[truth.length];
        double[][] top = new double[TOP_FRACTIONS.length][POINTS];
        double[] share = new double[POINTS];
        double[] error = new double[POINTS];
        int[] topFound = new int[TOP_FRACTIONS.length];
        double collected = 0.0;
        double err = 0.0;
        int next = 0;
        for (int t = 1; t <= size; t++) {
            int v = order[t - 1];
            if (v < 0 || v >= truth.length || !member[v] || seen[v]) {
                throw new IllegalArgumentException("crawl order is not a permutation of the population at position " + t
                        + " (node " + v + ")");
            }
            seen[v] = true;
            int r = rankOf[v];
            for (int f = 0; f < topFound.length; f++) {
                if (r <= topSize[f]) {
                    topFound[f]++;
                }
            }
            collected += truth[v];
            err += Math.abs(t - r) / Math.sqrt(t + c);
            while (next < POINTS && checkpoints[next] == t) {
                for (int f = 0; f < topFound.length; f++) {
                    top[f][next] = (double) topFound[f] / topSize[f];
                }
                share[next] = totalRank > 0 ? collected / totalRank : 0.0;
                error[next] = worstPrefix[next] > 0 ? err / worstPrefix[next] : 0.0;
                next++;
            }
        }
        return new Curves(top, share, error);
    }

    /** Every tenth value (10%, 20%, …, 100%) of a 1% curve. */
    public static double[] tenths(double[] curve) {
        double[] out = new double[10];
        for (int i = 0; i < 10; i++) {
            out[i] = curve[(i + 1) * POINTS / 10 - 1];
        }
        return out;
    }
}
