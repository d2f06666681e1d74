package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.demo.DemoOptions;
import io.github.kcrawler.app.demo.DemoRunner;
import io.github.kcrawler.app.demo.DemoSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code crawler bench ...}: benchmarks that run on demand, never in CI. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (run on demand, never in CI).",
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench e2e --summary e2e.json",
                "  crawler bench sbfl-decrement --summary sbfl.json",
                "  crawler bench url-seen --graph ../shared/data/cnr-2000",
                "  crawler bench faults --summary faults.json",
                "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE},
        subcommands = {BenchCommand.E2e.class, UrlSeenBenchCommands.SbflDecrement.class,
                UrlSeenBenchCommands.UrlSeen.class, UrlSeenBenchCommands.UrlSeenMemory.class,
                ImpCbfBenchCommand.class, SatlBenchCommand.class,
                FaultsBenchCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The whole pipeline at zero latency over many simulated IPs with a fixed page budget. */
    @Command(name = "e2e", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Crawls a generated web at zero latency, small T and many IPs with a fixed page budget;",
                    "reports pages/s, politeness violations (websim's count) and per-stage throughput."},
            footerHeading = "%nExamples:%n",
            footer = {"  crawler bench e2e --summary e2e.json",
                    "  crawler bench e2e --max-pages 20000 --ips 1024 --politeness-ms 50",
                    "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
    public static final class E2e implements Callable<Integer> {
        @Option(names = "--pages", description = "Pages of the generated web (default ${DEFAULT-VALUE}).")
        int pages = 200_000;

        @Option(names = "--max-pages", description = "Page budget (default ${DEFAULT-VALUE}).")
        long maxPages = 100_000;

        @Option(names = "--politeness-ms", description = "T (default ${DEFAULT-VALUE}).")
        long politenessMs = 20;

        @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
        int ips = 4096;

        @Option(names = "--pages-per-host", description = "Mean pages per host (default ${DEFAULT-VALUE}).")
        double pagesPerHost = DemoOptions.DEFAULT_PAGES_PER_HOST;

        @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
        int partitions = 4;

        @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
        Path dataDir = Path.of("data", "bench-e2e");

        @Option(names = "--summary", paramLabel = "FILE", description = "Write the result as JSON.")
        Path summary;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any service setting.")
        Map<String, String> settings = new LinkedHashMap<>();

        @Override
        public Integer call() throws Exception {
            DemoOptions o = new DemoOptions(null, pages, maxPages, politenessMs, ips, 0, DemoOptions.DEFAULT_MAX_DEPTH,
                    partitions, dataDir, DemoOptions.DEFAULT_MAX_SECONDS, true, settings, pagesPerHost);
            DemoSummary result = DemoRunner.run(o, System.out);
            System.out.println(result.toText());
            result.stages().forEach((k, v) -> System.out.printf("  %-28s %,14.1f%n", k, v));
            System.out.printf("machine: %d cores, %s %s, Java %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"));
            if (summary != null) {
                result.write(summary);
            }
            return 0;
        }
    }
}
