package io.github.kcrawler.lab.dedup.bench;

import it.unimi.dsi.webgraph.ImmutableGraph;
import it.unimi.dsi.webgraph.NodeIterator;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads ../shared/data/cnr-2000 (real BVGraph, 325,557 pages, 3,216,152 links) once per test JVM. */
final class CnrGraph {
    private static LinkGraph graph;

    private CnrGraph() {
    }

    static synchronized LinkGraph get() {
        if (graph == null) {
            Path base = null;
            for (String candidate : new String[] {"../../shared/data/cnr-2000", "../shared/data/cnr-2000"}) {
                if (Files.isRegularFile(Path.of(candidate + ".graph"))) {
                    base = Path.of(candidate);
                    break;
                }
            }
            Assumptions.assumeTrue(base != null, "cnr-2000 not found under ../../shared/data or ../shared/data");
            try {
                ImmutableGraph g = ImmutableGraph.loadOffline(base.toString());
                int n = g.numNodes();
                int[] offsets = new int[n + 1];
                int[] targets = new int[(int) g.numArcs()];
                int pos = 0;
                NodeIterator it = g.nodeIterator();
                for (int i = 0; i < n; i++) {
                    it.nextInt();
                    int d = it.outdegree();
                    System.arraycopy(it.successorArray(), 0, targets, pos, d);
                    pos += d;
                    offsets[i + 1] = pos;
                }
                graph = LinkGraph.csr("cnr-2000", offsets, targets);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return graph;
    }
}
