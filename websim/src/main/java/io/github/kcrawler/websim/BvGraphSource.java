package io.github.kcrawler.websim;

import it.unimi.dsi.webgraph.ImmutableGraph;
import it.unimi.dsi.webgraph.NodeIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real web graph stored in WebGraph's BVGraph format ({@code BASENAME.graph} + {@code .properties}, with or
 * without {@code .offsets}), e.g. LAW's cnr-2000. The graph is read once, sequentially, with
 * {@link ImmutableGraph#loadOffline(CharSequence)} — which needs no offsets file and never keeps the compressed
 * bit stream in memory — and copied into CSR arrays, because decoding BVGraph successor lists on every HTTP
 * request would be slower and random access on a BVGraph is not thread-safe without per-thread copies.
 */
public final class BvGraphSource extends CsrGraph {

    private final String basename;

    private BvGraphSource(String basename, int[] offsets, int[] targets) {
        super(offsets, targets);
        this.basename = basename;
    }

    /**
     * Loads {@code basename} (the path without extension; a trailing {@code .graph} or {@code .properties} is
     * tolerated and stripped).
     */
    public static BvGraphSource load(Path basename) throws IOException {
        String base = basename.toString();
        for (String ext : new String[] {".graph", ".properties", ".offsets"}) {
            if (base.endsWith(ext)) {
                base = base.substring(0, base.length() - ext.length());
            }
        }
        for (String ext : new String[] {".properties", ".graph"}) {
            if (!Files.isRegularFile(Path.of(base + ext))) {
                throw new FileNotFoundException("BVGraph file " + base + ext + " not found");
            }
        }
        ImmutableGraph graph = ImmutableGraph.loadOffline(base);
        int n = graph.numNodes();
        long m;
        try {
            m = graph.numArcs();
        } catch (UnsupportedOperationException e) {
            m = -1;
        }
        if (m > Integer.MAX_VALUE - 8) {
            throw new IOException("graph " + base + " has " + m + " arcs; websim holds at most 2^31 - 9");
        }
        int[] offsets = new int[n + 1];
        int[] targets = new int[m >= 0 ? (int) m : Math.max(16, n * 8)];
        int pos = 0;
        NodeIterator it = graph.nodeIterator();
        for (int i = 0; i < n; i++) {
            int node = it.nextInt();
            if (node != i) {
                throw new IOException("graph " + base + " enumerates node " + node + " where " + i + " was expected");
            }
            int d = it.outdegree();
            int[] succ = it.successorArray();
            if (pos + d > targets.length) {
                long grown = Math.max((long) targets.length * 2, (long) pos + d);
                if (grown > Integer.MAX_VALUE - 8) {
                    throw new IOException("graph " + base + " has more than 2^31 - 9 arcs");
                }
                targets = java.util.Arrays.copyOf(targets, (int) grown);
            }
            System.arraycopy(succ, 0, targets, pos, d);
            pos += d;
            offsets[i + 1] = pos;
        }
        if (pos != targets.length) {
            targets = java.util.Arrays.copyOf(targets, pos);
        }
        return new BvGraphSource(base, offsets, targets);
    }

    /** The basename the graph was loaded from (without extension). */
    public String basename() {
        return basename;
    }

    @Override
    public String description() {
        return "BVGraph " + basename;
    }
}
