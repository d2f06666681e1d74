package io.github.kcrawler.lab.soak;

import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The result of a soak run. Page counts come from websim's own access accounting; heap after GC from the child
 * JVM's GC log; RSS from {@code /proc}; frontier and heap-in-use from the child's Prometheus endpoint.
 *
 * @param command        the command line that produced it
 * @param machine        cores, OS and Java of this machine
 * @param heapBytes      the child's {@code -Xmx}
 * @param liveSetSeconds interval of the forced full GCs (0 = none)
 * @param forcedGcs      class histograms (each after a forced full GC) started ({@code jcmd GC.class_histogram})
 * @param forcedGcFailures jcmd runs that could not start or failed
 * @param reachablePages pages reachable from the seeds within the depth limit
 * @param seeds          seed URLs given to the crawl
 * @param pagesFetched   page GETs answered 200/304 by websim over the run
 * @param childExitCode  the child's exit code (-1 if it had to be killed)
 * @param cleanStop      the child stopped by itself within the wait after SIGTERM (exit 0 or 143)
 * @param stopSeconds    from SIGTERM to the child's exit
 * @param gcCount        collections in the child's GC log
 * @param gcPauseTotalMs sum of their pauses
 * @param gcPauseMaxMs   the longest pause
 * @param fullGcs        collections of kind {@code Full ...}
 * @param rssMaxBytes    the child's largest resident set seen (-1 if /proc was not readable)
 * @param samples        one per sampling interval
 * @param gcs            heap after each collection
 * @param verdict        flatness after the warm-up
 * @param liveSetGrowthFromSeconds first class histogram after the warm-up (-1: fewer than two were read)
 * @param liveSetGrowthToSeconds   last class histogram
 * @param liveSetGrowth  the classes the live set grew by most between those two, largest first
 */
