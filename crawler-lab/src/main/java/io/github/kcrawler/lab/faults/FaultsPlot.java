package io.github.kcrawler.lab.faults;

import io.github.kcrawler.lab.chart.SvgChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The plot of a fault run: distinct pages over time, each crawl, each disruption as a vertical line. */
final class FaultsPlot {
    private FaultsPlot() {
    }

    static void write(FaultsResult r, Path svg) throws IOException {
        List<SvgChart.Series> series = new ArrayList<>();
        double top = r.disturbed().distinctPages();
        if (r.undisturbed() != null) {
            series.add(new SvgChart.Series("undisturbed", r.undisturbed().timeS(),
                    toDouble(r.undisturbed().distinct()), false));
            top = Math.max(top, r.undisturbed().distinctPages());
        }
        series.add(new SvgChart.Series("disturbed", r.disturbed().timeS(), toDouble(r.disturbed().distinct()),
                false));
        for (FaultsResult.Disruption d : r.disruptions()) {
            series.add(new SvgChart.Series(d.label(), new double[] {d.atS(), d.atS()}, new double[] {0, top},
                    false));
        }
        SvgChart.write(svg, "Distinct pages fetched (websim's count); vertical lines: disruptions",
                "seconds since seeding", "distinct pages", series, false, false);
    }

    private static double[] toDouble(long[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
