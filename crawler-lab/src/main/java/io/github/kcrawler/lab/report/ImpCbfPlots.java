package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.dedup.bench.ImpCbfResult;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import static io.github.kcrawler.lab.report.PlotFiles.line;

/**
 * The plots of {@code crawler bench imp-cbf}, drawn from its typed result: paper 001 (IMP-CB Filter), Fig. 3 — dedup
 * time against items per variant and duplicate ratio — and the fingerprint-DB reads that explain it. A partial run
 * (stopped early) plots the rows it has.
 */
public final class ImpCbfPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "Content dedup time, IMP-CB filter vs fingerprint DB alone — paper 001 (IMP-CB Filter), Fig. 3";

    private ImpCbfPlots() {
    }

    /** Fig. 3: dedup time against items, per variant and duplicate ratio; DB reads likewise. */
    public static List<Path> plot(ImpCbfResult r, Path dir) throws IOException {
        Map<Double, List<ImpCbfResult.Row>> byRatio = new LinkedHashMap<>();
        for (ImpCbfResult.Row row : r.results()) {
            byRatio.computeIfAbsent(row.duplicateRatio(), k -> new ArrayList<>()).add(row);
        }
        List<Series> time = new ArrayList<>();
        List<Series> reads = new ArrayList<>();
        for (Map.Entry<Double, List<ImpCbfResult.Row>> e : byRatio.entrySet()) {
            String ratio = String.format(Locale.ROOT, "%.1f%% dup.", 100 * e.getKey());
            List<ImpCbfResult.Row> rows = e.getValue();
            time.add(series("fingerprint DB only, " + ratio, rows, ImpCbfResult.Row::baselineSeconds));
            time.add(series("IMP-CB filter, " + ratio, rows, ImpCbfResult.Row::impCbSeconds));
            reads.add(series("fingerprint DB only, " + ratio, rows, ImpCbfResult.Row::baselineDbReads));
            reads.add(series("IMP-CB filter, " + ratio, rows, ImpCbfResult.Row::impCbDbReads));
        }
        String sub = "paper 001, Fig. 3 (k = 8, m/n = 20); RocksDB, best of " + r.repeats() + " runs";
        return List.of(
                line(dir, "fig3-dedup-time.svg", "Fig. 3: dedup time vs items\n" + sub, "items",
                        "seconds", time, false, false),
                line(dir, "fig3-db-reads.svg", "Fingerprint DB reads vs items (why Fig. 3 differs)\n"
                        + sub, "items", "DB reads", reads, false, false));
    }

    /** One curve over the rows: y = {@code y} of each row against its items. */
    private static Series series(String name, List<ImpCbfResult.Row> rows, ToDoubleFunction<ImpCbfResult.Row> y) {
        double[] xs = new double[rows.size()];
        double[] ys = new double[rows.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = rows.get(i).items();
            ys[i] = y.applyAsDouble(rows.get(i));
        }
        return new Series(name, xs, ys, true);
    }
}
