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
        Map<String, Object> r = UrlSeenMemoryBench.run(new UrlSeenMemoryBench.Options(null, 0, -1, true, 1_000_000,
                6, 2, 2, false, plot, 3L), QUIET);
        assertThat(r).containsKeys("memoryReductionK4", "memoryReductionK8", "datasets");
        @SuppressWarnings("unchecked")
        Map<String, Object> synthetic = (Map<String, Object>) ((Map<String, Object>) r.get("datasets")).get("synthetic");
        assertThat((List<?>) synthetic.get("lruOnly")).hasSize(9);
        assertThat((List<?>) synthetic.get("sbflK4")).hasSize(7);
        String svg = Files.readString(Path.of(plot + "-synthetic.svg"));
        assertThat(svg).startsWith("<svg").contains("LRU alone").contains("polyline");
    }
}
