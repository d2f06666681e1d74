package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.websim.ChangeModel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code crawler simulate --experiment freshness}: uniform against estimator-driven revisits under a fixed fetch
 * budget on a graph's pages ({@link FreshnessExperiment}). Writes the JSON summary to {@code --summary} (stdout
 * without it) and SVG plots of freshness and age over time to {@code --plot-dir}. Exit code 0 on success, 2 on bad
 * settings, 1 if the run fails.
 */
@Command(name = "freshness", mixinStandardHelpOptions = true,
        description = "Time-averaged freshness and age of uniform, proportional, Cho-Garcia-Molina-optimal "
                + "(estimated rates) and oracle revisit policies under a fixed fetch budget; page change intervals "
                + "from websim's Zipf or Peaked model (paper 003).")
public final class FreshnessExperimentMain implements Callable<Integer> {

    @Option(names = "--graph", required = true, paramLabel = "BASENAME",
            description = "BVGraph basename: its pages are simulated.")
    Path graph;

    @Option(names = "--summary", paramLabel = "FILE", description = "JSON summary file (default: stdout).")
    Path summary;

    @Option(names = "--plot-dir", paramLabel = "DIR", description = "Directory for the SVG plots.")
    Path plotDir;

    @Option(names = "--models", split = ",", defaultValue = "ZIPF,PEAKED",
            description = "Change models: ZIPF, PEAKED. Default: ${DEFAULT-VALUE}.")
    List<ChangeModel> models;

    @Option(names = "--process", defaultValue = "POISSON",
            description = "Changes: ${COMPLETION-CANDIDATES} (PERIODIC = websim's exact schedule). "
                    + "Default: ${DEFAULT-VALUE}.")
    FreshnessExperiment.Process process;

    @Option(names = "--max-interval", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_MAX_INTERVAL,
            description = "T: change intervals are 1..T units. Default: ${DEFAULT-VALUE}.")
    int maxInterval;

    @Option(names = "--budget-fraction", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_BUDGET_FRACTION,
            description = "Fetches per unit as a fraction of the pages. Default: ${DEFAULT-VALUE}.")
    double budgetFraction;

    @Option(names = "--horizon", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_HORIZON,
            description = "Units simulated. Default: ${DEFAULT-VALUE}.")
    long horizon;

    @Option(names = "--warmup", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_WARMUP,
            description = "Units left out of the time averages. Default: ${DEFAULT-VALUE}.")
    long warmup;

    @Option(names = "--replan-every", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_REPLAN_EVERY,
            description = "Units between re-estimations. Default: ${DEFAULT-VALUE}.")
    long replanEvery;

    @Option(names = "--min-revisit", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_MIN_REVISIT,
            description = "Smallest adaptive revisit interval, units. Default: ${DEFAULT-VALUE}.")
    long minRevisit;

    @Option(names = "--max-revisit", defaultValue = "0",
            description = "Largest adaptive revisit interval, units; 0 = ten uniform intervals. "
                    + "Default: ${DEFAULT-VALUE}.")
    long maxRevisit;

    @Option(names = "--skip-factor", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_SKIP_FACTOR,
            description = "The adaptive policy gives up on pages whose estimated change rate is at least this many "
                    + "times the uniform revisit frequency. Default: ${DEFAULT-VALUE}.")
    double skipFactor;

    @Option(names = "--seed", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_SEED,
            description = "Seed of the change intervals and realisations. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--curve-points", defaultValue = "" + FreshnessExperiment.Options.DEFAULT_CURVE_POINTS,
            description = "Samples per curve. Default: ${DEFAULT-VALUE}.")
    int curvePoints;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FreshnessExperimentMain()).execute(args));
    }

    @Override
    public Integer call() {
        FreshnessExperiment.Options options;
        try {
            options = new FreshnessExperiment.Options(graph, 0, models, process, maxInterval, budgetFraction, horizon,
                    warmup, replanEvery, minRevisit, maxRevisit, skipFactor, seed, curvePoints, plotDir);
            if (!Files.exists(Path.of(graph + ".graph"))) {
                throw new IllegalArgumentException("no BVGraph at " + graph + ".graph");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("simulate freshness: " + e.getMessage());
            return 2;
        }
        FreshnessExperiment.Options chosen = options;
        return ExperimentOutput.run("simulate freshness", () -> FreshnessExperiment.run(chosen, System.err), summary);
    }
}
