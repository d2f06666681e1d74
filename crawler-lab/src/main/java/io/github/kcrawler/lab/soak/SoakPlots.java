package io.github.kcrawler.lab.soak;

import io.github.kcrawler.lab.chart.SvgChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak's plots: pages/s per sample and per judged window with the tolerance band; heap after every GC and the
 * live set with their least-squares fits and {@code -Xmx}; RSS and heap in use; frontier and admissions; machine load.
 */
final class SoakPlots {
    private SoakPlots() {
    }

    /** Writes the soak's SVG plots into {@code dir}. */
    static void write(SoakSummary s, Path dir) throws IOException {
        Flatness.Verdict v = s.verdict();
        List<SoakSummary.Sample> samples = s.samples();
        int n = Math.max(0, samples.size() - 1);
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            SoakSummary.Sample a = samples.get(i);
            SoakSummary.Sample b = samples.get(i + 1);
            x[i] = (a.seconds() + b.seconds()) / 2 / 60;
            y[i] = b.seconds() > a.seconds() ? (b.pagesFetched() - a.pagesFetched()) / (b.seconds() - a.seconds()) : 0;
        }
        List<SvgChart.Series> rate = new ArrayList<>();
        rate.add(new SvgChart.Series("per " + s.intervalSeconds() + " s sample", x, y, false));
        double[] wx = v.windows().stream().mapToDouble(w -> (w.fromSeconds() + w.toSeconds()) / 2 / 60).toArray();
        double[] wy = v.windows().stream().mapToDouble(Flatness.Window::perSecond).toArray();
        rate.add(new SvgChart.Series("per " + s.windowSeconds() + " s window", wx, wy, true));
        double[] span = {v.warmupSeconds() / 60, v.endSeconds() / 60};
        if (v.meanRate() > 0) {
            rate.add(new SvgChart.Series(String.format(Locale.ROOT, "mean +%.0f%%", 100 * v.tolerance()), span,
                    new double[] {v.meanRate() * (1 + v.tolerance()), v.meanRate() * (1 + v.tolerance())}, false));
            rate.add(new SvgChart.Series(String.format(Locale.ROOT, "mean -%.0f%%", 100 * v.tolerance()), span,
                    new double[] {v.meanRate() * (1 - v.tolerance()), v.meanRate() * (1 - v.tolerance())}, false));
        }
        SvgChart.write(dir.resolve("soak-pages-per-second.svg"), String.format(Locale.ROOT,
                "Pages/s (websim's count), warm-up until %.1f min", v.warmupSeconds() / 60), "minutes", "pages/s",
                rate, false, false);

        List<SoakSummary.Gc> gcs = s.gcs();
        double[] gx = gcs.stream().mapToDouble(g -> g.seconds() / 60).toArray();
        List<SvgChart.Series> heap = new ArrayList<>();
        heap.add(new SvgChart.Series("heap after GC", gx,
                gcs.stream().mapToDouble(g -> g.afterBytes() / 1048576.0).toArray(), false));
        heap.add(new SvgChart.Series("heap capacity", gx,
                gcs.stream().mapToDouble(g -> g.capacityBytes() / 1048576.0).toArray(), false));
        fit(heap, "least-squares fit after warm-up", v.heap(), gcs, v);
        List<SoakSummary.Gc> forced = gcs.stream().filter(g -> g.kind().contains(SoakRunner.FORCED_KIND)).toList();
        if (!forced.isEmpty()) {
            heap.add(new SvgChart.Series("live set (after forced full GC)",
                    forced.stream().mapToDouble(g -> g.seconds() / 60).toArray(),
                    forced.stream().mapToDouble(g -> g.afterBytes() / 1048576.0).toArray(), true));
            fit(heap, "live set fit", v.liveSet(), forced, v);
        }
        heap.add(new SvgChart.Series("-Xmx" + s.heap(), new double[] {0, v.endSeconds() / 60},
                new double[] {s.heapBytes() / 1048576.0, s.heapBytes() / 1048576.0}, false));
        SvgChart.write(dir.resolve("soak-heap-after-gc.svg"), "Child JVM heap after each GC (its GC log)",
                "minutes", "MiB", heap, false, false);

        double[] sx = samples.stream().mapToDouble(a -> a.seconds() / 60).toArray();
        SvgChart.write(dir.resolve("soak-memory.svg"), "Child JVM resident set and heap in use (sampled)", "minutes",
                "MiB", List.of(
                        new SvgChart.Series("RSS (/proc)", sx,
                                samples.stream().mapToDouble(a -> a.rssBytes() < 0 ? Double.NaN
                                        : a.rssBytes() / 1048576.0).toArray(), false),
                        new SvgChart.Series("heap in use (metrics)", sx,
                                samples.stream().mapToDouble(a -> a.heapUsedBytes() < 0 ? Double.NaN
                                        : a.heapUsedBytes() / 1048576.0).toArray(), false)), false, false);
        SvgChart.write(dir.resolve("soak-frontier.svg"), "Scheduler frontier and dedup admissions (child's metrics)",
                "minutes", "URLs", List.of(
                        new SvgChart.Series("frontier", sx, samples.stream().mapToDouble(a -> a.frontier() < 0
                                ? Double.NaN : a.frontier()).toArray(), false),
                        new SvgChart.Series("admitted (cumulative)", sx, samples.stream().mapToDouble(
                                a -> a.admitted() < 0 ? Double.NaN : a.admitted()).toArray(), false),
                        new SvgChart.Series("pages fetched (cumulative)", sx, samples.stream().mapToDouble(
                                SoakSummary.Sample::pagesFetched).toArray(), false)), false, false);
        loadPlot(s, dir);
    }

    private static void loadPlot(SoakSummary s, Path dir) throws IOException {
        List<SoakSummary.Sample> samples = s.samples();
        double[] sx = samples.stream().mapToDouble(a -> a.seconds() / 60).toArray();
        double cores = Runtime.getRuntime().availableProcessors();
        SvgChart.write(dir.resolve("soak-machine-load.svg"), "Machine load average (1 min) during the soak",
                "minutes", "runnable threads", List.of(
                        new SvgChart.Series("load average", sx, samples.stream().mapToDouble(a -> a.loadAverage() < 0
                                ? Double.NaN : a.loadAverage()).toArray(), false),
                        new SvgChart.Series("cores", new double[] {0, sx.length == 0 ? 1 : sx[sx.length - 1]},
                                new double[] {cores, cores}, false)), false, false);
    }

    private static void fit(List<SvgChart.Series> out, String name, Flatness.HeapLevel level,
                            List<SoakSummary.Gc> gcs, Flatness.Verdict v) {
        if (Double.isFinite(level.slopeBytesPerSecond()) && Double.isFinite(level.meanBytes())) {
            double mid = postWarmupMeanTime(gcs, v.warmupSeconds(), v.endSeconds());
            out.add(new SvgChart.Series(name, new double[] {v.warmupSeconds() / 60, v.endSeconds() / 60},
                    new double[] {
                        (level.meanBytes() + level.slopeBytesPerSecond() * (v.warmupSeconds() - mid)) / 1048576.0,
                        (level.meanBytes() + level.slopeBytesPerSecond() * (v.endSeconds() - mid)) / 1048576.0},
                    false));
        }
    }

    private static double postWarmupMeanTime(List<SoakSummary.Gc> gcs, double from, double to) {
        return gcs.stream().mapToDouble(SoakSummary.Gc::seconds).filter(t -> t >= from && t <= to).average()
                .orElse((from + to) / 2);
    }
}
