package io.github.kcrawler.lab.simulate;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code crawler simulate --experiment scheduler}: paper 004's experiments ({@link SchedulerExperiment}) on a
 * BVGraph. Writes the JSON summary to {@code --summary} (stdout without it) and the SVG figures to
 * {@code --plot-dir}. Exit code 0 on success, 2 on bad settings, 1 if the run fails.
 */
@Command(name = "scheduler", mixinStandardHelpOptions = true,
        description = "Paper 004's O(1) politeness scheduler on a graph in memory: B and H varied, PageRank "
                + "collected vs pages crawled against BFS, an IRLbot-style scheduler and OPT, URLs stored.",
        footerHeading = "%nExamples:%n",
        footer = {"  crawler simulate --experiment scheduler --graph ../shared/data/cnr-2000 --summary s.json",
                "", "Exit codes:", "  0  success", "  1  the run failed", "  2  bad settings"})
public final class SchedulerExperimentMain implements Callable<Integer> {

    @Option(names = "--graph", required = true, paramLabel = "BASENAME", description = "BVGraph basename.")
    Path graph;

    @Option(names = "--summary", paramLabel = "FILE", description = "JSON summary file (default: stdout).")
    Path summary;

    @Option(names = "--plot-dir", paramLabel = "DIR", description = "Directory for the SVG figures 2-6.")
    Path plotDir;

    @Option(names = "--components", defaultValue = "0",
            description = "Seeds: one page from each of this many largest SCCs; 0 = scaled from the paper's "
                    + "1,024 of 76M pages (min 4). Default: ${DEFAULT-VALUE}.")
    int components;

    @Option(names = "--fixed-h", defaultValue = "" + SchedulerExperiment.Options.DEFAULT_FIXED_H,
            description = "H of experiment (a). Default: ${DEFAULT-VALUE}.")
    int fixedH;

    @Option(names = "--b-values", split = ",", defaultValue = "4,8,16,32,64,128,256,512",
            description = "B values of experiment (a). Default: ${DEFAULT-VALUE}.")
    int[] bValues;

    @Option(names = "--fixed-b", defaultValue = "" + SchedulerExperiment.Options.DEFAULT_FIXED_B,
            description = "B of experiment (b). Default: ${DEFAULT-VALUE}.")
    int fixedB;

    @Option(names = "--h-values", split = ",", defaultValue = "8,16,32,64,128,256,512,1024",
            description = "H values of experiment (b). Default: ${DEFAULT-VALUE}.")
    int[] hValues;

    @Option(names = "--progress", split = ",", defaultValue = "32x32,64x64,128x128",
            description = "BxH settings of experiment (c). Default: ${DEFAULT-VALUE}.")
    String[] progress;

    @Option(names = "--score", defaultValue = "IPR",
            description = "Priority-front score: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    SchedulerExperiment.Score score;

    @Option(names = "--pool-fraction", defaultValue = "1.0",
            description = "Priority-front capacity as a fraction of B*H/2. Default: ${DEFAULT-VALUE}.")
    double poolFraction;

    @Option(names = "--layout-seed", defaultValue = "1", description = "websim layout seed. Default: ${DEFAULT-VALUE}.")
    long layoutSeed;

    @Option(names = "--mean-pages-per-host", defaultValue = "20",
            description = "websim mean host size. Default: ${DEFAULT-VALUE}.")
    double meanPagesPerHost;

    @Option(names = "--ips", defaultValue = "65024", description = "websim IP addresses. Default: ${DEFAULT-VALUE}.")
    int ips;

    @Option(names = "--damping", defaultValue = "0.85", description = "PageRank damping. Default: ${DEFAULT-VALUE}.")
    double damping;

    @Option(names = "--curve-points", defaultValue = "400", description = "Samples per curve. Default: ${DEFAULT-VALUE}.")
    int curvePoints;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SchedulerExperimentMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        SchedulerExperiment.Options options;
        try {
            int[][] bh = Arrays.stream(progress).map(SchedulerExperimentMain::parsePair).toArray(int[][]::new);
            options = new SchedulerExperiment.Options(graph, components, layoutSeed, meanPagesPerHost, ips, fixedH,
                    bValues, fixedB, hValues, bh, score, poolFraction, damping, curvePoints, plotDir);
            if (!Files.exists(Path.of(graph + ".graph"))) {
                throw new IllegalArgumentException("no BVGraph at " + graph + ".graph");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("simulate scheduler: " + e.getMessage());
            return 2;
        }
        SchedulerExperiment.Options chosen = options;
        return ExperimentOutput.run("simulate scheduler", () -> SchedulerExperiment.run(chosen, System.err), summary);
    }

    static int[] parsePair(String s) {
        String[] parts = s.trim().toLowerCase(java.util.Locale.ROOT).split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("a progress setting is BxH (e.g. 64x64), was " + s);
        }
        try {
            return new int[] {Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim())};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a progress setting is BxH (e.g. 64x64), was " + s);
        }
    }
}
