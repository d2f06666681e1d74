package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.dedup.bench.UrlSeenMemoryResult;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import static io.github.kcrawler.lab.report.PlotFiles.line;

/**
 * The plots of {@code crawler bench url-seen-memory}, drawn from its typed result: paper 000 (SBFL), Figs. 5–10, per
 * dataset (Fig. 5 the LRU alone, Figs. 6/7 the filters' false positives and negatives, Fig. 8 the method's hit rate,
 * Figs. 9/10 memory at equal hit rate); the SBF's curves only where it ran.
 */
public final class UrlSeenMemoryPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "URL-seen memory, LRU alone vs LRU + SBFL at equal hit rate — paper 000 (SBFL), Figs. 5–10";

    private UrlSeenMemoryPlots() {
    }

    /** Per dataset: Fig. 5 (LRU), Figs. 6/7 (FPs, FNs of SBF and SBFL), Fig. 8 (the method) and Figs. 9/10. */
    public static List<Path> plot(UrlSeenMemoryResult r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Map.Entry<String, UrlSeenMemoryResult.Dataset> e : r.datasets().entrySet()) {
            String name = e.getKey();
            UrlSeenMemoryResult.Dataset d = e.getValue();
            String sub = String.format(Locale.ROOT, "%s, breadth-first, %,d tests (paper: 4.16×10^9)",
                    d.description() == null ? name : d.description(), d.tests());
            List<UrlSeenMemoryResult.LruPoint> lru = d.lruOnly();
            out.add(line(dir, name + "-fig5-lru-hit-rate.svg", "Fig. 5: hit rate of an LRU alone\n"
                            + sub, "LRU size (entries, log scale)", "hit rate",
                    List.of(lruSeries("LRU alone", lru, UrlSeenMemoryResult.LruPoint::lruSize)), true, false));
            List<Series> fp = new ArrayList<>();
            List<Series> fn = new ArrayList<>();
            if (d.sbfK4() != null) {
                fp.add(series("SBF k=4, 1%", d.sbfK4(), p -> p.sbflCounters(), p -> p.falsePositives()));
                fn.add(series("SBF k=4, 1%", d.sbfK4(), p -> p.sbflCounters(), p -> p.falseNegatives()));
            }
            if (d.sbflK4() != null) {
                fp.add(series("SBFL k=4, 1%", d.sbflK4(), p -> p.sbflCounters(), p -> p.falsePositives()));
                fn.add(series("SBFL k=4, 1%", d.sbflK4(), p -> p.sbflCounters(), p -> p.falseNegatives()));
            }
            String lruFixed = String.format(Locale.ROOT, "LRU %,d + filter; ", d.lruFixed());
            out.add(line(dir, name + "-fig6-false-positives.svg", "Fig. 6: false positives, k = 4, "
                    + "FPR = 1%\n" + lruFixed + sub, "counters m (log scale)", "false positives", fp, true, false));
            out.add(line(dir, name + "-fig7-false-negatives.svg", "Fig. 7: false negatives, k = 4, "
                    + "FPR = 1%\n" + lruFixed + sub, "counters m (log scale)", "false negatives", fn, true, false));
            List<Series> hit = new ArrayList<>();
            if (d.sbflK8() != null) {
                hit.add(series("LRU + SBFL k=8, 0.001%", d.sbflK8(), p -> p.sbflCounters(), p -> p.hitRate()));
            }
            if (d.sbflK4() != null) {
                hit.add(series("LRU + SBFL k=4, 1%", d.sbflK4(), p -> p.sbflCounters(), p -> p.hitRate()));
            }
            out.add(line(dir, name + "-fig8-method-hit-rate.svg", "Fig. 8: hit rate of LRU + SBFL\n"
                    + lruFixed + sub, "SBFL counters m (log scale)", "hit rate", hit, true, false));
            figure9or10(out, dir, name, "9", "k = 8, FPR = 0.001%", d.sbflK8(), d.memoryReductionK8(), lru, sub);
            figure9or10(out, dir, name, "10", "k = 4, FPR = 1%", d.sbflK4(), d.memoryReductionK4(), lru, sub);
        }
        return out;
    }

    /** Fig. 9 or 10: memory against hit rate, the LRU alone and the method, with the best reduction in the title. */
    private static void figure9or10(List<Path> out, Path dir, String name, String fig, String setting,
            List<UrlSeenMemoryResult.FilterPoint> method, Double best, List<UrlSeenMemoryResult.LruPoint> lru,
            String sub) throws IOException {
        if (method == null) {
            return;
        }
        out.add(line(dir, name + "-fig" + fig + "-memory-vs-hit-rate.svg", "Fig. " + fig
                        + ": memory at equal hit rate, " + setting + "\n" + sub + "; best reduction "
                        + (best != null ? String.format(Locale.ROOT, "%.1f%%", 100 * best) : "none in range")
                        + " (paper: 63% at k = 4)",
                "memory, bytes (LRU 20 B/entry, SBFL 2 bits/counter; log scale)", "hit rate",
                List.of(lruSeries("LRU alone", lru, UrlSeenMemoryResult.LruPoint::memoryPaperBytes),
                        series("LRU + SBFL " + setting, method, p -> p.memoryPaperBytes(), p -> p.hitRate())),
                true, false));
    }

    private static Series lruSeries(String name, List<UrlSeenMemoryResult.LruPoint> points,
            ToDoubleFunction<UrlSeenMemoryResult.LruPoint> x) {
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = x.applyAsDouble(points.get(i));
            ys[i] = points.get(i).hitRate();
        }
        return new Series(name, xs, ys, true);
    }

    private static Series series(String name, List<UrlSeenMemoryResult.FilterPoint> points,
            ToDoubleFunction<UrlSeenMemoryResult.FilterPoint> x, ToDoubleFunction<UrlSeenMemoryResult.FilterPoint> y) {
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = x.applyAsDouble(points.get(i));
            ys[i] = y.applyAsDouble(points.get(i));
        }
        return new Series(name, xs, ys, true);
    }
}
