package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.websim.BvGraphSource;
import it.unimi.dsi.webgraph.ImmutableGraph;
import it.unimi.dsi.webgraph.algo.StronglyConnectedComponents;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

/**
 * A whole web graph in memory as compressed sparse rows ({@code offsets[v] .. offsets[v+1]} index v's successors in
 * {@code targets}), the form the crawl simulator hands to strategies — a successor slice of the shared array, no
 * copy per fetch — and the reference PageRank iterates over. Loaded from a BVGraph through websim's reader, which
 * decodes the file once.
 */
public final class LinkGraph {

    private final int[] offsets;
    private final int[] targets;

    /** Takes ownership of the arrays after checking they form a CSR graph. */
    public LinkGraph(int[] offsets, int[] targets) {
        if (offsets.length < 1 || offsets[0] != 0 || offsets[offsets.length - 1] != targets.length) {
            throw new IllegalArgumentException("offsets must start at 0 and end at targets.length (" + targets.length + ")");
        }
        int n = offsets.length - 1;
        for (int v = 0; v < n; v++) {
            if (offsets[v + 1] < offsets[v]) {
                throw new IllegalArgumentException("offsets decrease at node " + v);
            }
        }
        for (int t : targets) {
            if (t < 0 || t >= n) {
                throw new IllegalArgumentException("arc target " + t + " is outside [0, " + n + ")");
            }
        }
        this.offsets = offsets;
        this.targets = targets;
    }

    /** Builds a graph from adjacency lists ({@code adjacency[v]} = successors of v). */
    public static LinkGraph of(int[][] adjacency) {
        int[] offsets = new int[adjacency.length + 1];
        for (int v = 0; v < adjacency.length; v++) {
            offsets[v + 1] = offsets[v] + adjacency[v].length;
        }
        int[] targets = new int[offsets[adjacency.length]];
        for (int v = 0; v < adjacency.length; v++) {
            System.arraycopy(adjacency[v], 0, targets, offsets[v], adjacency[v].length);
        }
        return new LinkGraph(offsets, targets);
    }

    /** Loads a BVGraph ({@code BASENAME.graph} + {@code .properties}). */
    public static LinkGraph load(Path basename) throws IOException {
        BvGraphSource source = BvGraphSource.load(basename);
        int n = source.numPages();
        int[] offsets = new int[n + 1];
        int[] targets = new int[Math.toIntExact(source.numArcs())];
        int pos = 0;
        for (int v = 0; v < n; v++) {
            int[] succ = source.outlinks(v);
            System.arraycopy(succ, 0, targets, pos, succ.length);
            pos += succ.length;
            offsets[v + 1] = pos;
        }
        return new LinkGraph(offsets, targets);
    }

    /**
     * This graph with every link into a page of {@code pages} removed: those pages are never discovered by a crawl of
     * it (unless they are seeds), as a crawler that obeys a robots.txt disallowing them never fetches them and never
     * sees their links. Node ids are unchanged.
     */
    public LinkGraph withoutLinksInto(BitSet pages) {
        int n = numNodes();
        int[] kept = new int[targets.length];
        int[] keptOffsets = new int[n + 1];
        int m = 0;
        for (int v = 0; v < n; v++) {
            keptOffsets[v] = m;
            for (int k = offsets[v]; k < offsets[v + 1]; k++) {
                if (!pages.get(targets[k])) {
                    kept[m++] = targets[k];
                }
            }
        }
        keptOffsets[n] = m;
        return new LinkGraph(keptOffsets, java.util.Arrays.copyOf(kept, m));
    }

    public int numNodes() {
        return offsets.length - 1;
    }

    public long numArcs() {
        return targets.length;
    }

    public int outdegree(int v) {
        return offsets[v + 1] - offsets[v];
    }

    /** The offsets array (shared, do not modify). */
    public int[] offsets() {
        return offsets;
    }

    /** The targets array (shared, do not modify). */
    public int[] targets() {
        return targets;
    }

    /** The node with the largest out-degree, the smallest id on ties (websim's default seed for a real graph). */
    public int maxOutdegreeNode() {
        int best = -1;
        int bestDegree = -1;
        for (int v = 0; v < numNodes(); v++) {
            if (outdegree(v) > bestDegree) {
                best = v;
                bestDegree = outdegree(v);
            }
        }
        return best;
    }

    /** Nodes reachable from the seeds by following arcs (seeds included). */
    public BitSet reachableFrom(int[] seeds) {
        int n = numNodes();
        BitSet seen = new BitSet(n);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int s : seeds) {
            if (s < 0 || s >= n) {
                throw new IllegalArgumentException("seed " + s + " is outside [0, " + n + ")");
            }
            if (!seen.get(s)) {
                seen.set(s);
                queue[tail++] = s;
            }
        }
        while (head < tail) {
            int v = queue[head++];
            for (int k = offsets[v]; k < offsets[v + 1]; k++) {
                int t = targets[k];
                if (!seen.get(t)) {
                    seen.set(t);
                    queue[tail++] = t;
                }
            }
        }
        return seen;
    }

    /**
     * The many-seed start of issue 21 for any graph: the smallest node id of each of the {@code k} largest strongly
     * connected components, largest first (equal sizes: the component with the smaller smallest id first), as
     * {@code ../shared/data/cnr-2000.seeds-scc100.txt} lists them for cnr-2000 (that file orders components of equal
     * size otherwise, and at its 100th place took another of several tied 136-page components: the same 99 others).
     * Fewer than {@code k} when the graph has fewer components. The
     * components come from WebGraph's {@link StronglyConnectedComponents} over this graph's arrays.
     */
    public int[] largestComponentSeeds(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, was " + k);
        }
        StronglyConnectedComponents scc = StronglyConnectedComponents.compute(new CsrView(), false, null);
        int[] sizes = scc.computeSizes();
        int components = scc.numberOfComponents;
        int[] smallest = new int[components];
        Arrays.fill(smallest, Integer.MAX_VALUE);
        for (int v = numNodes() - 1; v >= 0; v--) {
            smallest[scc.component[v]] = v;
        }
        Integer[] order = new Integer[components];
        for (int c = 0; c < components; c++) {
            order[c] = c;
        }
        Arrays.sort(order, (x, y) -> sizes[x] != sizes[y] ? Integer.compare(sizes[y], sizes[x])
                : Integer.compare(smallest[x], smallest[y]));
        int[] seeds = new int[Math.min(k, components)];
        for (int i = 0; i < seeds.length; i++) {
            seeds[i] = smallest[order[i]];
        }
        return seeds;
    }

    /** This graph's arrays as a WebGraph graph (random access; a successor array is a copy of the row). */
    private final class CsrView extends ImmutableGraph {
        @Override
        public int numNodes() {
            return LinkGraph.this.numNodes();
        }

        @Override
        public long numArcs() {
            return targets.length;
        }

        @Override
        public boolean randomAccess() {
            return true;
        }

        @Override
        public int outdegree(int v) {
            return LinkGraph.this.outdegree(v);
        }

        @Override
        public int[] successorArray(int v) {
            return Arrays.copyOfRange(targets, offsets[v], offsets[v + 1]);
        }

        @Override
        public ImmutableGraph copy() {
            return this;
        }
    }
}
