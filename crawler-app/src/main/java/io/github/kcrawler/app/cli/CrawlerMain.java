package io.github.kcrawler.app.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code crawler} command line of the product: the commands that run or inspect a crawl ({@code crawl},
 * {@code status}, {@code seed}, {@code tail}). The demo, websim, {@code bench}, {@code simulate} and {@code report}
 * are the lab's ({@code crawler-lab}'s {@code LabMain}, which adds them to these); {@code ./crawler} at the repository
 * root runs each verb from the jar that has it.
 */
@Command(name = "crawler", mixinStandardHelpOptions = true, version = "kcrawler 0.1.0",
        description = "A distributed web crawler on Apache Kafka and Kafka Streams.",
        subcommands = {CrawlCommand.class, StatusCommand.class, SeedCommand.class, TailCommand.class,
                CdxCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler crawl --seeds https://example.org/ --max-pages 100 --status-port 9500",
                "  crawler status --scrape http://fetcher:9400/metrics   status page for services running elsewhere",
                "  crawler COMMAND --help                    options, examples and exit codes of one command",
                "  crawler demo --log-format json            every log line one JSON object (or CRAWLER_LOG_FORMAT=json)",
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
        return run(commandLine(), args);
    }

    /**
     * Runs {@code args} on {@code commandLine} (this one, or the lab's with every verb) after the flags every verb
     * takes: {@code --log-format} ({@link #logFormatFlag}) and {@code --kafka.NAME=VALUE} ({@link #kafkaFlags}).
     */
    public static int run(CommandLine commandLine, String... args) {
        String[] rest;
        try {
            rest = logFormatFlag(args);
        } catch (IllegalArgumentException e) {
            System.err.println("crawler: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        return commandLine.execute(kafkaFlags(rest));
    }

    /**
     * {@code --log-format FORMAT} (or {@code =FORMAT}) anywhere on the command line, as every service takes it
     * ({@link io.github.kcrawler.common.config.Settings#LOG_FORMAT}): applied to the log encoder and removed, so
     * {@code crawler demo --log-format json} writes every log line as one JSON object. {@code CRAWLER_LOG_FORMAT}
     * does the same from the environment (read when logging starts).
     *
     * @throws IllegalArgumentException for a value that is not a format, or a missing value
     */
    static String[] logFormatFlag(String... args) {
        String flag = "--" + io.github.kcrawler.common.config.Settings.LOG_FORMAT;
        java.util.List<String> out = new java.util.ArrayList<>(args.length);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value;
            if (a.equals(flag)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag + " needs a value: "
                            + io.github.kcrawler.common.config.LogFormats.FORMATS);
                }
                value = args[++i];
            } else if (a.startsWith(flag + "=")) {
                value = a.substring(flag.length() + 1);
            } else {
                out.add(a);
                continue;
            }
            io.github.kcrawler.common.config.LogFormats.apply(value);
        }
        return out.toArray(String[]::new);
    }

    /**
     * One syntax for Kafka client settings everywhere (issue 23): {@code --kafka.NAME=VALUE} (or {@code --kafka.NAME
     * VALUE}), as every service takes it, is rewritten for the command that follows: {@code --set kafka.NAME=VALUE}
     * for the commands that run services ({@code crawl}, {@code demo}, {@code bench}), {@code --kafka NAME=VALUE}
     * for the client commands ({@code seed}, {@code status}). Those older spellings still work (deprecated in the
     * docs). Nothing else is touched.
     */
    public static String[] kafkaFlags(String... args) {
        if (args.length == 0) {
            return args;
        }
        String command = args[0];
        boolean viaSet = command.equals("crawl") || command.equals("demo") || command.equals("bench");
        boolean viaKafka = command.equals("seed") || command.equals("status");
        if (!viaSet && !viaKafka) {
            return args;
        }
        java.util.List<String> out = new java.util.ArrayList<>(args.length + 4);
        out.add(command);
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--kafka.") || a.length() == "--kafka.".length()) {
                out.add(a);
                continue;
            }
            String body = a.substring("--kafka.".length());
            String name;
            String value;
            int eq = body.indexOf('=');
            if (eq >= 0) {
                name = body.substring(0, eq);
                value = body.substring(eq + 1);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                name = body;
                value = args[++i];
            } else {
                out.add(a); // no value: let the command report it
                continue;
            }
            if (viaSet) {
                out.add("--set");
                out.add("kafka." + name + "=" + value);
            } else {
                out.add("--kafka");
                out.add(name + "=" + value);
            }
        }
        return out.toArray(String[]::new);
    }

    /**
     * The command line with its error handling: a failure is one line on stderr naming what went wrong and its causes
     * (the stack trace goes to the log at DEBUG, {@code CRAWLER_LOG_LEVEL=DEBUG}), exit code {@link ExitCodes#FAILED}.
     */
    static CommandLine commandLine() {
        return commandLine(new CrawlerMain());
    }

    /** {@link #commandLine()} over another root command (the lab's, which adds its verbs to these). */
    public static CommandLine commandLine(Object root) {
        return new CommandLine(root).setCaseInsensitiveEnumValuesAllowed(true)
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
