package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.line;

/**
 * The plot of {@code crawler bench order}: criterion B of the pipeline against the simulator's. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class OrderPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "Criterion B of the pipeline's crawl order against the simulator's — "
            + "paper 002's criterion B (Fig. 5 style), measured on the running crawler";

    private OrderPlots() {
    }

    /** Criterion B at each 10 % of the crawl: the pipeline's order and the simulator's, same strategy and seeds. */
    public static List<Path> plot(JsonNode r, Path dir) throws IOException {
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
}
