package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bench plot classes share: a chart written into a plot directory (returning its file), series read from a
 * JSON result that is not a typed record yet, and small number helpers. Every chart is drawn by {@link SvgChart}.
 */
final class PlotFiles {
    private PlotFiles() {
    }

    static Path bars(Path dir, String file, String title, String yLabel, List<String> categories,
            List<Bars> series, boolean logY) throws IOException {
        Path p = dir.resolve(file);
        SvgChart.writeBars(p, title, yLabel, categories, series, logY);
        return p;
    }

    static Path line(Path dir, String file, String title, String xLabel, String yLabel, List<Series> series,
            boolean logX, boolean logY) throws IOException {
        Path p = dir.resolve(file);
        SvgChart.write(p, title, xLabel, yLabel, series, logX, logY);
        return p;
    }

    static Series series(String name, JsonNode rows, String x, String y) {
        List<JsonNode> list = new ArrayList<>();
        rows.forEach(list::add);
        return series(name, list, x, y);
    }

    static Series series(String name, List<JsonNode> rows, String x, String y) {
        double[] xs = new double[rows.size()];
        double[] ys = new double[rows.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = rows.get(i).path(x).asDouble(Double.NaN);
            ys[i] = rows.get(i).path(y).asDouble(Double.NaN);
        }
        return new Series(name, xs, ys, true);
    }

    /** A number field, NaN when missing or not a number (no bar, no point). */
    static double num(JsonNode r, String field) {
        JsonNode v = r.path(field);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static int log2(long v) {
        return v > 0 ? 63 - Long.numberOfLeadingZeros(v) : 0;
    }
}
