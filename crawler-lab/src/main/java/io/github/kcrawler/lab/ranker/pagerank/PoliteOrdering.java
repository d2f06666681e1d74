package io.github.kcrawler.lab.ranker.pagerank;

import java.util.Arrays;

/**
 * A <b>politeness model</b> for the simulator (ours; issue 21 item 1): wraps any {@link FrontierOrdering} so that a
 * host that was handed out may not be handed out again until {@code k} other pages have been — k is a crawler's
 * pages per politeness interval (its pages/s times the interval T between two requests to one server). The
 * running pipeline gets this from paper 004's wheel (at most one URL per IP per step; {@code ../shared/seeds/}, the
 * scheduler's {@code WheelFrontier}); the simulator otherwise has none. The unit is a <em>server</em>: by default
 * websim's host ({@link NodeLabels#hostOf}, the layout the simulator already uses for the same-site rule and the
 * new-site tier), which is the looser model, since websim puts several hosts on one IP; or any other grouping the
 * caller gives, such as websim's IP of each page, the unit the pipeline's wheel is polite to ({@code bench order}).
 * Below, "host" means the unit.
 *
 * <p><b>Invariant</b> (the exact model, checked by {@code PoliteOrderingTest}): {@link #next()} returns the node the
 * wrapped strategy orders first — its priority, then its tie key, then discovery order — among the frontier nodes
 * whose host is not cooling down; a host cools down from its hand-out until k further nodes have been handed out.
 * When every frontier node is on a cooling host, a real crawler waits; the model then ends the cooling of hosts in
 * the order their intervals end until one has a frontier node (counted in {@link #waits()}). The strategy's
 * priorities are untouched: a node of a cooling host that reaches the top is held by the strategy
 * ({@link FrontierOrdering#hold}), where its priority keeps changing, and goes back when its host's interval ends.
 * With {@code k = 0} the order is the strategy's own.
 *
 * <p>Cost: O(log n) per hold and release; a node is held at most once per cooling interval of its host. Not
 * thread-safe.
 */
public final class PoliteOrdering implements CrawlOrdering {

    private final FrontierOrdering inner;
    /** The politeness unit of each node (its host unless the caller gave another grouping). */
    private final int[] serverOf;
    private final int k;
    private final String name;
    /** Hand-out count at each host's last hand-out, or -1. */
    private final long[] lastHandOut;
    /** Held nodes by host: a singly linked list through {@code nextHeld}. */
    private final int[] heldHead;
    private final int[] nextHeld;
    /** Hosts of the last k+1 hand-outs, oldest first (a ring): the order in which their intervals end. */
    private final int[] ringHost;
    private final long[] ringStep;
    private int ringStart;
    private int ringSize;
    private long handedOut;
    private long holds;
    private long waits;

    /**
     * @param inner the strategy whose order is kept among the hosts not cooling down
     * @param k     hand-outs of other pages a host must wait after one of its pages, {@code >= 0}
     * @param name  the report name of the wrapped strategy (e.g. {@code IPR-NSR/k64})
     */
    public PoliteOrdering(FrontierOrdering inner, int k, String name) {
        this(inner, k, name, hostsOf(inner.labels));
    }

