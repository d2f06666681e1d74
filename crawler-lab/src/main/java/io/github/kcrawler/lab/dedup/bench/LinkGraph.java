package io.github.kcrawler.lab.dedup.bench;

import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;

/**
 * The link structure a simulated crawl walks: dense node ids and their ordered outlinks. Deliberately tiny so the
 * benchmarks need no graph library: the CLI adapts websim's {@code BvGraphSource} (a real BVGraph such as
 * cnr-2000) with {@link #of}, and {@link SyntheticWebGraph} computes links on the fly for streams too big to store.
 */
public interface LinkGraph {
    int numNodes();

    int outdegree(int node);

    int outlink(int node, int index);

    /** Writes the outlinks of {@code node} into {@code buffer} (grown if needed, see the return) and returns them. */
    default int[] outlinks(int node, int[] buffer) {
        int d = outdegree(node);
        int[] out = buffer.length >= d ? buffer : new int[Math.max(d, buffer.length * 2)];
        for (int i = 0; i < d; i++) {
            out[i] = outlink(node, i);
        }
        return out;
    }

    /** Where the graph came from, for reports. */
    String description();

    /** A graph given as functions, e.g. {@code LinkGraph.of("cnr-2000", g.numPages(), g::outdegree, g::outlink)}. */
    public static LinkGraph of(String description, int numNodes, IntUnaryOperator outdegree, IntBinaryOperator outlink) {
        return new LinkGraph() {
            @Override
            public int numNodes() {
                return numNodes;
            }

            @Override
            public int outdegree(int node) {
                return outdegree.applyAsInt(node);
            }

            @Override
            public int outlink(int node, int index) {
                return outlink.applyAsInt(node, index);
            }

            @Override
            public String description() {
                return description;
            }
        };
    }

    /** A graph in compressed sparse rows: outlinks of n are {@code targets[offsets[n] .. offsets[n+1])}. */
    static LinkGraph csr(String description, int[] offsets, int[] targets) {
        if (offsets.length < 1 || offsets[0] != 0 || offsets[offsets.length - 1] != targets.length) {
            throw new IllegalArgumentException("offsets must start at 0 and end at targets.length");
        }
        int n = offsets.length - 1;
        for (int t : targets) {
            if (t < 0 || t >= n) {
                throw new IllegalArgumentException("link target " + t + " outside [0, " + n + ")");
            }
        }
        return new LinkGraph() {
            @Override
            public int numNodes() {
                return n;
            }

            @Override
            public int outdegree(int node) {
                return offsets[node + 1] - offsets[node];
            }

            @Override
            public int outlink(int node, int index) {
                return targets[offsets[node] + index];
            }

            @Override
            public int[] outlinks(int node, int[] buffer) {
                int from = offsets[node];
                int d = offsets[node + 1] - from;
                int[] out = buffer.length >= d ? buffer : new int[Math.max(d, buffer.length * 2)];
                System.arraycopy(targets, from, out, 0, d);
                return out;
            }

            @Override
            public String description() {
                return description;
            }
        };
    }
}
