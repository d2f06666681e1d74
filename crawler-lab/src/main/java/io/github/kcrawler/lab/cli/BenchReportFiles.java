package io.github.kcrawler.lab.cli;

import io.github.kcrawler.lab.report.ExperimentReport;
import io.github.kcrawler.common.serde.JsonSerde;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where every {@code crawler bench} puts its plots and report — one rule for all of them: with {@code --summary
 * DIR/NAME.json} the JSON result goes to that file, the SVG plots to the directory {@code DIR/NAME-plots/} and one
 * self-contained HTML report (plots and numbers, titled with the paper's figure) to {@code DIR/NAME.html}. Without
 * {@code --summary} nothing is written. ({@code crawler simulate} writes {@code NAME.html} next to its summary the
 * same way.)
 */
final class BenchReportFiles {
    /** The {@code --summary} option's description, the same for every bench. */
    static final String SUMMARY_HELP = "Write the result as JSON to FILE (e.g. out/NAME.json); also writes the SVG "
            + "plots to out/NAME-plots/ and an HTML report with the plots and the numbers to out/NAME.html.";
    /** A help footer line on the rule. */
    static final String FOOTER = "Output: --summary out/NAME.json also writes out/NAME.html and out/NAME-plots/";

    /**
     * Draws a bench's plots from its result, read back from the JSON summary as its record {@code R} — so a renamed
     * field fails to compile rather than drop a plot — into a directory; returns the files written.
     */
    @FunctionalInterface
    interface Plotter<R> {
        List<Path> plot(R result, Path dir) throws IOException;
    }

    private BenchReportFiles() {
    }

    /** {@code DIR/NAME.json} → {@code NAME} (a name without {@code .json} is used whole). */
    static String baseName(Path summary) {
        return summary.getFileName().toString().replaceFirst("\\.json$", "");
    }

    static Path html(Path summary) {
        return summary.toAbsolutePath().resolveSibling(baseName(summary) + ".html");
    }

    static Path plotDir(Path summary) {
        return summary.toAbsolutePath().resolveSibling(baseName(summary) + "-plots");
    }

    /**
     * Draws the plots of the result in {@code summary}, read as the record {@code type} (replacing the {@code .svg}
     * files a previous run left in the plot directory), and writes the report; {@code extraSummaries} are shown after
     * the main one.
     */
    static <R> Path write(Path summary, Class<R> type, String title, List<String> notes, String command,
            Plotter<R> plotter, List<Path> extraSummaries) throws IOException {
        Path dir = plotDir(summary);
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                if (p.getFileName().toString().endsWith(".svg") && Files.isRegularFile(p)) {
                    Files.delete(p);
                }
            }
        }
        R result = JsonSerde.MAPPER.readValue(summary.toFile(), type);
        List<Path> plots = plotter.plot(result, dir);
        List<Path> summaries = new ArrayList<>();
        summaries.add(summary);
        summaries.addAll(extraSummaries);
        Path out = html(summary);
        ExperimentReport.write(out, title, notes, plots, summaries, command);
        System.out.println("Report written to " + out + " (plots in " + dir + ")");
        return out;
    }

    /** The command line as typed, for the report: {@code crawler bench NAME ARGS}. */
    static String commandLine(CommandSpec spec) {
        if (spec == null) {
            return "crawler bench";
        }
        CommandSpec root = spec.root(); // the root's arguments are the whole command line, subcommands included
        List<String> args = root.commandLine().getParseResult() == null ? List.of()
                : root.commandLine().getParseResult().originalArgs();
        String name = root == spec ? "crawler bench " + spec.name()
                : root.name().equals("crawler") ? "crawler" : "crawler " + root.name();
        return args.isEmpty() ? name : name + " " + String.join(" ", args);
    }
}
