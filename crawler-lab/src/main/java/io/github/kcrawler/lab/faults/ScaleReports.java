package io.github.kcrawler.lab.faults;

import io.github.kcrawler.lab.report.ExperimentReport;
import io.github.kcrawler.lab.chart.SvgChart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a scale run's JSON summary, its plot (distinct pages over time, each phase's ends as vertical lines) and the
 * HTML report, where the bench rule puts them: {@code NAME.json}, {@code NAME-plots/scale.svg}, {@code NAME.html}.
 */
public final class ScaleReports {
    private ScaleReports() {
    }

    /** @return the SVG and HTML files written */
    public static List<Path> write(ScaleResult result, Path summary, Path plotDir, Path html, String command)
            throws IOException {
        result.write(summary);
        Files.createDirectories(plotDir);
        Path svg = plotDir.resolve("scale.svg");
        List<SvgChart.Series> series = new ArrayList<>();
        double[] distinct = new double[result.distinct().length];
        for (int i = 0; i < distinct.length; i++) {
            distinct[i] = result.distinct()[i];
        }
        series.add(new SvgChart.Series("distinct pages", result.timeS(), distinct, false));
        for (ScaleResult.Phase p : result.phases()) {
            series.add(new SvgChart.Series(String.format(java.util.Locale.ROOT, "%s: %.1f pages/s", p.name(),
                    p.pagesPerSecond()), new double[] {p.startS(), p.startS(), p.endS(), p.endS()},
                    new double[] {0, result.reachable(), result.reachable(), 0}, false));
        }
        SvgChart.write(svg, "Distinct pages fetched (websim's count); boxes: the phases with 1, N, 1 fetchers",
                "seconds since seeding", "distinct pages", series, false, false);
        ExperimentReport.write(html, "Scale: fetcher processes 1 → N → 1 mid-crawl, one broker (issue 23)\n"
                        + "no figure in the papers: distinct pages over time, each phase's pages/s",
                List.of(svg), List.of(summary), command);
        return List.of(svg, html);
    }
}
