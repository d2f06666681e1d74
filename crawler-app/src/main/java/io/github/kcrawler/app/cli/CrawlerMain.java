package io.github.kcrawler.app.cli;

import io.github.kcrawler.websim.WebSimMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code crawler} command line (wrapped by {@code ./crawler} at the repository root).
 */
@Command(name = "crawler", mixinStandardHelpOptions = true, version = "kcrawler 0.1.0",
        description = "A distributed web crawler on Apache Kafka and Kafka Streams.",
        subcommands = {DemoCommand.class, CrawlCommand.class, SeedCommand.class, WebSimMain.class, BenchCommand.class, SimulateCommand.class,
                CommandLine.HelpCommand.class})
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
