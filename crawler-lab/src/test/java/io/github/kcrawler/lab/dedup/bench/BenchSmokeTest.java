package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;
import io.github.kcrawler.lab.report.SummaryGolden;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The benchmark entry points run end to end at toy sizes and produce the fields the CLI promises. */
class BenchSmokeTest {
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    @Test
    void sbflDecrement_reportsTheThreeRates() {
        SbflDecrementResult r = SbflDecrementBench.run(
                new SbflDecrementBench.Options(16, 2_000_000, 2, 84.73, 1L), QUIET);
        assertThat(r.sbfDecrementsPerSec()).isPositive();
        assertThat(r.sbflDecrementsPerSec()).isPositive();
        assertThat(r.sbflSwarDecrementsPerSec()).isPositive();
        assertThat(r.sbflSwarPerInsertionDecrementsPerSec()).isPositive();
        assertThat(r.sbflSwarSpeedupOverSbf()).isPositive();
        assertThat(r.machine().cores()).isPositive();
        // 2×10^6 decrements of 2^16 counters at Max = 3: 30.5 sweeps, so only 3 × 2^16 of them lowered a counter
        assertThat(r.countersLowered()).isEqualTo(3L << 16);
        assertThat(r.arrayBytes()).isEqualTo((1L << 16) * 2 / 8);
        assertThat(r.bytesTouchedPerSecond()).isEqualTo(r.sbflSwarDecrementsPerSec() * 2 / 8 * 2,
                org.assertj.core.data.Offset.offset(r.bytesTouchedPerSecond() * 1e-5));
        assertThat(r.arrayCopyBytesPerSecond()).isPositive();
    }

    @Test
    void urlSeenThroughput_tieredAndRocksDbOnly_giveTheSameAnswers() throws Exception {
        Path work = Path.of("target", "bench-smoke-url-seen");
        UrlSeenThroughputBench.deleteRecursively(work);
        LinkGraph g = SyntheticWebGraph.generate(20_000, 20, 8, 5L);
        UrlSeenResult r = UrlSeenThroughputBench.run(new UrlSeenThroughputBench.Options(g, 0,
                new UrlSeenTierConfig(1 << 10, 1L << 16, 8, 1e-5, 2), 1, 1_000_000, work), QUIET);
        assertThat(r.rocksdbOnlyAnswersExact()).isTrue();
        assertThat(r.tieredTestsPerSec()).isPositive();
        assertThat(r.rocksdbOnlyTestsPerSec()).isPositive();
        assertThat(r.answersDiffering()).isLessThan(20L);
        UrlSeenResult.Tiered tiered = r.tiered();
        assertThat(tiered.lruHits() + tiered.sbflPositives() + tiered.storageLookups()).isEqualTo(tiered.tests());
        assertThat(tiered.storageHits() + tiered.newUrls()).isEqualTo(tiered.storageLookups());

        // the summary is the untyped map's, byte for byte, but for the timings (captured before the conversion)
        Path file = work.resolve("url-seen.json");
        BenchReport.writeJson(r, file);
        SummaryGolden.assertSame(SummaryGolden.before("url-seen.json"), Files.readString(file),
                Set.of("tieredTestsPerSec", "rocksdbOnlyTestsPerSec", "speedup", "cores", "os", "java",
                        "maxHeapBytes", "cpu"), Set.of());
        assertThat(JsonSerde.MAPPER.readValue(file.toFile(), UrlSeenResult.class)).isEqualTo(r);
    }

    @Test
    void urlSeenMemory_writesReductionsCurvesAndAPlot() throws Exception {
        Path plot = Path.of("target", "bench-smoke", "url-seen");
        UrlSeenMemoryResult r = UrlSeenMemoryBench.run(new UrlSeenMemoryBench.Options(null, 0, -1, true, 1_000_000,
                6, 2, 2, false, plot, 3L), QUIET);
        assertThat(r.datasets()).containsOnlyKeys("synthetic");
        UrlSeenMemoryResult.Dataset synthetic = r.datasets().get("synthetic");
        assertThat(r.memoryReductionK4()).isEqualTo(synthetic.memoryReductionK4());
        assertThat(synthetic.lruOnly()).hasSize(9);
        assertThat(synthetic.sbflK4()).hasSize(7);
        assertThat(synthetic.sbfK4()).isNull();
        String svg = Files.readString(Path.of(plot + "-synthetic.svg"));
        assertThat(svg).startsWith("<svg").contains("LRU alone").contains("polyline");
    }

    /**
     * The summary is the untyped maps', byte for byte (captured before the conversion) but for the run time, the
     * measured memory (JVM-dependent) and the machine: with and without the SBF, the graph and the synthetic stream
     * together (with a plot) and the graph alone (no synthetic fields at all).
     */
    @Test
    void urlSeenMemory_summaryIsTheMapsByteForByte(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        LinkGraph g = SyntheticWebGraph.generate(5_000, 20, 8, 5L);
        Object[][] cases = {
            {"url-seen-memory.json", new UrlSeenMemoryBench.Options(null, 0, -1, true, 1_000_000, 6, 2, 2, true,
                    null, 3L)},
            {"url-seen-memory-graph.json", new UrlSeenMemoryBench.Options(g, 0, 3, true, 1_000_000, 6, 1, 2, false,
                    Path.of("target", "capture-mem"), 3L)},
            {"url-seen-memory-graph-only.json", new UrlSeenMemoryBench.Options(g, 0, 3, false, 1_000_000, 6, 1, 2,
                    false, null, 3L)}};
        for (Object[] c : cases) {
            UrlSeenMemoryResult r = UrlSeenMemoryBench.run((UrlSeenMemoryBench.Options) c[1], QUIET);
            Path file = dir.resolve((String) c[0]);
            BenchReport.writeJson(r, file);
            SummaryGolden.assertSame(SummaryGolden.before((String) c[0]), Files.readString(file),
                    Set.of("seconds", "cores", "os", "java", "maxHeapBytes", "cpu"), Set.of());
            UrlSeenMemoryResult read = JsonSerde.MAPPER.readValue(file.toFile(), UrlSeenMemoryResult.class);
            assertThat(read.datasets()).isEqualTo(r.datasets());
            List<Path> plots = io.github.kcrawler.lab.report.UrlSeenMemoryPlots.plot(read, dir.resolve("plots"));
            assertThat(plots).hasSize(6 * r.datasets().size()); // Figs. 5, 6, 7, 8, 9 and 10
        }
    }
}
