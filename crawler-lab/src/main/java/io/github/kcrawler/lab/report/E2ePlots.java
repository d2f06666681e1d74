package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.demo.CrawlTimeline;
import io.github.kcrawler.lab.demo.DemoSummary;
import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.github.kcrawler.lab.report.PlotFiles.line;
import static io.github.kcrawler.lab.report.PlotFiles.bars;
import static io.github.kcrawler.lab.report.PlotFiles.array;

/**
 * The plots of {@code crawler bench e2e}, drawn from its typed summary ({@link DemoSummary}) and course
 * ({@link CrawlTimeline.Course}): pages/s and records/s per stage over the crawl and on average, CPU and records per
 * page. No paper has a figure of this; a figure missing from an older summary (before format 3) leaves its plot out.
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
    public static List<Path> plot(DemoSummary summary, CrawlTimeline.Course timeline, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        String sub = String.format(Locale.ROOT, "no figure in the papers; %s, %,d IPs, T = %d ms, %d partitions, "
                        + "%,d pages in %.1f s", summary.graph(), summary.ips(), summary.politenessMs(),
                summary.partitions(), summary.distinctUrlsFetched(), summary.elapsedSeconds());
        List<CrawlTimeline.Sample> samples = timeline.samples();
        // rates over a trailing window of at least 2 s: the stream tasks commit in batches, so rates between
        // sub-second samples jump between zero and bursts
        double window = Math.max(2.0, timeline.periodMillis() / 1000.0);
        int n = Math.max(0, samples.size() - 1);
        double[] t = new double[n];
        double[] pages = new double[n];
        Map<String, double[]> stageRates = new LinkedHashMap<>();
        int from = 0;
        for (int i = 0; i < n; i++) {
            CrawlTimeline.Sample b = samples.get(i + 1);
            double tb = b.seconds();
            while (from + 1 <= i && tb - samples.get(from + 1).seconds() >= window) {
                from++;
            }
            CrawlTimeline.Sample a = samples.get(from);
            double dt = tb - a.seconds();
            t[i] = tb;
            pages[i] = dt > 0 ? (b.pages() - a.pages()) / dt : Double.NaN;
            for (Map.Entry<String, Long> e : b.stages().entrySet()) {
                double d = e.getValue() - a.stages().getOrDefault(e.getKey(), 0L);
                stageRates.computeIfAbsent(e.getKey(), k -> new double[n])[i] = dt > 0 ? d / dt : Double.NaN;
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
        if (summary.stages() != null) {
            for (Map.Entry<String, Double> e : summary.stages().entrySet()) {
                if (e.getKey().endsWith("PerSecond") && e.getValue() != null) {
                    cats.add(e.getKey().substring(0, e.getKey().length() - "PerSecond".length()));
                    mean.add(e.getValue());
                }
            }
        }
        out.add(bars(dir, "stage-rates.svg", "Mean records per second of each stage over the crawl\n" + sub,
                "records/s", cats, List.of(new Bars("mean rate", array(mean))), false));
        // issue 19: where the CPU and the records of a page go (absent from summaries before format 3)
        Path cpu = perPageBars(dir, "cpu-ms-per-page.svg", "CPU milliseconds per page by thread group (total %.2f)\n"
                + sub, "ms per page", summary.cpuMsPerPage());
        if (cpu != null) {
            out.add(cpu);
        }
        Path records = perPageBars(dir, "records-per-page.svg", "Records written per page by topic, changelogs and "
                + "transaction markers included (total %.1f)\n" + sub, "records per page", summary.recordsPerPage());
        if (records != null) {
            out.add(records);
        }
        return out;
    }

    /** Bars of per-page figures without their {@code total} (in the title), or null when there are none. */
    private static Path perPageBars(Path dir, String file, String title, String yLabel, Map<String, Double> perPage)
            throws IOException {
        if (perPage == null) {
            return null;
        }
        List<String> cats = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Map.Entry<String, Double> e : perPage.entrySet()) {
            if (!e.getKey().equals("total") && e.getValue() != null) {
                cats.add(e.getKey());
                values.add(e.getValue());
            }
        }
        if (cats.isEmpty()) {
            return null;
        }
        return bars(dir, file, String.format(Locale.ROOT, title, perPage.getOrDefault("total", Double.NaN)), yLabel,
                cats, List.of(new Bars("per page", array(values))), false);
    }
}
