package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.measure.OrderBenchResult;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
        double[] sequential = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.checkpointsPercent()[i];
            pipeline[i] = point(r.pipelineCriterionB(), i);
            simulator[i] = point(r.simulatorCriterionB(), i);
            sequential[i] = i < r.sequentialSimulatorCriterionB().length ? r.sequentialSimulatorCriterionB()[i]
                    : Double.NaN;
        }
        String title = String.format(Locale.ROOT, "PageRank collected (criterion B), %s, %d seeds, %,d pages%n%s",
                r.strategy(), r.seeds(), r.population(), r.graph());
        List<Series> series = new ArrayList<>(List.of(new Series("pipeline", x, pipeline, true),
                new Series("simulator, " + r.simulatorFeedbackDelay() + " pages in flight"
                        + (r.simulatorPoliteness() > 0 ? ", polite (k = " + r.simulatorPoliteness() + ")" : ""),
                        x, simulator, true),
                new Series("simulator, one page at a time", x, sequential, true)));
        if (r.simulatorWithoutPolitenessCriterionB() != null) {
            double[] impolite = new double[n];
            for (int i = 0; i < n; i++) {
                impolite[i] = point(r.simulatorWithoutPolitenessCriterionB(), i);
            }
            series.add(new Series("simulator, " + r.simulatorFeedbackDelay() + " pages in flight, not polite", x,
                    impolite, true));
        }
        return List.of(line(dir, "criterion-b.svg", title, "% of the crawl", "share of the PageRank collected",
                series, false, false));
    }

    private static double point(List<Double> values, int i) {
        Double v = i < values.size() ? values.get(i) : null;
        return v == null ? Double.NaN : v;
    }
}
