package io.github.kcrawler.lab.revisits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
        Map<String, Object> f = RevisitsBench.figures(before, after, 10.0, 50_000_000L, 0);
        assertThat(f.get("revisits")).isEqualTo(100L);
        assertThat(f.get("randomStoreReadsPerRevisit")).isEqualTo(1.0);
        assertThat(f.get("storeWritesPerRevisit")).isEqualTo(2.0);
        assertThat(f.get("recordBytes")).isEqualTo(300.0);
        assertThat(f.get("bytesWrittenPerRevisit")).isEqualTo(819.2);
        assertThat(f.get("wcharPerRevisit")).isEqualTo(600.0);
        assertThat(f.get("schedulerCpuMsPerRevisit")).isEqualTo(0.5);
        assertThat(f.get("revisitsPerSecond")).isEqualTo(10.0);
    }
}
