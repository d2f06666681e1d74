package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.simulate.FreshnessExperiment.Options;
import io.github.kcrawler.lab.simulate.FreshnessExperiment.Process;
import io.github.kcrawler.websim.ChangeModel;
import io.github.kcrawler.websim.ChangeSchedule;
import io.github.kcrawler.websim.WebSimConfig;

import java.util.SplittableRandom;

import static io.github.kcrawler.lab.simulate.FreshnessExperiment.round;

/**
 * The pages of a {@link FreshnessExperiment}: each page's true change interval and phase, websim's own
 * ({@link ChangeSchedule}, same seed ⇒ same intervals), and its changes in simulated time, Poisson or periodic.
 */
final class FreshnessPopulation {
    /** websim's change schedule is defined in ms; one simulated unit is one second of it. */
    private static final long UNIT_MS = 1_000;

    final int n;
    final int[] interval;
    final double[] phase;
    final Process process;
    final long seed;

    private FreshnessPopulation(int n, int[] interval, double[] phase, Process process, long seed) {
        this.n = n;
        this.interval = interval;
        this.phase = phase;
        this.process = process;
        this.seed = seed;
    }

    static FreshnessPopulation of(int n, ChangeModel model, Options o) {
        ChangeSchedule schedule = ChangeSchedule.of(WebSimConfig.builder().seed(o.seed()).changeModel(model)
                .changeUnitMs(UNIT_MS).changeMaxInterval(o.maxInterval()).build());
        int[] interval = new int[n];
        double[] phase = new double[n];
        for (int p = 0; p < n; p++) {
            interval[p] = schedule.intervalUnits(p);
            phase[p] = schedule.phaseMs(p) / (double) UNIT_MS;
        }
        return new FreshnessPopulation(n, interval, phase, o.process(), o.seed() ^ model.ordinal() * 0x9E3779B97F4A7C15L);
    }

    double rate(int p) {
        return 1.0 / interval[p];
    }

    /** The first change strictly after {@code t}. */
    double nextChange(int p, double t, SplittableRandom rnd) {
        if (process == Process.POISSON) {
            return t - Math.log(1.0 - rnd.nextDouble()) * interval[p];
        }
        double i = interval[p];
        return (Math.floor((t + phase[p]) / i) + 1) * i - phase[p];
    }

    double expectedUniformFreshness(double j) {
        double sum = 0;
        for (int p = 0; p < n; p++) {
            double x = j / interval[p];
            sum += -Math.expm1(-x) / x;
        }
        return sum / n;
    }

    FreshnessResult.Intervals intervalSummary(double uniformInterval) {
        long faster = 0;
        long one = 0;
        double meanRate = 0;
        for (int p = 0; p < n; p++) {
            faster += interval[p] < uniformInterval ? 1 : 0;
            one += interval[p] == 1 ? 1 : 0;
            meanRate += rate(p);
        }
        return new FreshnessResult.Intervals(round((double) faster / n), round((double) one / n),
                round(meanRate / n));
    }
}