    /**
     * @param serverOf the unit each node's politeness counts against, {@code >= 0}, one entry per node of the
     *                 strategy's labels (copied)
     */
    public PoliteOrdering(FrontierOrdering inner, int k, String name, int[] serverOf) {
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0, was " + k);
        }
        this.inner = inner;
        this.k = k;
        this.name = name;
        if (serverOf.length != inner.labels.numNodes()) {
            throw new IllegalArgumentException("serverOf has " + serverOf.length + " entries for "
                    + inner.labels.numNodes() + " nodes");
        }
        this.serverOf = serverOf.clone();
        int hosts = 0;
        for (int v = 0; v < serverOf.length; v++) {
            int h = serverOf[v];
            if (h < 0) {
                throw new IllegalArgumentException("server of node " + v + " is negative: " + h);
            }
            hosts = Math.max(hosts, h + 1);
        }
        this.lastHandOut = new long[hosts];
        Arrays.fill(lastHandOut, -1L);
        this.heldHead = new int[hosts];
        Arrays.fill(heldHead, -1);
        this.nextHeld = new int[serverOf.length];
        int ring = (int) Math.min(k + 1L, Math.max(1, hosts));
        this.ringHost = new int[ring];
        this.ringStep = new long[ring];
    }

    private static int[] hostsOf(NodeLabels labels) {
        int[] hosts = new int[labels.numNodes()];
        for (int v = 0; v < hosts.length; v++) {
            hosts[v] = labels.hostOf(v);
        }
        return hosts;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addSeed(int node) {
        inner.addSeed(node);
    }

    @Override
    public int next() {
        releaseEnded();
        while (true) {
            int p = inner.peekNext();
            if (p < 0) {
                if (inner.heldCount() == 0) {
                    return -1;
                }
                waitForHost();
                continue;
            }
            int h = serverOf[p];
            if (cooling(h)) {
                inner.hold(p);
                nextHeld[p] = heldHead[h];
                heldHead[h] = p;
                holds++;
                continue;
            }
            int q = inner.next();
            assert q == p : "peek " + p + " but next " + q;
            lastHandOut[h] = handedOut;
            push(h, handedOut);
            handedOut++;
            return q;
        }
    }

    @Override
    public void fetched(int page, int[] links, int from, int to) {
        inner.fetched(page, links, from, to);
    }

    @Override
    public int frontierSize() {
        return inner.frontierSize();
    }

    /** The wrapped strategy. */
    public FrontierOrdering inner() {
        return inner;
    }

    /** Pages a host waits after one of its pages. */
    public int k() {
        return k;
    }

    /** Times a node was set aside because its host was cooling down. */
    public long holds() {
        return holds;
    }

    /** Times every frontier node was on a cooling host, so the crawler had to wait. */
    public long waits() {
        return waits;
    }

    /** Whether host h is cooling down now: handed out within the last k hand-outs. */
    boolean cooling(int h) {
        long last = lastHandOut[h];
        return last >= 0 && handedOut - last <= k;
    }

    private void push(int h, long step) {
        if (ringSize == ringHost.length) {
            // the oldest entry has ended already: releaseEnded ran before this hand-out
            assert step - ringStep[ringStart] > k || lastHandOut[ringHost[ringStart]] != ringStep[ringStart];
            ringStart = (ringStart + 1) % ringHost.length;
            ringSize--;
        }
        int i = (ringStart + ringSize) % ringHost.length;
        ringHost[i] = h;
        ringStep[i] = step;
        ringSize++;
    }

    /** Ends the interval of every host whose k hand-outs have passed, putting its held nodes back. */
    private void releaseEnded() {
        while (ringSize > 0 && handedOut - ringStep[ringStart] > k) {
            popOldest();
        }
    }

    /** Every frontier node is on a cooling host: end intervals in order until a host with held nodes is free. */
    private void waitForHost() {
        waits++;
        while (ringSize > 0) {
            int h = ringHost[ringStart];
            boolean had = heldHead[h] >= 0;
            long step = ringStep[ringStart];
            if (lastHandOut[h] == step) {
                lastHandOut[h] = step - k - 1; // its interval is over: no longer cooling
            }
            popOldest();
            if (had) {
                return;
            }
        }
        throw new IllegalStateException("nodes are held but no host is cooling down");
    }

    private void popOldest() {
        int h = ringHost[ringStart];
        ringStart = (ringStart + 1) % ringHost.length;
        ringSize--;
        for (int v = heldHead[h]; v >= 0; v = nextHeld[v]) {
            inner.release(v);
        }
        heldHead[h] = -1;
    }
}
