package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteIncrementalPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteRecomputedPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.Strategies;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of the crawl-ordering experiment (paper 002, Figures 4–10), drawn by the lab's one chart writer
 * ({@link SvgChart}): each criterion against the share of pages crawled (1 %, 2 %, … 100 %) and the priority
 * determination speed of each strategy as bars. Strategies are drawn in the same order in every figure, so each keeps
 * its colour.
 */
final class OrderingPlots {
    private OrderingPlots() {
    }

    static List<String> figures(Path dir, Map<String, Criteria.Curves> byName, Map<String, Double> speed)
            throws IOException {
        List<String> files = new ArrayList<>();
        List<String> main = byName.keySet().stream()
                .filter(n -> Strategies.BASELINES.contains(n) || n.equals("IPR-DL1")
                        || n.equals(NewSiteIncrementalPageRankOrdering.NAME)
                        || n.equals(NewSiteRecomputedPageRankOrdering.NAME)).toList();
        String[] figNames = {"fig4-top0.1pct.svg", "fig5-top1pct.svg", "fig6-top10pct.svg"};
        String[] titles = {"Fig. 4: share of the top 0.1% collected", "Fig. 5: share of the top 1% collected",
            "Fig. 6: share of the top 10% collected"};
        for (int f = 0; f < figNames.length; f++) {
            final int ff = f;
            line(dir.resolve(figNames[f]), titles[f], "share collected (criterion A)",
                    select(byName, main, cv -> cv.topShare()[ff]), 0, 1);
            files.add(figNames[f]);
        }
        line(dir.resolve("fig7-pagerank-sum.svg"), "Fig. 7: PageRank sum of collected pages",
                "PageRank share collected (criterion B)", select(byName, main, Criteria.Curves::pageRankShare), 0, 1);
        files.add("fig7-pagerank-sum.svg");
        line(dir.resolve("fig8-order-error.svg"), "Fig. 8: error of the collection order",
                "normalised weighted order error (criterion C)", select(byName, main, Criteria.Curves::orderError),
                0, Double.NaN);
        files.add("fig8-order-error.svg");
        List<String> ipr = byName.keySet().stream().filter(Strategies.IPR::contains).toList();
        if (!ipr.isEmpty()) {
            line(dir.resolve("fig9-ipr-cutoffs.svg"), "Fig. 9: IPR cut-offs, PageRank sum collected",
                    "PageRank share collected (criterion B)", select(byName, ipr, Criteria.Curves::pageRankShare), 0, 1);
            files.add("fig9-ipr-cutoffs.svg");
            if (byName.containsKey("IPR-DL1") && ipr.size() > 1) {
                double[] dl1 = byName.get("IPR-DL1").pageRankShare();
                Map<String, double[]> diff = new LinkedHashMap<>();
                for (String n : ipr) {
                    double[] ys = byName.get(n).pageRankShare().clone();
                    for (int j = 0; j < ys.length; j++) {
                        ys[j] -= dl1[j];
                    }
                    diff.put(n, ys);
                }
                line(dir.resolve("fig9b-ipr-cutoffs-vs-dl1.svg"),
                        "Fig. 9 (detail): criterion B minus IPR-DL1's", "difference in PageRank share", diff,
                        Double.NaN, Double.NaN);
                files.add("fig9b-ipr-cutoffs-vs-dl1.svg");
            }
        }
        Map<String, Double> rates = new LinkedHashMap<>(speed);
        bars(dir.resolve("fig10-speed.svg"), "Fig. 10: priority determination speed (one thread)",
                "pages per second", rates);
        files.add("fig10-speed.svg");
        return files;
    }

    private static Map<String, double[]> select(Map<String, Criteria.Curves> byName, List<String> names,
            java.util.function.Function<Criteria.Curves, double[]> field) {
        Map<String, double[]> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(n, field.apply(byName.get(n)));
        }
        return out;
    }

    /** Curves sampled at 1 %, 2 %, … 100 % of pages crawled; y from {@code yMin} to {@code yMax} (NaN: the data's). */
    private static void line(Path file, String title, String yLabel, Map<String, double[]> series, double yMin,
            double yMax) throws IOException {
        List<SvgChart.Series> curves = new ArrayList<>();
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            double[] ys = e.getValue();
            double[] xs = new double[ys.length];
            for (int j = 0; j < ys.length; j++) {
                xs[j] = 100.0 * (j + 1) / ys.length;
            }
            curves.add(new SvgChart.Series(e.getKey(), xs, ys, false));
        }
        SvgChart.write(file, title, "pages crawled (%)", yLabel, curves, false, false, yMin, yMax);
    }

    /** One bar per strategy (the paper's Figure 10). */
    private static void bars(Path file, String title, String yLabel, Map<String, Double> values) throws IOException {
        double[] v = values.values().stream().mapToDouble(Double::doubleValue).toArray();
        SvgChart.writeBars(file, title, yLabel, new ArrayList<>(values.keySet()),
                List.of(new SvgChart.Bars(yLabel, v)), false);
    }
}
