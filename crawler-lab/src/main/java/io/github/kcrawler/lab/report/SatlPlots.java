package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.scheduler.revisit.bench.SatlResult;
import io.github.kcrawler.lab.scheduler.revisit.bench.SatlTable1;
import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import static io.github.kcrawler.lab.report.PlotFiles.line;
import static io.github.kcrawler.lab.report.PlotFiles.bars;

/**
 * The plots of {@code crawler bench satl}, drawn from its typed result: paper 003 (SAT/L), Fig. 7 per T (time and
 * bytes per record against the buffer), Fig. 9-style traces at the buffer nearest 32 MiB, and Table 1's buffers.
 */
public final class SatlPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "Revisit store, SAT/L vs SAT vs RocksDB keyed by time — paper 003 (SAT/L), Figs. 7 and 9, Table 1";

    private SatlPlots() {
    }

    /** Fig. 7 per T (time and bytes per record vs buffer), Fig. 9-style traces, Table 1 buffers. */
    public static List<Path> plot(SatlResult r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        TreeSet<Long> ts = new TreeSet<>();
        for (SatlResult.Run run : r.runs()) {
            ts.add(run.maxInterval());
        }
        String common = String.format(Locale.ROOT, "N = %,d records of %d B, %d time units, tolerance %s",
                r.records(), r.recordBytes(), r.units(), r.tolerance());
        for (long t : ts) {
            Map<String, List<SatlResult.Run>> curves = new LinkedHashMap<>();
            for (SatlResult.Run run : r.runs()) {
                if (run.maxInterval() == t) {
                    curves.computeIfAbsent(storeName(run.store()) + ", " + run.distribution(),
                            k -> new ArrayList<>()).add(run);
                }
            }
            String fig = t == 9_600 ? "Fig. 7(a)" : t == 576_000 ? "Fig. 7(b)" : "cf. Fig. 7";
            String tl = String.format(Locale.ROOT, "T = %,d", t);
            List<Series> time = new ArrayList<>();
            List<Series> bytes = new ArrayList<>();
            List<Series> trace = new ArrayList<>();
            long traceBuffer = nearest(curves, 32L << 20);
            for (Map.Entry<String, List<SatlResult.Run>> c : curves.entrySet()) {
                List<SatlResult.Run> rows = c.getValue();
                double[] mib = new double[rows.size()];
                double[] ns = new double[rows.size()];
                double[] io = new double[rows.size()];
                for (int i = 0; i < rows.size(); i++) {
                    SatlResult.Run row = rows.get(i);
                    mib[i] = row.bufferBytes() / (double) (1 << 20);
                    ns[i] = row.nsPerRecord();
                    io[i] = row.bytesWrittenPerRecord() + row.bytesReadPerRecord();
                }
                time.add(new Series(c.getKey(), mib, ns, true));
                bytes.add(new Series(c.getKey(), mib, io, true));
                for (SatlResult.Run row : rows) {
                    if (row.bufferBytes() == traceBuffer && row.perUnitMillis() != null) {
                        List<Double> per = row.perUnitMillis();
                        double[] x = new double[per.size()];
                        double[] y = new double[per.size()];
                        for (int i = 0; i < x.length; i++) {
                            x[i] = i + 1;
                            y[i] = per.get(i) == null ? Double.NaN : per.get(i);
                        }
                        trace.add(new Series(c.getKey(), x, y, true));
                    }
                }
            }
            out.add(line(dir, "fig7-T" + t + "-time-per-record.svg", fig
                            + ": time per record vs buffer size, " + tl + "\npaper 003; " + common,
                    "total buffer size, MiB (log scale)", "ns per record (log scale)", time, true, true));
            out.add(line(dir, "io-T" + t + "-bytes-per-record.svg", "Bytes written + read per record "
                            + "vs buffer size, " + tl + "\nwhat drives " + fig + "; counted by each store; " + common,
                    "total buffer size, MiB (log scale)", "bytes per record", bytes, true, false));
            out.add(line(dir, "fig9-T" + t + "-trace.svg", String.format(Locale.ROOT,
                            "cf. Fig. 9: time per time unit, %s, buffer %,d MiB\npaper 003 traces T = 576,000 at "
                                    + "32 MiB; %s", tl, traceBuffer >> 20, common),
                    "time unit", "milliseconds (log scale)", trace, false, true));
        }
        List<String> cats = new ArrayList<>();
        List<double[]> cols = new ArrayList<>();
        Map<String, String> rowNames = Map.of("1d", "1 day–400 days", "1h", "1 hour–400 days",
                "1m", "1 minute–400 days");
        for (Map.Entry<String, SatlTable1.Row> e : r.table1Buffers().entrySet()) {
            SatlTable1.Row row = e.getValue();
            cats.add(rowNames.getOrDefault(e.getKey(), e.getKey()));
            cols.add(new double[] {row.sat(), row.satlInstantMean(), row.satlSteady(), row.paperSat(),
                row.paperSatl()});
        }
        String[] names = {"SAT (= T)", "SAT/L, one instant (mean)", "SAT/L, steady state", "paper: SAT",
            "paper: SAT/L"};
        List<Bars> bars = new ArrayList<>();
        for (int k = 0; k < names.length; k++) {
            double[] v = new double[cats.size()];
            for (int c = 0; c < v.length; c++) {
                v[c] = cols.get(c)[k];
            }
            bars.add(new Bars(names[k], v));
        }
        out.add(bars(dir, "table1-buffers.svg", "Table 1: buffers of SAT and SAT/L\npaper 003 (computed, not "
                + "measured; the paper prints 57,600 for SAT at 1 minute)", "buffers (log scale)", cats, bars, true));
        return out;
    }

    private static String storeName(String store) {
        return switch (store) {
            case "satl" -> "SAT/L";
            case "sat" -> "SAT";
            case "rocksdb" -> "RocksDB by time";
            default -> store;
        };
    }

    /** The buffer size of the runs closest to {@code target} (in log terms). */
    private static long nearest(Map<String, List<SatlResult.Run>> curves, long target) {
        long best = -1;
        for (List<SatlResult.Run> rows : curves.values()) {
            for (SatlResult.Run row : rows) {
                long b = row.bufferBytes();
                if (best < 0 || Math.abs(Math.log((double) b / target)) < Math.abs(Math.log((double) best / target))) {
                    best = b;
                }
            }
        }
        return best;
    }
}
