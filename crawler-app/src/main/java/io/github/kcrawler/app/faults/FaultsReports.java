package io.github.kcrawler.app.faults;

import io.github.kcrawler.app.report.ExperimentReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes a fault run's JSON summary, its plot ({@code .svg} beside it) and the HTML report ({@code .html}). */
public final class FaultsReports {
    private FaultsReports() {
    }

    /** @return the SVG and HTML files written beside {@code summary} */
    public static List<Path> write(FaultsResult result, Path summary, String command) throws IOException {
        result.write(summary);
        String base = summary.getFileName().toString().replaceFirst("\\.json$", "");
        Path svg = summary.resolveSibling(base + ".svg");
        Path html = summary.resolveSibling(base + ".html");
        FaultsPlot.write(result, svg);
        ExperimentReport.write(html, "Faults: services as separate processes, killed and restarted (issue 9)",
                List.of(svg), List.of(summary), command);
        return List.of(svg, html);
    }
}
