package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.report.ExperimentReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler report}: one self-contained HTML file with an experiment's plots and summaries. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes one self-contained HTML file with an experiment's plots (SVG/PNG, embedded) and its",
                "JSON summaries as tables; no scripts, nothing loaded from elsewhere."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler report --plots docs/scheduler/plots --summary docs/scheduler/cnr-2000.json \\",
                "      --title 'Paper 004 scheduler on cnr-2000' --out target/scheduler-report.html",
                "  crawler report --plots docs/ordering-cnr2000 --summary docs/ordering-cnr2000/summary.json --out o.html",
                "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class ReportCommand implements Callable<Integer> {
    @Option(names = "--plots", arity = "1..*", paramLabel = "FILE|DIR",
            description = "SVG or PNG files, or directories of them.")
    List<Path> plots = new ArrayList<>();

    @Option(names = "--summary", arity = "1..*", paramLabel = "FILE", description = "JSON summaries to include.")
    List<Path> summaries = new ArrayList<>();

    @Option(names = "--title", description = "Title of the report (default ${DEFAULT-VALUE}).")
    String title = "kcrawler experiment";

    @Option(names = "--command", paramLabel = "TEXT", description = "The command that produced the results.")
    String command;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The HTML file to write.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (plots.isEmpty() && summaries.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "give --plots and/or --summary");
        }
        ExperimentReport.write(out, title, plots, summaries, command);
        System.out.println("Report written to " + out);
        return ExitCodes.OK;
    }
}
