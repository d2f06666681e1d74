package io.github.kcrawler.lab.dedup.bench;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
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
        Map<String, Object> r = ImpCbfBench.run(new ImpCbfBench.Options(List.of(20_000, 30_000),
                List.of(0.078), 1, work, 1L), QUIET);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> results = (List<Map<String, Object>>) r.get("results");
        assertThat(results).hasSize(2);
        Map<String, Object> first = results.get(0);
        assertThat(first.get("answersAgree")).isEqualTo(true);
        assertThat((Long) first.get("dbReadsAvoided")).isGreaterThan(17_000L);
        assertThat((Long) first.get("baselineDbReads")).isEqualTo(20_000L);
        // 20,000 × 20 counters at half a byte, plus the (empty) saturation index
        assertThat((Long) first.get("filterMemoryBytes")).isBetween(200_000L, 201_000L);
        assertThat((Double) first.get("speedup")).isPositive();
        assertThat(r).containsKeys("speedupAt2M", "machine");
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
