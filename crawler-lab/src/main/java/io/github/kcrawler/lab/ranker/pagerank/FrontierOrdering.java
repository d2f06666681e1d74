package io.github.kcrawler.lab.ranker.pagerank;

/**
 * The part every strategy of paper 002 (§4.2) shares: the frontier heap, the bookkeeping of which nodes are known,
 * handed out or fetched, and the common tie rule. A strategy only says how priorities change when a page is fetched
 * ({@link #onFetched}) and, optionally, a tie key of its own ({@link #tieKey}).
 *
 * <p>Order of the frontier: higher priority first; then the strategy's tie key (smaller first); then discovery
 * order. Discovery order implements the paper's rule for pages found on one page p, "pages not on p's site before
 * pages on p's site": when p is fetched its new links are numbered off-site ones first, each group in document
 * order. With all priorities equal (BF) this is plain breadth-first search with that rule.
 *
 * <p>Each node moves {@code UNKNOWN → FRONTIER → HANDED_OUT → FETCHED} and never back, which is why every node
 * reachable from the seeds is fetched exactly once whatever the priorities. A politeness model ({@link PoliteOrdering})
 * may set a frontier node aside ({@link #hold}: {@code FRONTIER → HELD}) while its host cools down and put it back
 * ({@link #release}); a held node is still in the frontier for the strategy — its priority keeps changing, it counts
 * in {@link #frontierSize()} — but {@link #next()} does not see it.
 */
public abstract class FrontierOrdering implements CrawlOrdering {

    protected static final byte UNKNOWN = 0;
    protected static final byte FRONTIER = 1;
    protected static final byte HANDED_OUT = 2;
    protected static final byte FETCHED = 3;
    /** In the frontier but set aside by {@link #hold}: priority kept up to date, not handed out until released. */
    protected static final byte HELD = 4;

    /** Bits of the order key that hold the discovery sequence number; the tie key sits above them. */
    private static final int SEQ_BITS = 40;
    private static final long MAX_TIE_KEY = (1L << (63 - SEQ_BITS)) - 1;

    private final String name;
    protected final NodeLabels labels;
    protected final int numNodes;
    private final byte[] state;
    private final FrontierHeap frontier;
    private long nextSeq;
    /** Priority and order key of each held node (allocated on the first hold). */
    private double[] heldPriority;
    private long[] heldOrder;
    private int heldCount;

