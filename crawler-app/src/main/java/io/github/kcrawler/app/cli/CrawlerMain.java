package io.github.kcrawler.app.cli;

import io.github.kcrawler.websim.WebSimMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code crawler} command line (wrapped by {@code ./crawler} at the repository root).
 */
@Command(name = "crawler", mixinStandardHelpOptions = true, version = "kcrawler 0.1.0",
        description = "A distributed web crawler on Apache Kafka and Kafka Streams.",
        subcommands = {DemoCommand.class, CrawlCommand.class, StatusCommand.class, SeedCommand.class, TailCommand.class,
                WebSimMain.class,
                BenchCommand.class, SimulateCommand.class, ReportCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler demo                              crawl a simulated web on loopback, with a status page",
                "  crawler crawl --seeds https://example.org/ --max-pages 100 --status-port 9500",
                "  crawler status --scrape http://fetcher:9400/metrics   status page for services running elsewhere",
                "  crawler COMMAND --help                    options, examples and exit codes of one command",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE, ExitCodes.CODES_CHECK,
                ExitCodes.CODES_DEAD_LETTERS})
public final class CrawlerMain implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlerMain.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (tests call this without exiting the JVM). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /**
     * The command line with its error handling: a failure is one line on stderr naming what went wrong and its causes
     * (the stack trace goes to the log at DEBUG, {@code CRAWLER_LOG_LEVEL=DEBUG}), exit code {@link ExitCodes#FAILED}.
     */
    static CommandLine commandLine() {
        return new CommandLine(new CrawlerMain()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, cl, parsed) -> {
                    cl.getErr().println("crawler " + cl.getCommandName() + ": " + describe(e));
                    cl.getErr().flush();
                    LOG.debug("Command failed", e);
                    return ExitCodes.FAILED;
                });
    }

    /** The exception's message and those of its causes, without repeating one that wraps the next. */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        String previous = null;
        for (Throwable t = e; t != null && sb.length() < 2000; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (previous == null || !previous.contains(m)) {
                sb.append(sb.length() == 0 ? "" : ": ").append(m);
            }
            previous = m;
        }
        return sb.toString();
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
