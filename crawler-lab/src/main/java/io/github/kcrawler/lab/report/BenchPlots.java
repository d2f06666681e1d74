package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.simulate.SvgChart;
import io.github.kcrawler.lab.simulate.SvgChart.Bars;
import io.github.kcrawler.lab.simulate.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The plots of every {@code crawler bench}, drawn from the bench's JSON result (the same numbers the report shows),
 * each titled with the figure or table of the paper it reproduces ({@code ../shared/seeds/}: 000 SBFL, 001 IMP-CB
 * Filter, 003 SAT/L). Each method writes its SVG files into {@code dir} and returns them. A field missing from the
 * result (a partial run) leaves its plot out or empty, never fails the bench.
 */
public final class BenchPlots {
    /** Report titles: what each bench reproduces. */
    public static final String TITLE_SBFL_DECREMENT =
            "SBF vs SBF Light counter decrements — paper 000 (SBFL), Table 1";
    public static final String TITLE_URL_SEEN = "URL-seen tests/s, LRU → SBFL → RocksDB against RocksDB alone — no "
            + "figure in the paper; paper 000's method (Fig. 3) on a crawl, its hit rate as in Fig. 8";
    public static final String TITLE_URL_SEEN_MEMORY =
            "URL-seen memory, LRU alone vs LRU + SBFL at equal hit rate — paper 000 (SBFL), Figs. 5–10";
    public static final String TITLE_IMP_CBF =
            "Content dedup time, IMP-CB filter vs fingerprint DB alone — paper 001 (IMP-CB Filter), Fig. 3";
    public static final String TITLE_SATL =
            "Revisit store, SAT/L vs SAT vs RocksDB keyed by time — paper 003 (SAT/L), Figs. 7 and 9, Table 1";
    public static final String TITLE_ORDER = "Criterion B of the pipeline's crawl order against the simulator's — "
            + "paper 002's criterion B (Fig. 5 style), measured on the running crawler";
    public static final String TITLE_E2E = "End-to-end crawl throughput — no figure in the papers; the whole pipeline "
            + "(papers 000–004 together) crawling a simulated web";

    private BenchPlots() {
    }

    // ------------------------------------------------------------------ sbfl-decrement

