package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.CdxCommand;
import io.github.kcrawler.app.cli.CrawlCommand;
import io.github.kcrawler.app.cli.CrawlerMain;
import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.app.cli.SeedCommand;
import io.github.kcrawler.app.cli.StatusCommand;
import io.github.kcrawler.app.cli.TailCommand;
import io.github.kcrawler.websim.WebSimMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The whole {@code crawler} command line, as {@code ./crawler} shows it: the product's commands ({@link CrawlerMain}:
 * {@code crawl}, {@code status}, {@code seed}, {@code tail}) and the lab's ({@code demo}, {@code websim},
 * {@code bench}, {@code simulate}, {@code report}), in the order, with the help text and the exit codes, the single
 * command line had before the lab was split from the product (issue 24). {@code ./crawler} runs the lab's verbs from
 * this module's shaded jar and the product's from crawler-app's.
 */
@Command(name = "crawler", mixinStandardHelpOptions = true, version = "kcrawler 0.1.0",
        description = "A distributed web crawler on Apache Kafka and Kafka Streams.",
        subcommands = {DemoCommand.class, CrawlCommand.class, StatusCommand.class, SeedCommand.class, TailCommand.class,
                CdxCommand.class, WebSimMain.class,
                BenchCommand.class, SimulateCommand.class, ReportCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler demo                              crawl a simulated web on loopback, with a status page",
                "  crawler crawl --seeds https://example.org/ --max-pages 100 --status-port 9500",
                "  crawler status --scrape http://fetcher:9400/metrics   status page for services running elsewhere",
                "  crawler COMMAND --help                    options, examples and exit codes of one command",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE, ExitCodes.CODES_CHECK,
                ExitCodes.CODES_DEAD_LETTERS})
public final class LabMain implements Runnable {
    /** The verbs this command line has and the product's ({@link CrawlerMain}) has not; {@code ./crawler} keeps a copy. */
    public static final java.util.List<String> LAB_VERBS = java.util.List.of("demo", "websim", "bench", "simulate",
            "report");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (tests call this without exiting the JVM). */
    public static int run(String... args) {
        return CrawlerMain.run(commandLine(), args); // --log-format and --kafka.* as the product's verbs take them
    }

    /** The command line with the product's error handling ({@link CrawlerMain#commandLine(Object)}). */
    public static CommandLine commandLine() {
        return CrawlerMain.commandLine(new LabMain());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
