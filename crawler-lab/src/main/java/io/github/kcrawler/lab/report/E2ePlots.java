package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.github.kcrawler.lab.report.PlotFiles.line;
import static io.github.kcrawler.lab.report.PlotFiles.bars;
import static io.github.kcrawler.lab.report.PlotFiles.array;

/**
 * The plots of {@code crawler bench e2e}: pages/s and records/s per stage over the crawl and on average. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class E2ePlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "End-to-end crawl throughput — no figure in the papers; the whole pipeline "
            + "(papers 000–004 together) crawling a simulated web";

    private E2ePlots() {
    }

    /**
     * Pages/s and records/s per stage over time (from the timeline's cumulative samples), and the mean rate of each
     * stage over the crawl (from the summary).
     */
    public static List<Path> plot(JsonNode summary, JsonNode timeline, Path dir) throws IOException {
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
}
