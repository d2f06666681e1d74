package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import it.unimi.dsi.webgraph.ImmutableGraph;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphSourceTest {

    static final Path CNR = Path.of("../../shared/data/cnr-2000");

    static boolean cnrPresent() {
        return Files.isRegularFile(Path.of(CNR + ".graph")) && Files.isRegularFile(Path.of(CNR + ".properties"));
    }

    private static GeneratedGraphSource generated(int pages, long seed) {
        WebSimConfig config = WebSimConfig.builder().seed(seed).build();
        return GeneratedGraphSource.generate(SiteLayout.build(pages, config));
    }

    @Test
    void generatedGraphIsDeterministic() {
        GeneratedGraphSource a = generated(5_000, 1);
        GeneratedGraphSource b = generated(5_000, 1);
        GeneratedGraphSource c = generated(5_000, 2);
        assertThat(b.numArcs()).isEqualTo(a.numArcs());
        boolean anyDifference = false;
        for (int p = 0; p < a.numPages(); p++) {
            assertThat(b.outlinks(p)).isEqualTo(a.outlinks(p));
            anyDifference |= !Arrays.equals(a.outlinks(p), c.outlinks(p));
        }
        assertThat(anyDifference).isTrue();
    }

    @Test
    void generatedGraphLooksLikeACrawl() {
        WebSimConfig config = WebSimConfig.builder().seed(3).build();
        SiteLayout layout = SiteLayout.build(20_000, config);
        GeneratedGraphSource g = GeneratedGraphSource.generate(layout);
        long intra = 0;
        int maxDegree = 0;
        for (int p = 0; p < g.numPages(); p++) {
            int[] out = g.outlinks(p);
            assertThat(out).doesNotContain(p);
            for (int i = 1; i < out.length; i++) {
                assertThat(out[i]).isGreaterThan(out[i - 1]);
            }
            for (int t : out) {
                intra += layout.hostOf(t) == layout.hostOf(p) ? 1 : 0;
            }
            maxDegree = Math.max(maxDegree, out.length);
        }
        double mean = g.numArcs() / (double) g.numPages();
        assertThat(mean).isBetween(4.0, 12.0);
        assertThat(maxDegree).isGreaterThan((int) (10 * mean));
        assertThat(intra / (double) g.numArcs()).isBetween(0.6, 0.95);
        assertThat(g.reachableFrom(new int[] {0}, WebGraphSource.UNLIMITED_DEPTH).cardinality())
                .isGreaterThan((int) (0.9 * g.numPages()));
    }

    @Test
    void reachableFromHonoursDepthAndFilter() {
        GeneratedGraphSource g = generated(3_000, 5);
        int[] seeds = {0, 17};
        BitSet d0 = g.reachableFrom(seeds, 0);
        assertThat(d0.stream().toArray()).containsExactly(0, 17);
        BitSet d1 = g.reachableFrom(seeds, 1);
        BitSet expected = (BitSet) d0.clone();
        for (int s : seeds) {
            for (int t : g.outlinks(s)) {
                expected.set(t);
            }
        }
        assertThat(d1).isEqualTo(expected);
        BitSet d2 = g.reachableFrom(seeds, 2);
        BitSet all = g.reachableFrom(seeds, WebGraphSource.UNLIMITED_DEPTH);
        BitSet d1Minus = (BitSet) d1.clone();
        d1Minus.andNot(d2);
        assertThat(d1Minus.isEmpty()).isTrue();
        assertThat(all.cardinality()).isGreaterThanOrEqualTo(d2.cardinality());
        // a filtered page is neither included nor expanded
        int blocked = g.outlink(0, 0);
        BitSet filtered = g.reachableFrom(new int[] {0}, 1, p -> p != blocked);
        assertThat(filtered.get(blocked)).isFalse();
        assertThat(filtered.cardinality()).isEqualTo(1 + g.outdegree(0) - 1);
        assertThat(g.reachableFrom(new int[] {0}, 5, p -> p != 0).isEmpty()).isTrue();
        assertThatThrownBy(() -> g.reachableFrom(new int[] {3_000}, 1)).hasMessageContaining("3000");
        assertThatThrownBy(() -> g.reachableFrom(seeds, -1)).hasMessageContaining("-1");
    }

    @Test
    void loadsCnr2000WithAndWithoutOffsets(@TempDir Path dir) throws Exception {
        assumeTrue(cnrPresent(), "cnr-2000 not found at " + CNR.toAbsolutePath());
        BvGraphSource g = BvGraphSource.load(CNR);
        assertThat(g.numPages()).isEqualTo(325_557);
        assertThat(g.numArcs()).isEqualTo(3_216_152L);
        ImmutableGraph reference = ImmutableGraph.load(CNR.toString());
        for (int p = 0; p < g.numPages(); p += 997) {
            int[] expected = Arrays.copyOf(reference.successorArray(p), reference.outdegree(p));
            assertThat(g.outlinks(p)).as("successors of %d", p).isEqualTo(expected);
        }
        // the same graph without its .offsets file, named with its .graph extension
        for (String ext : new String[] {".graph", ".properties"}) {
            Files.copy(Path.of(CNR + ext), dir.resolve("cnr" + ext));
        }
        BvGraphSource noOffsets = BvGraphSource.load(dir.resolve("cnr.graph"));
        assertThat(noOffsets.numArcs()).isEqualTo(g.numArcs());
        for (int p = 0; p < g.numPages(); p += 101) {
            assertThat(noOffsets.outlinks(p)).isEqualTo(g.outlinks(p));
        }
        int hub = g.maxOutdegreePage();
        assertThat(g.reachableFrom(new int[] {hub}, WebGraphSource.UNLIMITED_DEPTH).cardinality())
                .isGreaterThan(100_000);
    }

    @Test
    void missingBasenameIsReported(@TempDir Path dir) {
        assertThatThrownBy(() -> BvGraphSource.load(dir.resolve("nothing")))
                .isInstanceOf(FileNotFoundException.class).hasMessageContaining("nothing.properties");
    }
}
