package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.chart.SvgChart.Bars;
import io.github.kcrawler.lab.dedup.bench.SbflDecrementResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.array;
import static io.github.kcrawler.lab.report.PlotFiles.bars;
import static io.github.kcrawler.lab.report.PlotFiles.log2;

/**
 * The plots of {@code crawler bench sbfl-decrement}, drawn from its typed result: paper 000 (SBFL), Table 1, as bars
 * (rates, speed-ups against the paper's, seconds for 2×10^9 decrements), and the SWAR sweep's bytes touched per second
 * beside {@code System.arraycopy}'s over an array of the same size. A run without the per-insertion figures leaves
 * their bars out.
 */
public final class SbflDecrementPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "SBF vs SBF Light counter decrements — paper 000 (SBFL), Table 1";

    private SbflDecrementPlots() {
    }

    /** Table 1 as bars: decrements/s per variant, the speed-ups against the paper's, the time for 2×10^9. */
    public static List<Path> plot(SbflDecrementResult r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("SBF (Mersenne Twister)", "SBFL scalar", "SBFL SWAR (32-way)"));
        List<Double> rates = new ArrayList<>(List.of(r.sbfDecrementsPerSec(), r.sbflDecrementsPerSec(),
                r.sbflSwarDecrementsPerSec()));
        if (r.sbflPerInsertionDecrementsPerSec() != null && r.sbflSwarPerInsertionDecrementsPerSec() != null) {
            names.add("SBFL scalar, p per step");
            names.add("SBFL SWAR, p per step");
            rates.add(r.sbflPerInsertionDecrementsPerSec());
            rates.add(r.sbflSwarPerInsertionDecrementsPerSec());
        }
        String sub = String.format(Locale.ROOT, "paper 000, Table 1; %,d decrements of 2^%d %d-bit counters",
                r.decrements(), log2(r.counters()), r.counterBits());
        out.add(bars(dir, "table1-decrements-per-second.svg", "Counter decrements per second\n" + sub,
                "decrements/s (log scale)", names, List.of(new Bars("this machine", array(rates))), true));
        out.add(bars(dir, "table1-speedup-over-sbf.svg", "Speed-up over the SBF\n" + sub, "× SBF",
                List.of("SBFL scalar", "SBFL SWAR (32-way)"),
                List.of(new Bars("this machine", new double[] {r.sbflSpeedupOverSbf(), r.sbflSwarSpeedupOverSbf()}),
                        new Bars("paper (2.66 GHz Xeon)", new double[] {r.paperSbflSpeedupOverSbf(),
                                r.paperSbflSwarSpeedupOverSbf()})), true));
        double paperDecrements = 2e9;
        out.add(bars(dir, "table1-seconds-for-2e9.svg",
                "Seconds for 2×10^9 decrements (paper: of 2^30 counters)\npaper 000, Table 1; this machine: "
                        + String.format(Locale.ROOT, "its rate on 2^%d counters, scaled to 2×10^9",
                        log2(r.counters())), "seconds (log scale)",
                List.of("SBF", "SBFL", "SBFL (32-way)"),
                List.of(new Bars("this machine (scaled)", new double[] {paperDecrements / r.sbfDecrementsPerSec(),
                        paperDecrements / r.sbflDecrementsPerSec(), paperDecrements / r.sbflSwarDecrementsPerSec()}),
                        new Bars("paper", new double[] {SbflDecrementResult.PAPER_SBF_SECONDS,
                                SbflDecrementResult.PAPER_SBFL_SECONDS,
                                SbflDecrementResult.PAPER_SBFL_SWAR_SECONDS})), true));
        out.add(bars(dir, "bandwidth.svg", "Bytes read + written per second: the SWAR sweep vs System.arraycopy\n"
                        + String.format(Locale.ROOT, "the same %,d-byte array size, the same run; %,d of %,d "
                                + "decrements lowered a counter", r.arrayBytes(), r.countersLowered(),
                        r.decrements()), "bytes/s",
                List.of("SBFL SWAR sweep", "System.arraycopy"),
                List.of(new Bars("bytes/s", new double[] {r.bytesTouchedPerSecond(), r.arrayCopyBytesPerSecond()})),
                false));
        return out;
    }
}
