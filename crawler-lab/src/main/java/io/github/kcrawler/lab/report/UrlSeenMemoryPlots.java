package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.github.kcrawler.lab.report.PlotFiles.line;
import static io.github.kcrawler.lab.report.PlotFiles.series;

/**
 * The plots of {@code crawler bench url-seen-memory}: paper 000 (SBFL), Figs. 5–10, per dataset. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class UrlSeenMemoryPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "URL-seen memory, LRU alone vs LRU + SBFL at equal hit rate — paper 000 (SBFL), Figs. 5–10";

    private UrlSeenMemoryPlots() {
    }

    /** Per dataset: Fig. 5 (LRU), Figs. 6/7 (FPs, FNs of SBF and SBFL), Fig. 8 (the method) and Figs. 9/10. */
    public static List<Path> plot(JsonNode r, Path dir) throws IOException {
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
}
