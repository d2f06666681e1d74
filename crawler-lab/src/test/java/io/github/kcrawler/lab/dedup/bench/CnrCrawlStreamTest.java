package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.lab.dedup.bench.UrlSeenExperiment.Config;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.store.HashFingerprintSet;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The URL-seen test on a real crawl stream: every link occurrence of a breadth-first crawl of cnr-2000 (3.2 M tests).
 * The tiered test never admits a page twice and skips few; and the paper's qualitative findings hold on this
 * graph: hit rate grows with the SBFL, and the SBFL makes fewer false positives and false negatives than the SBF at
 * the same size (seed 000 §5.5, Figs. 6 and 7).
 */
class CnrCrawlStreamTest {
    @Test
    void tieredTest_neverAdmitsAPageTwice_onTheRealStream() {
        LinkGraph graph = CnrGraph.get();
        UrlSeenTiers seen = new UrlSeenTiers(1 << 10,
                StableBloomFilterLight.forTargetFpr(1L << 18, 4, 0.01, 2), new HashFingerprintSet());
        BitSet admitted = new BitSet(graph.numNodes());
        long[] twice = {0};
        long[] skipped = {0};
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(graph, 0, true, (node, wasSeen) -> {
            boolean isNew = seen.testAndAdd(UrlSeenThroughputBench.fingerprint(node));
            if (isNew) {
                twice[0] += admitted.get(node) ? 1 : 0;
                admitted.set(node);
            } else if (!wasSeen) {
                skipped[0]++;
            }
        });
        assertThat(stats.tests()).isEqualTo(3_216_159L); // 3,216,152 links + 7 restart seeds
        assertThat(stats.distinct()).isEqualTo(325_557L);
        assertThat(twice[0]).isZero();
        assertThat(skipped[0]).isLessThanOrEqualTo(seen.sbflPositives());
        // SBFL target 1%: skipped URLs are about 1% of those that reach the filter, far fewer of all new ones
        assertThat(skipped[0] / (double) stats.distinct()).isLessThan(0.02);
        assertThat(seen.tests()).isEqualTo(stats.tests());
        assertThat(seen.storageLookups()).isEqualTo(seen.storageHits() + seen.newUrls());
    }

    @Test
    void papersGrid_scaledToCnr_reproducesTheQualitativeFindings() {
        UrlSeenExperiment e = new UrlSeenExperiment(6, 0, 2, true, 1L);
        e.run(CnrGraph.get(), 0, new PrintStream(PrintStream.nullOutputStream()));
        List<Config> lru = e.series("lruOnly");
        for (int i = 1; i < lru.size(); i++) {
            assertThat(lru.get(i).hitRate()).as("LRU hit rate grows with size").isGreaterThanOrEqualTo(
                    lru.get(i - 1).hitRate());
            assertThat(lru.get(i).falsePositives).isZero();
        }
        List<Config> sbfl = e.series("sbflK4");
        List<Config> sbf = e.series("sbfK4");
        double fixedAlone = lru.get(2).hitRate(); // the LRU of the method (2^8) alone
        for (int i = 0; i < sbfl.size(); i++) {
            assertThat(sbfl.get(i).hitRate()).as("SBFL adds hits").isGreaterThan(fixedAlone);
            assertThat(sbfl.get(i).falsePositives).as("SBFL FP <= SBF FP at m=%d", sbfl.get(i).counters)
                    .isLessThan(sbf.get(i).falsePositives);
            assertThat(sbfl.get(i).falseNegatives).as("SBFL FN <= SBF FN at m=%d", sbfl.get(i).counters)
                    .isLessThan(sbf.get(i).falseNegatives);
        }
        Double reduction = UrlSeenMemoryBench.reduction(sbfl.get(3), lru, UrlSeenMemoryBench.Accounting.PAPER);
        assertThat(reduction).as("memory saved at equal hit rate, k=4, m=2^15").isNotNull().isGreaterThan(0.3);
    }
}
