package io.github.kcrawler.lab.dedup.bench;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.nio.file.Path;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.report.ImpCbfPlots;
import io.github.kcrawler.lab.report.SummaryGolden;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ImpCbfBenchTest {
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    record Fp(long hi, long lo) {
    }

    @Test
    void stream_duplicatesAreCopiesOfEarlierItems_atTheRequestedRatio() {
        ImpCbfBench.Stream128 s = ImpCbfBench.generate(200_000, 0.30, 7L);
        Map<Fp, Integer> seen = new HashMap<>();
        int maxCluster = 0;
        for (int i = 0; i < s.n(); i++) {
            Fp fp = new Fp(s.hi()[i], s.lo()[i]);
            int c = seen.merge(fp, 1, Integer::sum);
            maxCluster = Math.max(maxCluster, c);
            assertThat(s.duplicate().get(i)).as("item %d", i).isEqualTo(c > 1);
        }
        assertThat(s.duplicate().cardinality() / 200_000.0).isBetween(0.29, 0.31);
        // preferential attachment: a heavy tail, far above what uniform copying (max ≈ 6 here) would give
        assertThat(maxCluster).isGreaterThan(20);
    }

    @Test
    void run_bothVariantsAgree_andReportTheFields() throws Exception {
        Path work = Path.of("target", "bench-smoke-imp-cbf");
        UrlSeenThroughputBench.deleteRecursively(work);
        ImpCbfResult r = ImpCbfBench.run(new ImpCbfBench.Options(List.of(20_000, 30_000),
                List.of(0.078), 1, work, 1L), QUIET);
        List<ImpCbfResult.Row> results = r.results();
        assertThat(results).hasSize(2);
        ImpCbfResult.Row first = results.get(0);
        assertThat(first.answersAgree()).isTrue();
        assertThat(first.dbReadsAvoided()).isGreaterThan(17_000L);
        assertThat(first.baselineDbReads()).isEqualTo(20_000L);
        // 20,000 × 20 counters at half a byte, plus the (empty) saturation index
        assertThat(first.filterMemoryBytes()).isBetween(200_000L, 201_000L);
        assertThat(first.speedup()).isPositive();
        assertThat(r.speedupAt2M()).isNull();
        assertThat(r.complete()).isTrue();
    }

    /** The summary is the untyped map's, byte for byte, but for timings, sizes on disk and paths (captured before). */
    @Test
    void summary_isTheMapsByteForByte(@TempDir Path dir) throws Exception {
        Path work = Path.of("target", "bench-golden-imp-cbf");
        UrlSeenThroughputBench.deleteRecursively(work);
        List<ImpCbfResult> partials = new ArrayList<>();
        ImpCbfResult r = ImpCbfBench.run(new ImpCbfBench.Options(List.of(20_000, 30_000), List.of(0.078, 0.3), 1,
                work, 1L), QUIET, partials::add);
        assertThat(partials).hasSize(4).extracting(ImpCbfResult::complete).containsExactly(false, false, false, true);
        Path file = dir.resolve("imp-cbf.json");
        BenchReport.writeJson(r, file);
        SummaryGolden.assertSame(SummaryGolden.before("imp-cbf.json"), Files.readString(file),
                Set.of("baselineSeconds", "impCbSeconds", "baselineItemsPerSec", "impCbItemsPerSec", "speedup",
                        "baselineDbBytesOnDisk", "impCbDbBytesOnDisk", "workDir", "cores", "os", "java",
                        "maxHeapBytes", "cpu"), Set.of());
        assertThat(JsonSerde.MAPPER.readValue(file.toFile(), ImpCbfResult.class)).isEqualTo(r);
        List<Path> plots = ImpCbfPlots.plot(r, dir.resolve("plots"));
        assertThat(Files.readString(plots.get(1))).contains("IMP-CB filter, 30.0% dup.", "fingerprint DB only, 7.8% dup.");
    }

    @Test
    void options_rejectBadValuesByName() {
        Path w = Path.of("target");
        assertThatThrownBy(() -> new ImpCbfBench.Options(List.of(0), List.of(0.1), 1, w, 1))
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> new ImpCbfBench.Options(List.of(10), List.of(1.0), 1, w, 1))
                .hasMessageContaining("was 1.0");
        assertThatThrownBy(() -> new ImpCbfBench.Options(List.of(10), List.of(0.1), 0, w, 1))
                .hasMessageContaining("was 0");
        assertThat(ImpCbfBench.Options.sizesUpTo(2_000_000)).containsExactly(500_000, 1_000_000, 1_500_000,
                2_000_000);
        assertThat(ImpCbfBench.Options.sizesUpTo(1000)).containsExactly(1000);
    }
}
