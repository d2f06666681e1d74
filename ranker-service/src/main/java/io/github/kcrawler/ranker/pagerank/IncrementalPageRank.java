package io.github.kcrawler.ranker.pagerank;

import java.util.Arrays;

/**
 * Incremental PageRank of paper 002 ({@code ../shared/seeds/002_f80a64bc45d2b4e4.txt} §3; DESIGN §4.3): an
 * approximate PageRank of the crawled graph (fetched pages plus the URLs they link to), cheap enough to update on
 * every fetch, used to fetch the unfetched URL with the highest approximate score next.
 *
 * <h2>Update rule</h2>
 * On fetching p: {@code s_p += 1}, then p's score is split equally over its distinct outlinks, each receiving
 * {@code β = s_p / outdeg(p)}; p keeps its score. A page that receives β adds it to its score. Whether a receipt
 * travels further is the cut-off ({@link IprParams.CutOff}); only fetched pages can pass amounts on, because only
 * their outlinks are known, and what a page passes on is what it received split over its outlinks:
 * <ul>
 *   <li><b>DL1</b>: never; only p's direct outlinks change.</li>
 *   <li><b>PL</b>: after the direct outlinks, breadth-first from them, until {@code L} more receipts are made.</li>
 *   <li><b>VR</b>: direct outlinks are always updated; a page q (fetched) passes its receipt on only if
 *   {@code β / s_q ≥ ratio} with s_q before the receipt (s_q = 0 passes); beyond depth 1 a receipt failing that test
 *   is dropped — the page is not updated at all.</li>
 *   <li><b>AR</b>: every receipt adds to both {@code s_q} and an accumulator {@code a_q}; once
 *   {@code a_q / s_q > ratio} a fetched q passes {@code a_q} on and resets it. A fetch of p sends all of {@code s_p}
 *   and so resets {@code a_p}.</li>
 * </ul>
 * The paper does not bound VR and AR; they stop because every fetched page's score is ≥ 1 and an amount only passes
 * a fetched page if it is large against that score while shrinking by the page's out-degree at each step (AR: a
 * page that just passed a_q on holds s_q ≥ a_q, so what comes back around a cycle cannot pass the ratio again).
 *
 * <h2>Cost and form</h2>
 * Receipts are processed from a FIFO (breadth-first), so the work per fetch is O(outdeg(p)) for DL1 and O(receipts)
 * otherwise, independent of the size of the crawl — the paper's point against batch PageRank. Score changes of
 * unfetched pages are reported to a {@link ScoreListener}, which is how a frontier learns new priorities. The state
 * of a page (score, accumulator, fetched flag, outlinks) is only touched by receipts addressed to that page, so the
 * same rule runs partitioned with receipts as messages ({@code crawl.rank.deltas}); with DL1 the result does not
 * depend on message order except for floating-point rounding.
 *
 * <p>Node ids are {@code 0 .. numNodes-1}. Not thread-safe.
 */
public final class IncrementalPageRank {

    /** Told the new score of an unfetched page after each change. */
    @FunctionalInterface
    public interface ScoreListener {
        void scoreChanged(int node, double score);

        /** A listener that ignores every change. */
        ScoreListener NONE = (node, score) -> { };
    }

    private final IprParams params;
    private final IprParams.CutOff cutOff;
    private final double[] score;
    private final double[] accumulated;
    private final boolean[] fetched;
    private final LinkStore links;
    private int[] queueNode = new int[256];
    private double[] queueAmount = new double[256];
    private int[] queueDepth = new int[256];
    private int head;
    private int tail;
    private long receipts;
    private long fetches;

    public IncrementalPageRank(IprParams params, int numNodes) {
        if (params == null) {
            throw new IllegalArgumentException("params must be given");
        }
        if (numNodes < 0) {
            throw new IllegalArgumentException("numNodes must be >= 0, was " + numNodes);
        }
        this.params = params;
        this.cutOff = params.cutOff();
        this.score = new double[numNodes];
        this.accumulated = cutOff == IprParams.CutOff.AR ? new double[numNodes] : null;
        this.fetched = new boolean[numNodes];
        this.links = new LinkStore(numNodes);
    }

    public IprParams params() {
        return params;
    }

    public int numNodes() {
        return score.length;
    }