    /** Table 1 as bars: decrements/s per variant, the speed-ups against the paper's, the time for 2×10^9. */
    public static List<Path> sbflDecrement(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("SBF (Mersenne Twister)", "SBFL scalar", "SBFL SWAR (32-way)"));
        List<Double> rates = new ArrayList<>(List.of(num(r, "sbfDecrementsPerSec"), num(r, "sbflDecrementsPerSec"),
                num(r, "sbflSwarDecrementsPerSec")));
        if (r.has("sbflPerInsertionDecrementsPerSec")) {
            names.add("SBFL scalar, p per step");
            names.add("SBFL SWAR, p per step");
            rates.add(num(r, "sbflPerInsertionDecrementsPerSec"));
            rates.add(num(r, "sbflSwarPerInsertionDecrementsPerSec"));
        }
        String sub = String.format(Locale.ROOT, "paper 000, Table 1; %,d decrements of 2^%d %d-bit counters",
                r.path("decrements").asLong(), log2(r.path("counters").asLong()), r.path("counterBits").asInt());
        out.add(bars(dir, "table1-decrements-per-second.svg", "Counter decrements per second\n" + sub,
                "decrements/s (log scale)", names, List.of(new Bars("this machine", array(rates))), true));
        out.add(bars(dir, "table1-speedup-over-sbf.svg", "Speed-up over the SBF\n" + sub, "× SBF",
                List.of("SBFL scalar", "SBFL SWAR (32-way)"),
                List.of(new Bars("this machine", new double[] {num(r, "sbflSpeedupOverSbf"),
                        num(r, "sbflSwarSpeedupOverSbf")}),
                        new Bars("paper (2.66 GHz Xeon)", new double[] {num(r, "paperSbflSpeedupOverSbf"),
                                num(r, "paperSbflSwarSpeedupOverSbf")})), true));
        double paperDecrements = 2e9;
        out.add(bars(dir, "table1-seconds-for-2e9.svg",
                "Seconds for 2×10^9 decrements (paper: of 2^30 counters)\npaper 000, Table 1; this machine: "
                        + String.format(Locale.ROOT, "its rate on 2^%d counters, scaled to 2×10^9",
                        log2(r.path("counters").asLong())), "seconds (log scale)",
                List.of("SBF", "SBFL", "SBFL (32-way)"),
                List.of(new Bars("this machine (scaled)", new double[] {paperDecrements / num(r, "sbfDecrementsPerSec"),
                        paperDecrements / num(r, "sbflDecrementsPerSec"),
                        paperDecrements / num(r, "sbflSwarDecrementsPerSec")}),
                        new Bars("paper", new double[] {320.7, 9.435, 0.9672})), true));
        return out;
    }

    // ------------------------------------------------------------------ url-seen

    /** Tests/s and store operations per variant, and where the tiered test answered. */
    public static List<Path> urlSeen(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        String sub = String.format(Locale.ROOT, "%s, %,d tests, LRU %,d, SBFL m = %,d",
                r.path("graph").asText(), r.path("tests").asLong(), r.path("lruSize").asLong(),
                r.path("sbflCounters").asLong());
        List<String> variants = List.of("RocksDB alone", "LRU → SBFL → RocksDB");
        out.add(bars(dir, "tests-per-second.svg", "URL-seen tests per second (best run; no figure in paper 000)\n"
                        + sub, "tests/s", variants,
                List.of(new Bars("tests/s", new double[] {num(r, "rocksdbOnlyTestsPerSec"),
                        num(r, "tieredTestsPerSec")})), false));
        out.add(bars(dir, "store-operations.svg", "RocksDB operations (gets + puts)\n" + sub, "operations",
                variants, List.of(new Bars("store operations", new double[] {num(r, "rocksdbOnlyStoreOps"),
                        num(r, "tieredStoreOps")})), false));
        JsonNode t = r.path("tiered");
        double tests = Math.max(1, t.path("tests").asDouble());
        out.add(bars(dir, "tier-answers.svg", "Where the tiered test answered, share of tests\n" + sub
                        + "; hit rate = LRU + SBFL, as in paper 000's Fig. 8", "share of tests",
                List.of("LRU hit", "SBFL positive", "RocksDB hit", "new URL", "hit rate", "best possible"),
                List.of(new Bars("share", new double[] {t.path("lruHits").asDouble() / tests,
                        t.path("sbflPositives").asDouble() / tests, t.path("storageHits").asDouble() / tests,
                        t.path("newUrls").asDouble() / tests, num(t, "hitRate"), num(r, "maxHitRate")})), false));
        return out;
    }

    // ------------------------------------------------------------------ url-seen-memory

    /** Per dataset: Fig. 5 (LRU), Figs. 6/7 (FPs, FNs of SBF and SBFL), Fig. 8 (the method) and Figs. 9/10. */
    public static List<Path> urlSeenMemory(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : r.path("datasets").properties()) {
            String name = e.getKey();
            JsonNode d = e.getValue();
            String sub = String.format(Locale.ROOT, "%s, breadth-first, %,d tests (paper: 4.16×10^9)",
                    d.path("description").asText(name), d.path("tests").asLong());
            JsonNode lru = d.path("lruOnly");
            out.add(line(dir, name + "-fig5-lru-hit-rate.svg", "Fig. 5: hit rate of an LRU alone\n"
                            + sub, "LRU size (entries, log scale)", "hit rate",
                    List.of(series("LRU alone", lru, "lruSize", "hitRate")), true, false));
            List<Series> fp = new ArrayList<>();
            List<Series> fn = new ArrayList<>();
            for (String[] s : new String[][] {{"sbfK4", "SBF k=4, 1%"}, {"sbflK4", "SBFL k=4, 1%"}}) {
                if (d.has(s[0])) {
                    fp.add(series(s[1], d.path(s[0]), "sbflCounters", "falsePositives"));
                    fn.add(series(s[1], d.path(s[0]), "sbflCounters", "falseNegatives"));
                }
            }
            String lruFixed = String.format(Locale.ROOT, "LRU %,d + filter; ", d.path("lruFixed").asLong());
            out.add(line(dir, name + "-fig6-false-positives.svg", "Fig. 6: false positives, k = 4, "
                    + "FPR = 1%\n" + lruFixed + sub, "counters m (log scale)", "false positives", fp, true, false));
            out.add(line(dir, name + "-fig7-false-negatives.svg", "Fig. 7: false negatives, k = 4, "
                    + "FPR = 1%\n" + lruFixed + sub, "counters m (log scale)", "false negatives", fn, true, false));
            List<Series> hit = new ArrayList<>();
            for (String[] s : new String[][] {{"sbflK8", "LRU + SBFL k=8, 0.001%"}, {"sbflK4", "LRU + SBFL k=4, 1%"}}) {
                if (d.has(s[0])) {
                    hit.add(series(s[1], d.path(s[0]), "sbflCounters", "hitRate"));
                }
            }
            out.add(line(dir, name + "-fig8-method-hit-rate.svg", "Fig. 8: hit rate of LRU + SBFL\n"
                    + lruFixed + sub, "SBFL counters m (log scale)", "hit rate", hit, true, false));
            String[][] figs = {{"9", "sbflK8", "k = 8, FPR = 0.001%", "K8"}, {"10", "sbflK4", "k = 4, FPR = 1%", "K4"}};
            for (String[] f : figs) {
                if (!d.has(f[1])) {
                    continue;
                }
                JsonNode best = d.path("memoryReduction" + f[3]);
                out.add(line(dir, name + "-fig" + f[0] + "-memory-vs-hit-rate.svg", "Fig. " + f[0]
                                + ": memory at equal hit rate, " + f[2] + "\n" + sub + "; best reduction "
                                + (best.isNumber() ? String.format(Locale.ROOT, "%.1f%%", 100 * best.asDouble())
                                : "none in range") + " (paper: 63% at k = 4)",
                        "memory, bytes (LRU 20 B/entry, SBFL 2 bits/counter; log scale)", "hit rate",
                        List.of(series("LRU alone", lru, "memoryPaperBytes", "hitRate"),
                                series("LRU + SBFL " + f[2], d.path(f[1]), "memoryPaperBytes", "hitRate")),
                        true, false));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ imp-cbf

    /** Fig. 3: dedup time against items, per variant and duplicate ratio; DB reads likewise. */
    public static List<Path> impCbf(JsonNode r, Path dir) throws IOException {
        Map<Double, List<JsonNode>> byRatio = new LinkedHashMap<>();
        for (JsonNode row : r.path("results")) {
            byRatio.computeIfAbsent(row.path("duplicateRatio").asDouble(), k -> new ArrayList<>()).add(row);
        }
        List<Series> time = new ArrayList<>();
        List<Series> reads = new ArrayList<>();
        for (Map.Entry<Double, List<JsonNode>> e : byRatio.entrySet()) {
            String ratio = String.format(Locale.ROOT, "%.1f%% dup.", 100 * e.getKey());
            time.add(series("fingerprint DB only, " + ratio, e.getValue(), "items", "baselineSeconds"));
            time.add(series("IMP-CB filter, " + ratio, e.getValue(), "items", "impCbSeconds"));
            reads.add(series("fingerprint DB only, " + ratio, e.getValue(), "items", "baselineDbReads"));
            reads.add(series("IMP-CB filter, " + ratio, e.getValue(), "items", "impCbDbReads"));
        }
        String sub = "paper 001, Fig. 3 (k = 8, m/n = 20); RocksDB, best of " + r.path("repeats").asInt() + " runs";
        return List.of(
                line(dir, "fig3-dedup-time.svg", "Fig. 3: dedup time vs items\n" + sub, "items",
                        "seconds", time, false, false),
                line(dir, "fig3-db-reads.svg", "Fingerprint DB reads vs items (why Fig. 3 differs)\n"
                        + sub, "items", "DB reads", reads, false, false));
    }

    // ------------------------------------------------------------------ satl

    /** Fig. 7 per T (time and bytes per record vs buffer), Fig. 9-style traces, Table 1 buffers. */
    public static List<Path> satl(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        TreeSet<Long> ts = new TreeSet<>();
        for (JsonNode run : r.path("runs")) {
            ts.add(run.path("maxInterval").asLong());
        }
        String common = String.format(Locale.ROOT, "N = %,d records of %d B, %d time units, tolerance %s",
                r.path("records").asLong(), r.path("recordBytes").asInt(), r.path("units").asInt(),
                r.path("tolerance").asText());
        for (long t : ts) {
            Map<String, List<JsonNode>> curves = new LinkedHashMap<>();
            for (JsonNode run : r.path("runs")) {
                if (run.path("maxInterval").asLong() == t) {
                    curves.computeIfAbsent(storeName(run.path("store").asText()) + ", "
                            + run.path("distribution").asText(), k -> new ArrayList<>()).add(run);
                }
            }
            String fig = t == 9_600 ? "Fig. 7(a)" : t == 576_000 ? "Fig. 7(b)" : "cf. Fig. 7";
            String tl = String.format(Locale.ROOT, "T = %,d", t);
            List<Series> time = new ArrayList<>();
            List<Series> bytes = new ArrayList<>();
            List<Series> trace = new ArrayList<>();
            long traceBuffer = nearest(curves, 32L << 20);
            for (Map.Entry<String, List<JsonNode>> c : curves.entrySet()) {
                List<JsonNode> rows = c.getValue();
                double[] mib = new double[rows.size()];
                double[] ns = new double[rows.size()];
                double[] io = new double[rows.size()];
                for (int i = 0; i < rows.size(); i++) {
                    JsonNode row = rows.get(i);
                    mib[i] = row.path("bufferBytes").asDouble() / (1 << 20);
                    ns[i] = row.path("nsPerRecord").asDouble(Double.NaN);
                    io[i] = row.path("bytesWrittenPerRecord").asDouble(Double.NaN)
                            + row.path("bytesReadPerRecord").asDouble(Double.NaN);
                }
                time.add(new Series(c.getKey(), mib, ns, true));
                bytes.add(new Series(c.getKey(), mib, io, true));
                for (JsonNode row : rows) {
                    if (row.path("bufferBytes").asLong() == traceBuffer && row.path("perUnitMillis").isArray()) {
                        JsonNode per = row.path("perUnitMillis");
                        double[] x = new double[per.size()];
                        double[] y = new double[per.size()];
                        for (int i = 0; i < x.length; i++) {
                            x[i] = i + 1;
                            y[i] = per.get(i).asDouble(Double.NaN);
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
        JsonNode table = r.path("table1Buffers");
        List<String> cats = new ArrayList<>();
        List<double[]> cols = new ArrayList<>();
        Map<String, String> rowNames = Map.of("1d", "1 day–400 days", "1h", "1 hour–400 days",
                "1m", "1 minute–400 days");
        for (Map.Entry<String, JsonNode> e : table.properties()) {
            JsonNode row = e.getValue();
            cats.add(rowNames.getOrDefault(e.getKey(), e.getKey()));
            cols.add(new double[] {row.path("sat").asDouble(), row.path("satlInstantMean").asDouble(),
                    row.path("satlSteady").asDouble(), row.path("paperSat").asDouble(),
                    row.path("paperSatl").asDouble()});
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
    private static long nearest(Map<String, List<JsonNode>> curves, long target) {
        long best = -1;
        for (List<JsonNode> rows : curves.values()) {
            for (JsonNode row : rows) {
                long b = row.path("bufferBytes").asLong();
                if (best < 0 || Math.abs(Math.log((double) b / target)) < Math.abs(Math.log((double) best / target))) {
                    best = b;
                }
            }
        }
        return best;
    }

    // ------------------------------------------------------------------ e2e

    /**
     * Pages/s and records/s per stage over time (from the timeline's cumulative samples), and the mean rate of each
     * stage over the crawl (from the summary).
     */
    public static List<Path> e2e(JsonNode summary, JsonNode timeline, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        String sub = String.format(Locale.ROOT, "no figure in the papers; %s, %,d IPs, T = %d ms, %d partitions, "
                        + "%,d pages in %.1f s", summary.path("graph").asText(), summary.path("ips").asLong(),
                summary.path("politenessMs").asLong(), summary.path("partitions").asInt(),
                summary.path("distinctUrlsFetched").asLong(), summary.path("elapsedSeconds").asDouble());
        JsonNode samples = timeline.path("samples");
        // rates over a trailing window of at least 2 s: the stream tasks commit in batches, so rates between
        // sub-second samples jump between zero and bursts
        double window = Math.max(2.0, timeline.path("periodMillis").asDouble(1000) / 1000);
        int n = Math.max(0, samples.size() - 1);
        double[] t = new double[n];
        double[] pages = new double[n];
        Map<String, double[]> stageRates = new LinkedHashMap<>();
        int from = 0;
        for (int i = 0; i < n; i++) {
            JsonNode b = samples.get(i + 1);
            double tb = b.path("seconds").asDouble();
            while (from + 1 <= i && tb - samples.get(from + 1).path("seconds").asDouble() >= window) {
                from++;
            }
            JsonNode a = samples.get(from);
            double dt = tb - a.path("seconds").asDouble();
            t[i] = tb;
            pages[i] = dt > 0 ? (b.path("pages").asDouble() - a.path("pages").asDouble()) / dt : Double.NaN;
            for (Iterator<String> it = b.path("stages").fieldNames(); it.hasNext(); ) {
                String stage = it.next();
                double d = b.path("stages").path(stage).asDouble() - a.path("stages").path(stage).asDouble();
                stageRates.computeIfAbsent(stage, k -> new double[n])[i] = dt > 0 ? d / dt : Double.NaN;
            }
        }
        String per = String.format(Locale.ROOT, " (mean over %.0f s)", window);
        out.add(line(dir, "pages-per-second.svg", "Pages fetched per second over the crawl" + per + "\n" + sub,
                "seconds since seeding", "pages/s", List.of(new Series("pages/s", t, pages, true)), false, false));
        List<Series> stages = new ArrayList<>();
        stageRates.forEach((k, v) -> stages.add(new Series(k, t, v, false)));
        out.add(line(dir, "stage-rates-over-time.svg", "Records per second through each stage" + per + "\n" + sub,
                "seconds since seeding", "records/s", stages, false, false));
        List<String> cats = new ArrayList<>();
        List<Double> mean = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : summary.path("stages").properties()) {
            if (e.getKey().endsWith("PerSecond")) {
                cats.add(e.getKey().substring(0, e.getKey().length() - "PerSecond".length()));
                mean.add(e.getValue().asDouble());
            }
        }
        out.add(bars(dir, "stage-rates.svg", "Mean records per second of each stage over the crawl\n" + sub,
                "records/s", cats, List.of(new Bars("mean rate", array(mean))), false));
        // issue 19: where the CPU and the records of a page go (absent from summaries before format 3)
        Path cpu = perPageBars(dir, "cpu-ms-per-page.svg", "CPU milliseconds per page by thread group (total %.2f)\n"
                + sub, "ms per page", summary.path("cpuMsPerPage"));
        if (cpu != null) {
            out.add(cpu);
        }
        Path records = perPageBars(dir, "records-per-page.svg", "Records written per page by topic, changelogs and "
                + "transaction markers included (total %.1f)\n" + sub, "records per page", summary.path("recordsPerPage"));
        if (records != null) {
            out.add(records);
        }
        return out;
    }

    /** Bars of an object of per-page figures without its {@code total} (in the title), or null when empty. */
    private static Path perPageBars(Path dir, String file, String title, String yLabel, JsonNode perPage)
            throws IOException {
        List<String> cats = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : perPage.properties()) {
            if (!e.getKey().equals("total") && e.getValue().isNumber()) {
                cats.add(e.getKey());
                values.add(e.getValue().asDouble());
            }
        }
        if (cats.isEmpty()) {
            return null;
        }
        return bars(dir, file, String.format(Locale.ROOT, title, perPage.path("total").asDouble()), yLabel, cats,
                List.of(new Bars("per page", array(values))), false);
    }

    // ------------------------------------------------------------------ helpers

    private static Path bars(Path dir, String file, String title, String yLabel, List<String> categories,
            List<Bars> series, boolean logY) throws IOException {
        Path p = dir.resolve(file);
        SvgChart.writeBars(p, title, yLabel, categories, series, logY);
        return p;
    }

    // ------------------------------------------------------------------ order

    /** Criterion B at each 10 % of the crawl: the pipeline's order and the simulator's, same strategy and seeds. */
    public static List<Path> order(JsonNode r, Path dir) throws IOException {
        double[] x = new double[10];
        double[] pipeline = new double[10];
        double[] simulator = new double[10];
        for (int i = 0; i < 10; i++) {
            x[i] = 10 * (i + 1);
            JsonNode p = r.path("pipelineCriterionB").path(i);
            pipeline[i] = p.isNumber() ? p.asDouble() : Double.NaN;
            simulator[i] = r.path("simulatorCriterionB").path(i).asDouble(Double.NaN);
        }
        String title = String.format(Locale.ROOT, "PageRank collected (criterion B), %s, %d seeds, %,d pages%n%s",
                r.path("strategy").asText(), r.path("seeds").asInt(), r.path("population").asInt(),
                r.path("graph").asText());
        return List.of(line(dir, "criterion-b.svg", title, "% of the crawl", "share of the PageRank collected",
                List.of(new Series("pipeline", x, pipeline, true), new Series("simulator", x, simulator, true)),
                false, false));
    }

    private static Path line(Path dir, String file, String title, String xLabel, String yLabel, List<Series> series,
            boolean logX, boolean logY) throws IOException {
        Path p = dir.resolve(file);
        SvgChart.write(p, title, xLabel, yLabel, series, logX, logY);
        return p;
    }

    private static Series series(String name, JsonNode rows, String x, String y) {
        List<JsonNode> list = new ArrayList<>();
        rows.forEach(list::add);
        return series(name, list, x, y);
    }

    private static Series series(String name, List<JsonNode> rows, String x, String y) {
        double[] xs = new double[rows.size()];
        double[] ys = new double[rows.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = rows.get(i).path(x).asDouble(Double.NaN);
            ys[i] = rows.get(i).path(y).asDouble(Double.NaN);
        }
        return new Series(name, xs, ys, true);
    }

    /** A number field, NaN when missing or not a number (no bar, no point). */
    private static double num(JsonNode r, String field) {
        JsonNode v = r.path(field);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static int log2(long v) {
        return v > 0 ? 63 - Long.numberOfLeadingZeros(v) : 0;
    }
}
