package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.chart.SvgChart.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the bench plot classes share: a chart written into a plot directory (returning its file) and small number
 * helpers. Every chart is drawn by {@link SvgChart}; every plot class reads its bench's typed result.
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

    static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static int log2(long v) {
        return v > 0 ? 63 - Long.numberOfLeadingZeros(v) : 0;
    }
}
