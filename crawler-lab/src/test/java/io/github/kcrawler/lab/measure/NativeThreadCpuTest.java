package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link NativeThreadCpu}: the stat line's fields counted after the name, and a thread's CPU read by its name. */
class NativeThreadCpuTest {
    @Test
    void ticks_areUtimePlusStime_countedAfterTheLastParenthesis() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        assertThat(NativeThreadCpu.ticks("4242 (rocksdb:low) S 1 1 1 0 -1 4194368 10 0 0 0 123 45 0 0 20 0"))
                .isEqualTo(168);
        assertThat(NativeThreadCpu.ticks("7 (a) b (c) d) R 1 1 1 0 -1 0 0 0 0 0 5 6 0 0")).isEqualTo(11);
        assertThat(NativeThreadCpu.ticks("7 (x) R 1 2")).isEqualTo(-1);
        assertThat(NativeThreadCpu.ticks("garbage")).isEqualTo(-1);
        assertThat(NativeThreadCpu.ticks("7 (x) R 1 1 1 0 -1 0 0 0 0 0 five 6")).isEqualTo(-1);
    }

    @Test
    void usedSince_countsEachThreadFromItsBaseline_andNewThreadsFromZero() {
        assertThat(NativeThreadCpu.usedSince(Map.of(1L, 100L, 2L, 50L), Map.of(1L, 130L, 3L, 20L))).isEqualTo(50);
    }

    @Test
    void hotSpotsJitCompilerThreads_areFoundByTheJitGroupsKernelNames() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        assumeTrue(!java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-Xint"),
                "a JIT");
        // C1 and C2 CompilerThreadN, cut to 15 characters by the kernel; at least one lives while the VM does
        assertThat(NativeThreadCpu.byPrefix(ThreadGroups.NATIVE.get(ThreadGroups.JIT))).isNotEmpty();
        // a prefix list matches any of its prefixes
        assertThat(NativeThreadCpu.byPrefix(java.util.List.of("kc-no-such-thread", "C1 CompilerThre",
                "C2 CompilerThre"))).isNotEmpty();
        assertThat(NativeThreadCpu.byPrefix(java.util.List.of("kc-no-such-thread"))).isEmpty();
    }

    @Test
    void aBusyThread_isFoundByItsKernelName_withTheCpuItUsed() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        // HotSpot gives a Java thread's kernel name the first 15 characters of its Java name
        Map<Long, Long> before = NativeThreadCpu.byPrefix("kcburn");
        try (CpuBurner burner = CpuBurner.burn("kcburn-native", 150_000_000L)) {
            Map<Long, Long> during = NativeThreadCpu.byPrefix("kcburn");
            assertThat(before).isEmpty();
            assertThat(during).hasSize(1);
            // /proc counts in 10 ms ticks: within two ticks of what the thread measured itself
            assertThat(NativeThreadCpu.usedSince(before, during)).as("ns of CPU")
                    .isBetween(burner.burntNanos() - 20_000_000L, burner.burntNanos() + 20_000_000L);
        }
        // the Java thread has ended; the kernel task may outlive it by a moment (CI, 2026-11-29: still listed)
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!NativeThreadCpu.byPrefix("kcburn").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(NativeThreadCpu.byPrefix("kcburn")).as("an ended thread is not listed").isEmpty();
    }
}
