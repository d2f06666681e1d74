package io.github.kcrawler.lab.revisits;

import io.github.kcrawler.lab.dedup.bench.BenchReport;
import io.github.kcrawler.lab.report.SummaryGolden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The arithmetic of {@code bench revisits}: per-revisit figures from two snapshots, and /proc/self/io parsing. */
class RevisitsBenchFiguresTest {
    @Test
    void figuresArePerRevisitDifferences(@TempDir Path dir) throws Exception {
        Path io = dir.resolve("io");
        Files.writeString(io, "rchar: 100\nwchar: 2000\nsyscr: 3\nread_bytes: 0\nwrite_bytes: 4096\nbogus: x\n");
        Map<String, Long> parsed = ProcIo.parse(io);
        assertThat(parsed).containsEntry("wchar", 2000L).containsEntry("write_bytes", 4096L)
                .doesNotContainKey("bogus");
        assertThat(ProcIo.parse(dir.resolve("absent"))).isEmpty();

        RevisitsBench.Snapshot before = new RevisitsBench.Snapshot(10, 5, 7, 20, 30, 9_000, Map.of("write_bytes", 0L,
                "wchar", 0L));
        RevisitsBench.Snapshot after = new RevisitsBench.Snapshot(110, 5, 107, 220, 130, 39_000,
                Map.of("write_bytes", 81_920L, "wchar", 60_000L));
        RevisitsBench.Figures f = RevisitsBench.figures(before, after, 10.0, 50_000_000L, 20_000_000L, 900_000_000L,
                0);
        assertThat(f.revisits()).isEqualTo(100L);
        assertThat(f.firstFetches()).as("none in the window").isZero();
        assertThat(f.pagesWithState()).as("first fetches since the start, at the window's end").isEqualTo(5L);
        assertThat(f.randomStoreReadsPerRevisit()).isEqualTo(1.0);
        assertThat(f.storeWritesPerRevisit()).isEqualTo(2.0);
        assertThat(f.recordBytes()).isEqualTo(300.0);
        assertThat(f.bytesWrittenPerRevisit()).isEqualTo(819.2);
        assertThat(f.wcharPerRevisit()).isEqualTo(600.0);
        assertThat(f.schedulerCpuMsPerRevisit()).isEqualTo(0.5);
        assertThat(f.rocksDbCpuMsPerRevisit()).isEqualTo(0.2);
        assertThat(f.processCpuMsPerRevisit()).isEqualTo(9.0);
        assertThat(f.revisitsPerSecond()).isEqualTo(10.0);
        assertThat(f.stateBytesWrittenPerRevisit()).as("no state bytes counted").isZero();

        // the revisit state's own bytes: the changelog's growth on the broker plus the bucket files' writes
        RevisitsBench.Snapshot b2 = new RevisitsBench.Snapshot(10, 5, 7, 20, 30, 9_000, Map.of(), 50_000, 8_192);
        RevisitsBench.Snapshot a2 = new RevisitsBench.Snapshot(110, 5, 107, 220, 130, 39_000, Map.of(), 62_000,
                8_192 + 40_960);
        RevisitsBench.Figures g = RevisitsBench.figures(b2, a2, 10.0, 0, 0, 0, 0);
        assertThat(g.changelogBytesPerRevisit()).isEqualTo(120.0);
        assertThat(g.bucketBytesPerRevisit()).isEqualTo(409.6);
        assertThat(g.stateBytesWrittenPerRevisit()).isEqualTo(529.6);
        assertThat(g.bytesWrittenPerRevisit()).as("the whole process's figure is kept apart").isZero();
        RevisitsBench.Pooled p = RevisitsBench.Pooled.of(Map.of("zipf", g));
        assertThat(p.stateBytesWrittenPerRevisit()).isEqualTo(529.6);
        assertThat(p.changelogBytesPerRevisit()).isEqualTo(120.0);
        assertThat(p.bucketBytesPerRevisit()).isEqualTo(409.6);
        RevisitsBench.Figures h = RevisitsBench.figures(b2, a2, 10.0, 0, 40_000_000L, 0, 0);
        assertThat(RevisitsBench.Pooled.of(Map.of("zipf", g, "peaked", h)).rocksDbCpuMsPerRevisit())
                .as("weighted by revisits: 100 at 0 ms and 100 at 0.4 ms").isEqualTo(0.2);
        assertThat(RevisitsBench.revisitChangelog("satl")).isEqualTo("scheduler-scheduler-revisit-satl-changelog");
        assertThat(RevisitsBench.revisitChangelog("store")).isEqualTo("scheduler-scheduler-revisit-state-changelog");
        assertThat(RevisitsBench.revisitChangelog("satl-time-order")).isEqualTo(RevisitsBench.revisitChangelog("satl"));
        assertThat(RevisitsBench.flushOrder("satl")).isEqualTo("farthest-first");
        assertThat(RevisitsBench.flushOrder("satl-time-order")).isEqualTo("time-order");
        assertThat(RevisitsBench.state("satl-time-order")).isEqualTo("satl");
        assertThat(RevisitsBench.state("store")).isEqualTo("store");
        assertThat(RevisitsBench.state("satl-strict")).isEqualTo("satl");
        assertThat(RevisitsBench.flushOrder("satl-strict")).isEqualTo("farthest-first");
        assertThat(RevisitsBench.earlyFraction("satl-strict")).isEqualTo("0");
        assertThat(Double.parseDouble(RevisitsBench.earlyFraction("satl"))).as("the default, ours")
                .isEqualTo(1.0 / 12);

        // how early the window's due revisits were: the mean of the early-fraction summary over the window
        RevisitsBench.Snapshot b3 = new RevisitsBench.Snapshot(10, 5, 7, 20, 30, 9_000, Map.of(), 0, 0, 400, 6.0);
        RevisitsBench.Snapshot a3 = new RevisitsBench.Snapshot(110, 5, 107, 220, 130, 39_000, Map.of(), 0, 0, 500,
                8.5);
        assertThat(RevisitsBench.figures(b3, a3, 10.0, 0, 0, 0, 0).meanEarlyFraction()).isEqualTo(0.025);
        assertThat(RevisitsBench.figures(b3, b3, 10.0, 0, 0, 0, 0).meanEarlyFraction()).as("none due").isZero();
    }

