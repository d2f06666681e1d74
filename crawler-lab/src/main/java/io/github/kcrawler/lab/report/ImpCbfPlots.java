package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.github.kcrawler.lab.report.PlotFiles.line;
import static io.github.kcrawler.lab.report.PlotFiles.series;

/**
 * The plots of {@code crawler bench imp-cbf}: paper 001 (IMP-CB Filter), Fig. 3. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class ImpCbfPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "Content dedup time, IMP-CB filter vs fingerprint DB alone — paper 001 (IMP-CB Filter), Fig. 3";

    private ImpCbfPlots() {
    }

    /** Fig. 3: dedup time against items, per variant and duplicate ratio; DB reads likewise. */
    public static List<Path> plot(JsonNode r, Path dir) throws IOException {
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
}