    /**
     * Applies the fetch of {@code page} with outlinks {@code links[from .. to)} and everything it propagates.
     *
     * @throws IllegalArgumentException if the page was already fetched or a node id is out of range
     */
    public void fetch(int page, int[] outlinks, int from, int to, ScoreListener listener) {
        if (page < 0 || page >= score.length) {
            throw new IllegalArgumentException("page " + page + " is outside [0, " + score.length + ")");
        }
        if (fetched[page]) {
            throw new IllegalArgumentException("page " + page + " was already fetched");
        }
        int degree = links.add(page, outlinks, from, to);
        fetched[page] = true;
        fetches++;
        score[page] = IprRules.scoreAfterFetch(score[page]);
        if (accumulated != null) {
            accumulated[page] = 0.0;
        }
        if (degree == 0) {
            return;
        }
        double share = IprRules.share(score[page], degree);
        int[] pool = links.pool();
        int start = links.start(page);
        head = 0;
        tail = 0;
        for (int i = 0; i < degree; i++) {
            int q = pool[start + i];
            if (cutOff == IprParams.CutOff.DL1) {
                receive(q, share, listener);
            } else {
                enqueue(q, share, 1);
            }
        }
        if (cutOff != IprParams.CutOff.DL1) {
            drain(listener);
        }
    }

    /** Convenience form of {@link #fetch(int, int[], int, int, ScoreListener)} for a whole array. */
    public void fetch(int page, int[] outlinks, ScoreListener listener) {
        fetch(page, outlinks, 0, outlinks.length, listener);
    }

    /** The approximate PageRank score of {@code node} (0 for a node never reached). */
    public double score(int node) {
        return score[node];
    }

    /** AR's accumulator a_q: received but not yet passed on (0 for the other cut-offs). */
    public double accumulated(int node) {
        return accumulated == null ? 0.0 : accumulated[node];
    }

    public boolean isFetched(int node) {
        return fetched[node];
    }

    /** Score updates made so far (the work measure: equals the links of fetched pages for DL1). */
    public long receipts() {
        return receipts;
    }

    public long fetches() {
        return fetches;
    }

    private void receive(int q, double amount, ScoreListener listener) {
        score[q] += amount;
        receipts++;
        if (!fetched[q]) {
            listener.scoreChanged(q, score[q]);
        }
    }

    private void drain(ScoreListener listener) {
        int budget = params.pageLimit();
        while (head < tail) {
            int q = queueNode[head];
            double beta = queueAmount[head];
            int depth = queueDepth[head];
            head++;
            switch (cutOff) {
                case PL -> {
                    receive(q, beta, listener);
                    if (budget > 0 && fetched[q] && links.degree(q) > 0) {
                        int d = links.degree(q);
                        int start = links.start(q);
                        double share = beta / d;
                        for (int i = 0; i < d && budget > 0; i++, budget--) {
                            enqueue(links.pool()[start + i], share, depth + 1);
                        }
                    }
                }
                case VR -> {
                    double before = score[q];
                    boolean passes = IprRules.valueRatioPasses(before, beta, params.valueRatio());
                    if (IprRules.valueRatioApplies(depth, passes)) {
                        receive(q, beta, listener);
                    }
                    if (passes) {
                        spread(q, beta, depth);
                    }
                }
                case AR -> {
                    receive(q, beta, listener);
                    accumulated[q] += beta;
                    if (fetched[q] && IprRules.accumulatedRatioPasses(accumulated[q], score[q], params.accumulatedRatio())) {
                        double amount = accumulated[q];
                        if (spread(q, amount, depth)) {
                            accumulated[q] = 0.0;
                        }
                    }
                }
                case DL1 -> throw new IllegalStateException("DL1 never queues receipts");
            }
        }
        head = 0;
        tail = 0;
    }

    /** Queues {@code amount} split over the outlinks of q if q is fetched and has outlinks; true if it did. */
    private boolean spread(int q, double amount, int depth) {
        if (!fetched[q]) {
            return false;
        }
        int d = links.degree(q);
        if (d == 0) {
            return false;
        }
        int start = links.start(q);
        double share = IprRules.share(amount, d);
        for (int i = 0; i < d; i++) {
            enqueue(links.pool()[start + i], share, depth + 1);
        }
        return true;
    }

    private void enqueue(int node, double amount, int depth) {
        if (tail == queueNode.length) {
            if (head > 0) {
                int live = tail - head;
                System.arraycopy(queueNode, head, queueNode, 0, live);
                System.arraycopy(queueAmount, head, queueAmount, 0, live);
                System.arraycopy(queueDepth, head, queueDepth, 0, live);
                head = 0;
                tail = live;
            }
            if (tail == queueNode.length) {
                int cap = queueNode.length * 2;
                queueNode = Arrays.copyOf(queueNode, cap);
                queueAmount = Arrays.copyOf(queueAmount, cap);
                queueDepth = Arrays.copyOf(queueDepth, cap);
            }
        }
        queueNode[tail] = node;
        queueAmount[tail] = amount;
        queueDepth[tail] = depth;
        tail++;
    }
}
