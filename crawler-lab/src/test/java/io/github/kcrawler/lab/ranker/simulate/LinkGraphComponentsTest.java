package io.github.kcrawler.lab.ranker.simulate;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link LinkGraph#largestComponentSeeds}: issue 21's many-seed start computed for any graph. */
class LinkGraphComponentsTest {

    /** The model: u and v share a component iff each reaches the other; sizes, then the smallest id, order them. */
    private static int[] model(LinkGraph graph, int k) {
        int n = graph.numNodes();
        BitSet[] reach = new BitSet[n];
        for (int v = 0; v < n; v++) {
            reach[v] = graph.reachableFrom(new int[] {v});
        }
        boolean[] placed = new boolean[n];
        List<int[]> components = new ArrayList<>(); // {size, smallest id}
        for (int v = 0; v < n; v++) {
            if (placed[v]) {
                continue;
            }
            int size = 0;
            for (int u = v; u < n; u++) {
                if (reach[v].get(u) && reach[u].get(v)) {
                    placed[u] = true;
                    size++;
                }
            }
            components.add(new int[] {size, v});
        }
        components.sort((a, b) -> a[0] != b[0] ? Integer.compare(b[0], a[0]) : Integer.compare(a[1], b[1]));
        return components.stream().limit(k).mapToInt(c -> c[1]).toArray();
    }

    @Test
    void seedsAreTheSmallestIdsOfTheLargestComponents_asTheReachabilityModelSays() {
        forAll(200, g -> {
            int n = g.intIn(1, 40);
            int[][] adjacency = new int[n][];
            for (int v = 0; v < n; v++) {
                adjacency[v] = Arrays.stream(g.ints(0, 3, 0, n - 1)).distinct().toArray();
            }
            LinkGraph graph = LinkGraph.of(adjacency);
            int k = g.intIn(1, n + 2);
            assertThat(graph.largestComponentSeeds(k)).isEqualTo(model(graph, k));
        });
    }

    @Test
    void aCycleIsOneComponent_andKMustBePositive() {
        LinkGraph graph = LinkGraph.of(new int[][] {{1}, {2}, {0}, {4}, {}, {3}});
        // {0,1,2} size 3; {3} {4} {5} size 1 each, smallest id first
        assertThat(graph.largestComponentSeeds(10)).containsExactly(0, 3, 4, 5);
        assertThat(graph.largestComponentSeeds(2)).containsExactly(0, 3);
        assertThatThrownBy(() -> graph.largestComponentSeeds(0)).hasMessageContaining("k must");
    }

    @Test
    void onCnr2000_theSharedSeedFile_upToTheTieAtItsLastComponent() throws Exception {
        Path cnr = OrderingExperimentTest.CNR;
        Path file = Path.of("../../shared/data/cnr-2000.seeds-scc100.txt");
        assumeTrue(Files.exists(Path.of(cnr + ".graph")) && Files.exists(file), "cnr-2000 not found at " + cnr);
        LinkGraph graph = LinkGraph.load(cnr);
        int[] seeds = graph.largestComponentSeeds(100);
        int[] shared = Arrays.stream(Files.readString(file).replaceAll("\\s", "").split(","))
                .mapToInt(Integer::parseInt).toArray();
        assertThat(seeds).hasSize(100);
        // the same components; the file orders components of equal size otherwise, and at its last size (136 pages,
        // several components) it took another one
        Set<Integer> ours = new HashSet<>();
        Arrays.stream(seeds).forEach(ours::add);
        Set<Integer> theirs = new HashSet<>();
        Arrays.stream(shared).forEach(theirs::add);
        Set<Integer> onlyOurs = new HashSet<>(ours);
        onlyOurs.removeAll(theirs);
        Set<Integer> onlyTheirs = new HashSet<>(theirs);
        onlyTheirs.removeAll(ours);
        assertThat(onlyOurs).hasSize(1);
        assertThat(onlyTheirs).hasSize(1);
        assertThat(Arrays.copyOf(seeds, 26)).isEqualTo(Arrays.copyOf(shared, 26)); // distinct sizes up to there
        assertThat(graph.reachableFrom(seeds).cardinality()).isEqualTo(325_557);
    }
}