    /**
     * The summary the typed figures write is the one the untyped maps wrote, byte for byte (captured before), but
     * for the three fields of the revisit state's own bytes, the state's size ({@code pagesWithState}) and the CPU of
     * RocksDB's threads and of the process, added since.
     */
    @Test
    void pooledSummary_isTheMapsByteForByte(@TempDir Path dir) throws Exception {
        RevisitsBench.Snapshot before = new RevisitsBench.Snapshot(10, 5, 7, 20, 30, 9_000, Map.of("write_bytes", 0L,
                "wchar", 0L));
        RevisitsBench.Snapshot after = new RevisitsBench.Snapshot(110, 5, 107, 220, 130, 39_000,
                Map.of("write_bytes", 81_920L, "wchar", 60_000L, "rchar", 777L, "read_bytes", 4096L));
        RevisitsBench.Snapshot after2 = new RevisitsBench.Snapshot(310, 9, 407, 620, 330, 99_000,
                Map.of("write_bytes", 181_920L, "wchar", 90_000L));
        Map<String, RevisitsBench.Figures> byModel = new LinkedHashMap<>();
        byModel.put("zipf", RevisitsBench.figures(before, after, 10.0, 50_000_000L, 0, 0, 0));
        byModel.put("peaked", RevisitsBench.figures(before, after2, 12.5, 70_000_000L, 0, 0, 3));
        Path file = dir.resolve("revisits.json");
        BenchReport.writeJson(Map.of("satl", RevisitsBench.Pooled.of(byModel)), file);
        SummaryGolden.assertSame(SummaryGolden.before("revisits-variant.json"), Files.readString(file), Set.of(),
                Set.of("stateBytesWrittenPerRevisit", "changelogBytesPerRevisit", "bucketBytesPerRevisit",
                        "pagesWithState", "rocksDbCpuMsPerRevisit", "processCpuMsPerRevisit", "meanEarlyFraction"));
    }
}
