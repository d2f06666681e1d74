package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.simulate.FreshnessExperimentMain;
import io.github.kcrawler.app.simulate.SchedulerExperimentMain;
import io.github.kcrawler.ranker.simulate.OrderingMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