    protected FrontierOrdering(String name, NodeLabels labels) {
        this.name = name;
        this.labels = labels;
        this.numNodes = labels.numNodes();
        this.state = new byte[numNodes];
        this.frontier = new FrontierHeap(numNodes);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void addSeed(int node) {
        checkNode(node);
        if (state[node] == UNKNOWN) {
            onSeed(node);
            discover(node);
        }
    }

    @Override
    public final int next() {
        int p = frontier.pollMax();
        if (p >= 0) {
            state[p] = HANDED_OUT;
        }
        return p;
    }

    @Override
    public final void fetched(int page, int[] links, int from, int to) {
        checkNode(page);
        if (state[page] != HANDED_OUT) {
            throw new IllegalArgumentException("page " + page + " was not handed out by next() or was already reported");
        }
        if (from < 0 || to > links.length || from > to) {
            throw new IllegalArgumentException("bad link range [" + from + ", " + to + ") of " + links.length);
        }
        for (int i = from; i < to; i++) {
            checkNode(links[i]);
        }
        int host = labels.hostOf(page);
        for (int i = from; i < to; i++) {
            int q = links[i];
            if (state[q] == UNKNOWN && labels.hostOf(q) != host) {
                discover(q);
            }
        }
        for (int i = from; i < to; i++) {
            int q = links[i];
            if (state[q] == UNKNOWN) {
                discover(q);
            }
        }
        state[page] = FETCHED;
        onFetched(page, links, from, to);
    }

    @Override
    public final int frontierSize() {
        return frontier.size() + heldCount;
    }

    /** The node {@link #next()} would return (-1 if none), without removing it. */
    final int peekNext() {
        return frontier.peek();
    }

    /** Sets a frontier node aside: {@link #next()} skips it until {@link #release}; its priority keeps updating. */
    final void hold(int node) {
        checkNode(node);
        if (state[node] != FRONTIER) {
            throw new IllegalArgumentException("node " + node + " is not in the frontier (state " + state[node] + ")");
        }
        if (heldPriority == null) {
            heldPriority = new double[numNodes];
            heldOrder = new long[numNodes];
        }
        heldPriority[node] = frontier.priority(node);
        heldOrder[node] = frontier.orderKey(node);
        frontier.remove(node);
        state[node] = HELD;
        heldCount++;
    }

    /** Puts a held node back with its current priority and its original discovery order. */
    final void release(int node) {
        checkNode(node);
        if (state[node] != HELD) {
            throw new IllegalArgumentException("node " + node + " is not held (state " + state[node] + ")");
        }
        state[node] = FRONTIER;
        heldCount--;
        frontier.insert(node, heldPriority[node], heldOrder[node]);
    }

    /** Nodes held now. */
    final int heldCount() {
        return heldCount;
    }

    /** The priority of a frontier or held node (tests). */
    final double priorityForTest(int node) {
        return state[node] == HELD ? heldPriority[node] : frontier.priority(node);
    }

    /** The order key (tie key and discovery sequence) of a frontier or held node (tests). */
    final long orderKeyForTest(int node) {
        return state[node] == HELD ? heldOrder[node] : frontier.orderKey(node);
    }

    /** Called once before a seed is discovered. */
    protected void onSeed(int node) {
    }

    /** Called when {@code node} becomes known, just before it enters the frontier. */
    protected void onDiscovered(int node) {
    }

    /** The priority a node enters the frontier with. */
    protected double initialPriority(int node) {
        return 0.0;
    }

    /** The strategy's own tie key (smaller first), in {@code 0 .. 2^23-1}; 0 for none. */
    protected long tieKey(int node) {
        return 0L;
    }

    /**
     * Updates priorities after {@code page} was fetched; its new links are already in the frontier and it is in
     * state {@code FETCHED}.
     */
    protected abstract void onFetched(int page, int[] links, int from, int to);

    /** Sets the priority of {@code node} if it is in the frontier; otherwise does nothing. */
    protected final void setPriority(int node, double priority) {
        if (state[node] == FRONTIER) {
            frontier.update(node, priority);
        } else if (state[node] == HELD) {
            assert !Double.isNaN(priority) : "NaN priority for node " + node;
            heldPriority[node] = priority;
        }
    }

    /** Replaces the priority of every frontier node with {@code priorityByNode[node]}. */
    protected final void reprioritizeFrontier(double[] priorityByNode) {
        frontier.reprioritize(priorityByNode);
        if (heldCount > 0) {
            for (int v = 0; v < numNodes; v++) {
                if (state[v] == HELD) {
                    heldPriority[v] = priorityByNode[v];
                }
            }
        }
    }

    protected final boolean inFrontier(int node) {
        return state[node] == FRONTIER || state[node] == HELD;
    }

    protected final boolean isFetched(int node) {
        return state[node] == FETCHED;
    }

    /** The current priority of a frontier node. */
    protected final double frontierPriority(int node) {
        return state[node] == HELD ? heldPriority[node] : frontier.priority(node);
    }

    /** Verifies the frontier heap (tests). */
    final void checkFrontier() {
        frontier.checkInvariants();
    }

    private void discover(int node) {
        long tie = tieKey(node);
        if (tie < 0 || tie > MAX_TIE_KEY) {
            throw new IllegalStateException("tie key " + tie + " of node " + node + " is outside [0, " + MAX_TIE_KEY + "]");
        }
        state[node] = FRONTIER;
        onDiscovered(node);
        frontier.insert(node, initialPriority(node), (tie << SEQ_BITS) | nextSeq++);
    }

    private void checkNode(int node) {
        if (node < 0 || node >= numNodes) {
            throw new IllegalArgumentException("node " + node + " is outside [0, " + numNodes + ")");
        }
    }
}
