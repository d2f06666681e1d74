package io.github.kcrawler.lab.faults;

import io.github.kcrawler.lab.report.ExperimentReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a fault run's JSON summary, its plot and the HTML report, where the bench rule puts them: {@code NAME.json},
 * {@code NAME-plots/faults.svg}, {@code NAME.html}.
 */
public final class FaultsReports {
    private FaultsReports() {
    }

    /** @return the SVG and HTML files written */
    public static List<Path> write(FaultsResult result, Path summary, Path plotDir, Path html, String command)
            throws IOException {
        result.write(summary);
        java.nio.file.Files.createDirectories(plotDir);
        Path svg = plotDir.resolve("faults.svg");
        FaultsPlot.write(result, svg);
        ExperimentReport.write(html, "Faults: services as separate processes, killed and restarted (issue 9)\n"
                        + "no figure in the papers: distinct pages over time, disruptions marked",
                List.of(svg), List.of(summary), command);
        return List.of(svg, html);
    }
}
