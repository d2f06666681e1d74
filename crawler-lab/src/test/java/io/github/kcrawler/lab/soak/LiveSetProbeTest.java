package io.github.kcrawler.lab.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The probe against a real JVM — this one: jcmd takes its class histogram when due, and only then. */
class LiveSetProbeTest {

    @Test
    void takesAHistogramOfTheLiveHeapWhenDue(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jcmd")),
                "this Java has no jcmd");
        long start = System.nanoTime();
        try (LiveSetProbe probe = new LiveSetProbe(ProcessHandle.current().pid(), 10, start, dir)) {
            long nine = start + TimeUnit.SECONDS.toNanos(9);
            probe.maybeForce(nine); // not due yet
            assertThat(probe.forced()).isZero();
            assertThat(probe.nanosUntilNext(nine)).isEqualTo(TimeUnit.SECONDS.toNanos(1));
            probe.maybeForce(start + TimeUnit.SECONDS.toNanos(10));
            assertThat(probe.forced()).isEqualTo(1);
            probe.close(); // waits for jcmd
            assertThat(probe.failures()).isZero();
            assertThat(probe.histograms()).singleElement().satisfies(h -> {
                assertThat(h.seconds()).isEqualTo(10.0);
                assertThat(h.file().getFileName().toString()).isEqualTo("histo-0010.txt");
            });
            ClassHistogram h = ClassHistogram.read(probe.histograms().get(0).file());
            assertThat(h.classes()).isGreaterThan(100); // this JVM's classes, from a real histogram
            assertThat(h.totalBytes()).isPositive();
        }
    }

    @Test
    void anIntervalOfZeroNeverRunsJcmd(@TempDir Path dir) {
        long start = System.nanoTime();
        try (LiveSetProbe probe = new LiveSetProbe(ProcessHandle.current().pid(), 0, start, dir)) {
            probe.maybeForce(start + TimeUnit.HOURS.toNanos(1));
            assertThat(probe.forced()).isZero();
            assertThat(probe.nanosUntilNext(start)).isEqualTo(Long.MAX_VALUE);
            assertThat(probe.histograms()).isEmpty();
        }
    }
}
