package io.github.kcrawler.lab.soak;

import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** On GC logs captured on this machine (Java 17.0.15: G1 with gc*, Parallel with gc*, Serial with gc). */
class GcLogTest {
    private static final long M = 1 << 20;

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(Objects.requireNonNull(GcLogTest.class.getResource("/soak/" + name), name).toURI());
    }

    @Test
    void g1_readsEveryPauseSummaryAndIgnoresPhasesStartLinesAndMetaspace() throws Exception {
        List<GcLog.Pause> pauses = GcLog.read(resource("gc-g1.log"));

        assertThat(pauses).extracting(GcLog.Pause::kind).containsExactly(
                "Young (Normal) (G1 Evacuation Pause)", "Young (Concurrent Start) (G1 Evacuation Pause)", "Remark",
                "Cleanup", "Young (Prepare Mixed) (G1 Evacuation Pause)", "Young (Mixed) (G1 Evacuation Pause)",
                "Young (Normal) (G1 Preventive Collection)", "Full (System.gc())");
        GcLog.Pause first = pauses.get(0);
        assertThat(first.uptimeSeconds()).isCloseTo(0.916, within(1e-9));
        assertThat(first.beforeBytes()).isEqualTo(6 * M);
        assertThat(first.afterBytes()).isEqualTo(3 * M);
        assertThat(first.capacityBytes()).isEqualTo(64 * M);
        assertThat(first.pauseMs()).isCloseTo(11.268, within(1e-9));
        GcLog.Pause full = pauses.get(7);
        assertThat(full.uptimeSeconds()).isCloseTo(1.702, within(1e-9));
        assertThat(full.afterBytes()).isEqualTo(20 * M);
    }

    @Test
    void parallel_readsFullAndYoungPauses() throws Exception {
        List<GcLog.Pause> pauses = GcLog.read(resource("gc-parallel.log"));

        assertThat(pauses).extracting(GcLog.Pause::kind)
                .containsExactly("Full (Ergonomics)", "Full (Ergonomics)", "Young (System.gc())");
        assertThat(pauses).extracting(GcLog.Pause::afterBytes).containsExactly(17 * M, 17 * M, 20 * M);
        assertThat(pauses).extracting(GcLog.Pause::capacityBytes).containsExactly(51 * M, 59 * M, 59 * M);
    }

    @Test
    void serial_withOnlyTheDefaultDecorators_takesTheUptime() throws Exception {
        List<GcLog.Pause> pauses = GcLog.read(resource("gc-serial.log"));

        assertThat(pauses).hasSize(7);
        assertThat(pauses.get(6).uptimeSeconds()).isCloseTo(1.387, within(1e-9));
        assertThat(pauses).extracting(GcLog.Pause::afterBytes)
                .containsExactly(4 * M, 6 * M, 9 * M, 11 * M, 13 * M, 16 * M, 18 * M);
    }

    @Test
    void theFullGcTheSoakForcesWithJcmd() {
        // as G1 logs the full GC of jcmd <pid> GC.class_histogram
        assertThat(GcLog.parseLine("[2026-11-26T13:37:22.487+0000][60.879s][info][gc             ] GC(58) Pause Full "
                + "(Heap Inspection Initiated GC) 491M->368M(869M) 220.329ms")).hasValueSatisfying(p -> {
                    assertThat(p.kind()).isEqualTo("Full (Heap Inspection Initiated GC)")
                            .contains(SoakRunner.FORCED_KIND);
                    assertThat(p.afterBytes()).isEqualTo(368L << 20);
                    assertThat(p.pauseMs()).isEqualTo(220.329);
                });
    }

    @Test
    void unitsAndTheMillisecondUptimeDecorator() {
        assertThat(GcLog.parseLine("[12345ms][info][gc] GC(9) Pause Young (Normal) (G1 Evacuation Pause) "
                + "1G->512K(2G) 0.5ms")).hasValueSatisfying(p -> {
                    assertThat(p.uptimeSeconds()).isEqualTo(12.345);
                    assertThat(p.beforeBytes()).isEqualTo(1L << 30);
                    assertThat(p.afterBytes()).isEqualTo(512L << 10);
                    assertThat(p.capacityBytes()).isEqualTo(2L << 30);
                });
    }

    @Test
    void junkTruncatedAndAbsurdLinesAreSkippedNotThrown(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assertThat(GcLog.parseLine(null)).isEmpty();
        assertThat(GcLog.parseLine("")).isEmpty();
        assertThat(GcLog.parseLine("[1.0s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 6M->3")).isEmpty();
        assertThat(GcLog.parseLine("GC(3) Pause Young (Normal) 6M->3M(64M) 1.0ms")).as("no uptime").isEmpty();
        assertThat(GcLog.parseLine("[1.0s][info][gc] GC(3) Pause Young 99999999999999999999M->3M(64M) 1.0ms"))
                .isEmpty();
        assertThat(GcLog.parseLine("[1.0s][info][gc] GC(3) Pause Young 9999999999999G->3M(64M) 1.0ms")).isEmpty();
        assertThat(GcLog.parseLine("[1.0s] Pause " + "x ".repeat(100_000) + "1M->1M(1M) 1ms")).isEmpty();
        Path log = dir.resolve("gc.log");
        Files.write(log, new byte[] {'[', '1', 's', ']', (byte) 0xff, (byte) 0xfe, '\n'});
        assertThat(GcLog.read(log)).isEmpty();
        assertThat(GcLog.read(dir.resolve("absent.log"))).isEmpty();
    }
}
