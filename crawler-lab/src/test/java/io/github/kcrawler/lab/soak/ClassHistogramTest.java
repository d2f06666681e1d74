package io.github.kcrawler.lab.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Histograms as jcmd GC.class_histogram prints them (rows from a soak's crawl JVM) and what grew between two. */
class ClassHistogramTest {
    private static final List<String> EARLIER = List.of(
            "23308:",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:        402758      109400760  [B (java.base@17.0.15)",
            "   2:          6030       96347016  [I (java.base@17.0.15)",
            "   3:          9999       93338944  [J (java.base@17.0.15)",
            "  27:          8964         430272  io.github.kcrawler.fetcher.robots.RobotsRules",
            "  40:         19997         319952  java.lang.Object (java.base@17.0.15)",
            "Total       2348041      397708016");
    private static final List<String> LATER = List.of(
            "23308:",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:        426925      109932864  [B (java.base@17.0.15)",
            "   2:          6030       97526664  [I (java.base@17.0.15)",
            "   3:         18264       97329128  [J (java.base@17.0.15)",
            "  27:         16472         790656  io.github.kcrawler.fetcher.robots.RobotsRules",
            "  41:         19000         304000  java.lang.Object (java.base@17.0.15)",
            "  99:             5            400  io.github.kcrawler.Fresh",
            "Total       2356041      405708016");

    @Test
    void readsRowsAndSkipsThePidHeaderAndTotal() {
        ClassHistogram h = ClassHistogram.parse(EARLIER);
        assertThat(h.classes()).isEqualTo(5);
        assertThat(h.totalBytes()).isEqualTo(109400760L + 96347016 + 93338944 + 430272 + 319952);
    }

    @Test
    void namesWhatGrewMostFirst_withInstances_andLeavesOutWhatShrank() {
        List<ClassHistogram.Growth> grown = ClassHistogram.parse(LATER).grownSince(ClassHistogram.parse(EARLIER), 10);
        assertThat(grown).containsExactly(
                new ClassHistogram.Growth("[J", 97329128L - 93338944, 18264 - 9999),
                new ClassHistogram.Growth("[I", 97526664L - 96347016, 0),
                new ClassHistogram.Growth("[B", 109932864L - 109400760, 426925 - 402758),
                new ClassHistogram.Growth("io.github.kcrawler.fetcher.robots.RobotsRules", 790656 - 430272,
                        16472 - 8964),
                new ClassHistogram.Growth("io.github.kcrawler.Fresh", 400, 5));
        assertThat(ClassHistogram.parse(LATER).grownSince(ClassHistogram.parse(EARLIER), 2)).hasSize(2);
    }

    @Test
    void junkIsNoRow() {
        assertThat(ClassHistogram.parse(List.of("", "Total 1 2", "   x:  1 2 [B", "   1: 99999999999999999999 1 [B",
                "Exception in thread ...")).classes()).isZero();
    }

    @Test
    void theSoakDiffsTheFirstHistogramAfterTheWarmUpWithTheLast(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("a.txt"), LATER); // before the warm-up: not used
        Files.write(dir.resolve("b.txt"), EARLIER);
        Files.write(dir.resolve("c.txt"), List.of("23308:", "com.sun.tools.attach.AttachNotSupportedException"));
        Files.write(dir.resolve("d.txt"), LATER);
        SoakRunner.LiveSetGrowth g = SoakRunner.liveSetGrowth(List.of(
                new LiveSetProbe.Histogram(60, dir.resolve("a.txt")),
                new LiveSetProbe.Histogram(180, dir.resolve("b.txt")),
                new LiveSetProbe.Histogram(240, dir.resolve("c.txt")),
                new LiveSetProbe.Histogram(300, dir.resolve("d.txt")),
                new LiveSetProbe.Histogram(360, dir.resolve("missing.txt"))), 180);
        assertThat(g.fromSeconds()).isEqualTo(180);
        assertThat(g.toSeconds()).isEqualTo(300);
        assertThat(g.grown()).first().isEqualTo(new ClassHistogram.Growth("[J", 97329128L - 93338944, 8265));

        assertThat(SoakRunner.liveSetGrowth(List.of(new LiveSetProbe.Histogram(200, dir.resolve("d.txt"))), 180)
                .grown()).isEmpty();
    }
}
