package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.ranker.simulate.OrderingMain;
import io.github.kcrawler.lab.report.ExperimentReport;
import io.github.kcrawler.lab.simulate.FreshnessExperimentMain;
import io.github.kcrawler.lab.simulate.SchedulerExperimentMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine;

/**
 * {@code crawler simulate --experiment NAME ...}: the papers' experiments on a graph in memory, with no HTTP and no
 * Kafka, running the same algorithm classes as the services. Each experiment has its own settings, listed by
 * {@code crawler simulate --experiment NAME --help}.
 */
@Command(name = "simulate", description = {
        "Experiments on a graph in memory: --experiment ordering (paper 002), url-seen (paper 000), scheduler (paper 004),",
        "freshness (paper 003's revisit use).",
        "Settings of one experiment: crawler simulate --experiment NAME --help"},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler simulate --experiment ordering --graph ../shared/data/cnr-2000 --summary o.json --plots out/ordering",
                "  crawler simulate --experiment url-seen --graph ../shared/data/cnr-2000 --plot out/url-seen",
                "  crawler simulate --experiment scheduler --graph ../shared/data/cnr-2000 --help",
                "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class SimulateCommand implements Runnable {
    /** Experiment name → runner of its remaining arguments, returning the exit code. */
    static final Map<String, Function<String[], Integer>> EXPERIMENTS = new LinkedHashMap<>();

    static {
        EXPERIMENTS.put("ordering", rest -> {
            OrderingMain.main(withExperiment("ordering", rest));
            return 0;
        });
        EXPERIMENTS.put("url-seen", rest -> picocli(new UrlSeenBenchCommands.UrlSeenMemory(), rest));
        EXPERIMENTS.put("scheduler", rest -> picocli(new SchedulerExperimentMain(), rest));
        EXPERIMENTS.put("freshness", rest -> picocli(new FreshnessExperimentMain(), rest));
    }

    @Unmatched
    List<String> args = new ArrayList<>();

    int exitCode;

    @Override
    public void run() {
        String experiment = "ordering";
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--experiment") && i + 1 < args.size()) {
                experiment = args.get(++i);
            } else if (a.startsWith("--experiment=")) {
                experiment = a.substring("--experiment=".length());
            } else {
                rest.add(a);
            }
        }
        Function<String[], Integer> runner = EXPERIMENTS.get(experiment);
        if (runner == null) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "unknown experiment '" + experiment + "'; known: " + String.join(", ", EXPERIMENTS.keySet()));
        }
        exitCode = runner.apply(rest.toArray(String[]::new));
        if (exitCode != 0) {
            throw new CommandLine.ExecutionException(new CommandLine(this),
                    "experiment " + experiment + " failed with exit code " + exitCode);
        }
        if (!experiment.equals("url-seen")) { // url-seen is bench url-seen-memory: it writes its own report
            writeReport(experiment, rest);
        }
    }

    /** What each experiment reproduces, named on its report. */
    static final Map<String, String> TITLES = Map.of(
            "ordering", "Crawl ordering by incremental PageRank — paper 002, Figs. 4–10",
            "scheduler", "O(1) politeness scheduler — paper 004, Figs. 2–6",
            "freshness", "Freshness of revisits under a fixed budget — paper 003's use (Cho & Garcia-Molina)");

    /**
     * With {@code --summary FILE}, writes {@code FILE} with extension {@code .html}: one self-contained page with the
     * experiment's plots and numbers, titled with the paper's figures it reproduces.
     */
    private static void writeReport(String experiment, List<String> rest) {
        String summary = value(rest, "--summary");
        if (summary == null || !Files.isRegularFile(Path.of(summary))) {
            return;
        }
        List<Path> plots = new ArrayList<>();
        for (String flag : List.of("--plots", "--plot-dir")) {
            String dir = value(rest, flag);
            if (dir != null && Files.isDirectory(Path.of(dir))) {
                plots.add(Path.of(dir));
            }
        }
        String base = value(rest, "--plot"); // url-seen: BASENAME-*.svg
        if (base != null) {
            Path b = Path.of(base).toAbsolutePath();
            try (var files = Files.list(b.getParent())) {
                files.filter(f -> f.getFileName().toString().startsWith(b.getFileName().toString())
                        && f.toString().endsWith(".svg")).sorted().forEach(plots::add);
            } catch (IOException e) {
                System.err.println("report: cannot list plots " + base + ": " + e.getMessage());
            }
        }
        String name = Path.of(summary).getFileName().toString().replaceFirst("\\.json$", "");
        Path out = Path.of(summary).resolveSibling(name + ".html");
        try {
            ExperimentReport.write(out, TITLES.getOrDefault(experiment, experiment), plots,
                    List.of(Path.of(summary)), "crawler simulate --experiment " + experiment + " "
                            + String.join(" ", rest));
            System.out.println("Report written to " + out);
        } catch (IOException | RuntimeException e) {
            System.err.println("report: could not write " + out + ": " + e.getMessage());
        }
    }

    private static String value(List<String> args, String flag) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals(flag) && i + 1 < args.size()) {
                return args.get(i + 1);
            }
            if (a.startsWith(flag + "=")) {
                return a.substring(flag.length() + 1);
            }
        }
        return null;
    }

    private static int picocli(Object command, String[] rest) {
        return new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).execute(rest);
    }

    private static String[] withExperiment(String name, String[] rest) {
        String[] out = new String[rest.length + 2];
        out[0] = "--experiment";
        out[1] = name;
        System.arraycopy(rest, 0, out, 2, rest.length);
        return out;
    }
}
