package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.demo.CrawlTimeline;
import io.github.kcrawler.lab.demo.DemoOptions;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.demo.DemoSummary;
import io.github.kcrawler.lab.report.E2ePlots;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code crawler bench ...}: benchmarks that run on demand, never in CI. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (run on demand, never in CI).",
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench e2e --summary e2e.json",
                "  crawler bench sbfl-decrement --summary sbfl.json",
                "  crawler bench url-seen --graph ../shared/data/cnr-2000",
                "  crawler bench soak --minutes 15 --summary soak.json",
                "  crawler bench faults --summary faults.json",
                "  crawler bench revisits --summary revisits.json",
                "  crawler bench scale --summary scale.json",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE},
        subcommands = {BenchCommand.E2e.class, UrlSeenBenchCommands.SbflDecrement.class,
                UrlSeenBenchCommands.UrlSeen.class, UrlSeenBenchCommands.UrlSeenMemory.class,
                ImpCbfBenchCommand.class, SatlBenchCommand.class, RevisitsBenchCommand.class, SoakBenchCommand.class,
                FaultsBenchCommand.class, OrderBenchCommand.class, ScaleBenchCommand.class})
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
                    "reports pages/s between 10 %% and 90 %% of the budget and its slowest and fastest 10-second window,",
                    "CPU ms per page per thread group, records and bytes per page per topic, GC share, politeness",
                    "efficiency of the 10 busiest IPs and violations (websim's count), and per-stage throughput."},
            footerHeading = "%nExamples:%n",
            footer = {"  crawler bench e2e --summary e2e.json",
                    "  crawler bench e2e --max-pages 20000 --ips 1024 --summary out/e2e-20k.json",
                    "  crawler bench e2e --seeds 64 --store-metrics --summary out/e2e-seeds.json",
                    "", BenchReportFiles.FOOTER,
                    "(the crawl's course, counts every --sample-ms, in out/NAME-plots/timeline.json)", "",
                    "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
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

        @Option(names = "--sample-ms", description = "Time between samples of the crawl's course, for the plots "
                + "over time (default ${DEFAULT-VALUE}).")
        long sampleMs = 1000;

        @Option(names = "--summary", paramLabel = "FILE", description = BenchReportFiles.SUMMARY_HELP)
        Path summary;

        @Option(names = "--seeds", paramLabel = "N", description = "Start from N seed pages spread evenly over the "
                + "web's page ids, and so over its hosts (deterministic; default ${DEFAULT-VALUE}).")
        int seeds = 1;

        @Option(names = "--store-metrics", description = {"Count state-store operations per page (storeOpsPerPage): "
                + "RocksDB statistics on every store, which cost RocksDB 5-10 %% by its wiki."})
        boolean storeMetrics;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any service setting.")
        Map<String, String> settings = new LinkedHashMap<>();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            CrawlTimeline timeline;
            DemoOptions o;
            try {
                o = new DemoOptions(null, pages, maxPages, politenessMs, ips, 0, DemoOptions.DEFAULT_MAX_DEPTH,
                        partitions, dataDir, DemoOptions.DEFAULT_MAX_SECONDS, true, settings, pagesPerHost)
                        .withSeeds(seeds).withStoreMetrics(storeMetrics);
                timeline = new CrawlTimeline(sampleMs, System::nanoTime);
            } catch (IllegalArgumentException e) { // a bad option value: a usage error naming it
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            DemoSummary result = DemoRunner.run(o, System.out, timeline);
            System.out.println(result.toText());
            result.stages().forEach((k, v) -> System.out.printf("  %-28s %,14.1f%n", k, v));
            System.out.printf("machine: %d cores, %s %s, Java %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"));
            if (summary != null) {
                result.write(summary);
                Path timelineFile = BenchReportFiles.plotDir(summary).resolve("timeline.json");
                Files.createDirectories(timelineFile.getParent());
                JsonSerde.writeIndented(timelineFile, timeline.course());
                BenchReportFiles.write(summary, DemoSummary.class, E2ePlots.TITLE, List.of(
                        "The papers measure their algorithms alone; this run measures all of them together in the "
                                + "pipeline (dedup, scheduler, fetcher, ranker on an embedded broker) against a "
                                + "simulated web on loopback. Politeness violations and duplicate fetches are "
                                + "websim's own counts."),
                        BenchReportFiles.commandLine(spec),
                        (read, dir) -> E2ePlots.plot(read, JsonSerde.MAPPER.readValue(timelineFile.toFile(),
                                CrawlTimeline.Course.class), dir),
                        List.of(timelineFile));
            }
            return 0;
        }
    }
}
