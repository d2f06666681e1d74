package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Bars;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.bars;
import static io.github.kcrawler.lab.report.PlotFiles.num;
import static io.github.kcrawler.lab.report.PlotFiles.array;
import static io.github.kcrawler.lab.report.PlotFiles.log2;

/**
 * The plots of {@code crawler bench sbfl-decrement}: paper 000 (SBFL), Table 1. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class SbflDecrementPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "SBF vs SBF Light counter decrements — paper 000 (SBFL), Table 1";

    private SbflDecrementPlots() {
    }

    /** Table 1 as bars: decrements/s per variant, the speed-ups against the paper's, the time for 2×10^9. */
    public static List<Path> plot(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("SBF (Mersenne Twister)", "SBFL scalar", "SBFL SWAR (32-way)"));
        List<Double> rates = new ArrayList<>(List.of(num(r, "sbfDecrementsPerSec"), num(r, "sbflDecrementsPerSec"),
                num(r, "sbflSwarDecrementsPerSec")));
        if (r.has("sbflPerInsertionDecrementsPerSec")) {
            names.add("SBFL scalar, p per step");
            names.add("SBFL SWAR, p per step");
            rates.add(num(r, "sbflPerInsertionDecrementsPerSec"));
            rates.add(num(r, "sbflSwarPerInsertionDecrementsPerSec"));
        }
        String sub = String.format(Locale.ROOT, "paper 000, Table 1; %,d decrements of 2^%d %d-bit counters",
                r.path("decrements").asLong(), log2(r.path("counters").asLong()), r.path("counterBits").asInt());
        out.add(bars(dir, "table1-decrements-per-second.svg", "Counter decrements per second\n" + sub,
                "decrements/s (log scale)", names, List.of(new Bars("this machine", array(rates))), true));
        out.add(bars(dir, "table1-speedup-over-sbf.svg", "Speed-up over the SBF\n" + sub, "× SBF",
                List.of("SBFL scalar", "SBFL SWAR (32-way)"),
                List.of(new Bars("this machine", new double[] {num(r, "sbflSpeedupOverSbf"),
                        num(r, "sbflSwarSpeedupOverSbf")}),
                        new Bars("paper (2.66 GHz Xeon)", new double[] {num(r, "paperSbflSpeedupOverSbf"),
                                num(r, "paperSbflSwarSpeedupOverSbf")})), true));
        double paperDecrements = 2e9;
        out.add(bars(dir, "table1-seconds-for-2e9.svg",
                "Seconds for 2×10^9 decrements (paper: of 2^30 counters)\npaper 000, Table 1; this machine: "
                        + String.format(Locale.ROOT, "its rate on 2^%d counters, scaled to 2×10^9",
                        log2(r.path("counters").asLong())), "seconds (log scale)",
                List.of("SBF", "SBFL", "SBFL (32-way)"),
                List.of(new Bars("this machine (scaled)", new double[] {paperDecrements / num(r, "sbfDecrementsPerSec"),
                        paperDecrements / num(r, "sbflDecrementsPerSec"),
                        paperDecrements / num(r, "sbflSwarDecrementsPerSec")}),
                        new Bars("paper", new double[] {320.7, 9.435, 0.9672})), true));
        return out;
    }
}
