package io.github.kcrawler.lab.report;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.dedup.bench.BenchReport;
import io.github.kcrawler.lab.dedup.bench.SbflDecrementBench;
import io.github.kcrawler.lab.dedup.bench.SbflDecrementResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench sbfl-decrement}'s typed result: its summary is the one the untyped map wrote (timings masked, the two
 * bandwidths and the check's figures added), it reads back into the same record, and its charts are drawn from the
 * record's fields.
 */
class SbflDecrementResultTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final Set<String> TIMINGS = Set.of("sbfSeconds", "sbflSeconds", "sbflSwarSeconds",
            "sbfDecrementsPerSec", "sbflDecrementsPerSec", "sbflSwarDecrementsPerSec", "sbflSpeedupOverSbf",
            "sbflSwarSpeedupOverSbf", "sbflPerInsertionDecrementsPerSec", "sbflSwarPerInsertionDecrementsPerSec",
            "cores", "os", "java", "maxHeapBytes", "cpu");
    private static final Set<String> ADDED = Set.of("arrayBytes", "countersLowered", "bytesTouchedPerSecond",
            "arrayCopyBytesPerSecond");

    @Test
    void summary_isTheMapsByteForByte_exceptTimingsAndTheAddedBandwidths(@TempDir Path dir) throws Exception {
        for (String[] c : new String[][] {{"84.73", "sbfl-decrement.json"}, {"0", "sbfl-decrement-no-p.json"}}) {
            SbflDecrementResult r = SbflDecrementBench.run(new SbflDecrementBench.Options(16, 2_000_000, 2,
                    Double.parseDouble(c[0]), 1L), QUIET);
            Path file = dir.resolve(c[1]);
            BenchReport.writeJson(r, file);
            SummaryGolden.assertSame(SummaryGolden.before(c[1]), Files.readString(file), TIMINGS, ADDED);
            assertThat(JsonSerde.MAPPER.readValue(file.toFile(), SbflDecrementResult.class)).isEqualTo(r);
        }
    }

    @Test
    void charts_areDrawnFromTheRecordsFields(@TempDir Path dir) throws Exception {
        SbflDecrementResult r = new SbflDecrementResult(1L << 20, 2, 1_000_000, 0.1, 0.01, 0.001, 1.0e7, 1.0e8,
                1.0e9, 10, 100, 33.9905, 331.576, null, null, null, 262_144, 1_000_000, 5.0e8, 7.5e9,
                new BenchReport.Machine(2, "os", "java", 1L << 30, "cpu"));
        List<Path> files = SbflDecrementPlots.plot(r, dir);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly(
                "table1-decrements-per-second.svg", "table1-speedup-over-sbf.svg", "table1-seconds-for-2e9.svg",
                "bandwidth.svg");
        String rates = Files.readString(files.get(0));
        assertThat(rates).contains("SBFL SWAR (32-way)", "2^20 2-bit counters").doesNotContain("p per step");
        String bandwidth = Files.readString(files.get(3));
        assertThat(bandwidth).contains("System.arraycopy", "262,144-byte", "500,000,000", "7,500,000,000");
    }
}
