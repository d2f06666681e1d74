package io.github.kcrawler.app.cli;

import io.github.kcrawler.websim.WebSimMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code crawler} command line (wrapped by {@code ./crawler} at the repository root).
 */
@Command(name = "crawler", mixinStandardHelpOptions = true, version = "kcrawler 0.1.0",
        description = "A distributed web crawler on Apache Kafka and Kafka Streams.",
        subcommands = {DemoCommand.class, CrawlCommand.class, StatusCommand.class, WebSimMain.class, BenchCommand.class,
                SimulateCommand.class, ReportCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler demo                              crawl a simulated web on loopback, with a status page",
                "  crawler crawl --seeds https://example.org/ --max-pages 100 --status-port 9500",
                "  crawler status --scrape http://fetcher:9400/metrics   status page for services running elsewhere",
                "  crawler COMMAND --help                    options, examples and exit codes of one command",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE, ExitCodes.CODES_CHECK})
public final class CrawlerMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (tests call this without exiting the JVM). */
    public static int run(String... args) {
        return new CommandLine(new CrawlerMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
