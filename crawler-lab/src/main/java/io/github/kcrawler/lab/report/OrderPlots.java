package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.measure.OrderBenchResult;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.line;

/**
 * The plot of {@code crawler bench order}, drawn from its typed result: criterion B (paper 002) of the pipeline's
 * crawl order against the simulator's; points past the pages the pipeline fetched are left out.
 */
public final class OrderPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "Criterion B of the pipeline's crawl order against the simulator's — "
            + "paper 002's criterion B (Fig. 5 style), measured on the running crawler";

    private OrderPlots() {
    }

    /** Criterion B at each 10 % of the crawl: the pipeline's order and the simulator's, same strategy and seeds. */
    public static List<Path> plot(OrderBenchResult r, Path dir) throws IOException {
        int n = r.checkpointsPercent().length;
        double[] x = new double[n];
        double[] pipeline = new double[n];
        double[] simulator = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.checkpointsPercent()[i];
            Double p = i < r.pipelineCriterionB().size() ? r.pipelineCriterionB().get(i) : null;
            pipeline[i] = p == null ? Double.NaN : p;
            simulator[i] = i < r.simulatorCriterionB().length ? r.simulatorCriterionB()[i] : Double.NaN;
        }
        String title = String.format(Locale.ROOT, "PageRank collected (criterion B), %s, %d seeds, %,d pages%n%s",
                r.strategy(), r.seeds(), r.population(), r.graph());
        return List.of(line(dir, "criterion-b.svg", title, "% of the crawl", "share of the PageRank collected",
                List.of(new Series("pipeline", x, pipeline, true), new Series("simulator", x, simulator, true)),
                false, false));
    }
}