public record SoakSummary(int v, String command, String machine, int pages, int ips, long politenessMs,
                          int partitions, String heap, long heapBytes, double minutes, int intervalSeconds,
                          int liveSetSeconds, int forcedGcs, int forcedGcFailures, int windowSeconds,
                          double warmupFraction, long reachablePages, int seeds,
                          long pagesFetched, long distinctUrlsFetched, long duplicateFetches,
                          long politenessViolations, double minGapMs, int childExitCode, boolean cleanStop,
                          double stopSeconds, int gcCount, double gcPauseTotalMs, double gcPauseMaxMs, int fullGcs,
                          long rssMaxBytes, Flatness.Verdict verdict, double liveSetGrowthFromSeconds,
                          double liveSetGrowthToSeconds, List<ClassHistogram.Growth> liveSetGrowth,
                          List<Sample> samples, List<Gc> gcs) {
    /** 2: live set (forced full GCs) and its growth by class beside the heap after every GC; heap figures nested. */
    public static final int VERSION = 2;

    /**
     * One sampling point, seconds since the child started.
     *
     * @param heapUsedBytes the child's heap in use from its metrics endpoint (-1 if not read)
     * @param frontier      URLs waiting in the scheduler (-1 if not read)
     * @param discovered    URLs tested by dedup so far (-1 if not read)
     * @param admitted      URLs admitted by dedup so far (-1 if not read)
     * @param loadAverage   the machine's 1-minute load average ({@code /proc/loadavg}; -1 if not read): on shared
     *                      cores the crawl's rate follows what else runs
     */
    public record Sample(double seconds, long pagesFetched, long distinctUrlsFetched, long rssBytes,
                         long heapUsedBytes, long frontier, long discovered, long admitted, double loadAverage) {
    }

    /** Heap after one collection, seconds since the child started. */
    public record Gc(double seconds, String kind, long afterBytes, long capacityBytes, double pauseMs) {
    }

    public SoakSummary {
        liveSetGrowth = List.copyOf(liveSetGrowth);
        samples = List.copyOf(samples);
        gcs = List.copyOf(gcs);
    }

    public void write(Path file) throws IOException {
        JsonSerde.writeIndented(file, this);
    }

    public String toText() {
        Flatness.Verdict f = verdict;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Soak: %.1f min of crawling a %,d-page web (%d IPs, T = %d ms) with "
                        + "-Xmx%s; machine: %s%n", minutes, pages, ips, politenessMs, heap, machine));
        sb.append(String.format(Locale.ROOT, "  pages fetched (websim): %,d (%,d distinct, %,d duplicate), "
                        + "politeness violations %,d (smallest gap %.1f ms), reachable %,d%n", pagesFetched,
                distinctUrlsFetched, duplicateFetches, politenessViolations, minGapMs, reachablePages));
        sb.append(String.format(Locale.ROOT, "  pages/s per %d s window after the %.0f s warm-up (mean %.1f): %s%n",
                windowSeconds, f.warmupSeconds(), f.meanRate(), f.windows().stream()
                        .map(w -> String.format(Locale.ROOT, "%.0f (%+.1f%%)", w.perSecond(), 100 * w.deviation()))
                        .collect(Collectors.joining(", "))));
        sb.append(String.format(Locale.ROOT, "  rate: max deviation %.1f%% -> %s%n", 100 * f.maxRateDeviation(),
                f.rateFlat() ? "flat" : "NOT flat"));
        Flatness.HeapLevel h = f.heap();
        sb.append(String.format(Locale.ROOT, "  heap after every GC (%d collections after warm-up of %d; %d full): "
                        + "min %.0f MiB, mean %.0f MiB, max %.0f MiB; trend %+.1f%% over the run after warm-up; "
                        + "last quarter vs second %+.1f%% -> %s%n", h.points(), gcCount, fullGcs,
                mib(h.minBytes()), h.meanBytes() / (1 << 20), mib(h.maxBytes()), 100 * h.trend(),
                100 * h.quarterChange(), h.flat() ? "flat" : "NOT flat"));
        Flatness.HeapLevel l = f.liveSet();
        if (l.measured()) {
            sb.append(String.format(Locale.ROOT, "  live set (heap after the full GC forced every %d s; %d after "
                            + "warm-up of %d forced, %d failed): min %.0f MiB, mean %.0f MiB, max %.0f MiB; trend "
                            + "%+.1f%%; last quarter vs second %+.1f%% -> %s%n", liveSetSeconds, l.points(),
                    forcedGcs, forcedGcFailures, mib(l.minBytes()), l.meanBytes() / (1 << 20), mib(l.maxBytes()),
                    100 * l.trend(), 100 * l.quarterChange(), l.flat() ? "flat" : "NOT flat"));
        } else {
            sb.append(String.format(Locale.ROOT, "  live set: not measured (no forced full GCs)%n"));
        }
        if (!liveSetGrowth.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  live set grew from %.0f s to %.0f s most by: %s%n",
                    liveSetGrowthFromSeconds, liveSetGrowthToSeconds, liveSetGrowth.stream().limit(8)
                            .map(g -> String.format(Locale.ROOT, "%s +%.1f MiB (%+,d)", g.className(),
                                    g.bytes() / 1048576.0, g.instances()))
                            .collect(Collectors.joining(", "))));
        }
        sb.append(String.format(Locale.ROOT, "  machine load average (1 min) while judged: mean %.1f, max %.1f on %s%n",
                loadAfter(f.warmupSeconds()).average().orElse(Double.NaN),
                loadAfter(f.warmupSeconds()).max().orElse(Double.NaN), machine));
        sb.append(String.format(Locale.ROOT, "  GC pauses: total %.0f ms, longest %.1f ms; child RSS max %.0f MiB; "
                        + "child stop after SIGTERM: %s in %.1f s (exit %d)%n", gcPauseTotalMs, gcPauseMaxMs,
                mib(rssMaxBytes), cleanStop ? "clean" : "NOT clean", stopSeconds, childExitCode));
        sb.append(f.flat() ? "  verdict: flat" : "  verdict: NOT flat: " + String.join("; ", f.reasons()));
        return sb.toString();
    }

    private java.util.stream.DoubleStream loadAfter(double seconds) {
        return samples.stream().filter(s -> s.seconds() >= seconds && s.loadAverage() >= 0)
                .mapToDouble(Sample::loadAverage);
    }

    private static double mib(long bytes) {
        return bytes < 0 ? -1 : bytes / (double) (1 << 20);
    }
}
