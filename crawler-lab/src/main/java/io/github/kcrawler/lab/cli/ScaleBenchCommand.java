package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.faults.FaultsConfig;
import io.github.kcrawler.lab.faults.ScaleReports;
import io.github.kcrawler.lab.faults.ScaleResult;
import io.github.kcrawler.lab.faults.ScaleScenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code crawler bench scale}: issue 23 item 3, fetcher processes 1 → N → 1 mid-crawl with one broker. */
@Command(name = "scale", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls a generated web with the broker and every service in its own JVM, the fetchers",
                "limited by websim's latency: one fetcher, then N (started mid-crawl, as a scale-up starts pods),",
                "then one again (the others stopped with SIGTERM, as a scale-down stops pods). Reports each",
                "phase's pages/s and, over the whole crawl, lostUrls, duplicateFetchRatio and politenessViolations",
                "(websim's counts); with --summary also an SVG plot and an HTML report."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench scale --summary scale.json",
                "  crawler bench scale --fetchers 4 --partitions 8 --phase-seconds 30",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED,
                ExitCodes.CODES_USAGE,
                "  3  the scenario ran but a goal was not met (pages/s did not follow, a lost URL, > 0.3 %% "
                        + "duplicates, ...)"})
public final class ScaleBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--pages", description = "Pages of the generated web (default ${DEFAULT-VALUE}).")
    int pages = 800;

    @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
    int ips = 64;

    @Option(names = "--pages-per-host", description = "Mean pages per host (default ${DEFAULT-VALUE}): many hosts, "
            + "several per IP, so that every partition has IPs enough to keep its fetcher busy and each hand-over "
            + "moves IPs whose hosts' robots.txt are still being read.")
    double pagesPerHost = 5.0;

    @Option(names = "--politeness-ms", description = "T (default ${DEFAULT-VALUE}).")
    long politenessMs = 100;

    @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
    int partitions = FaultsConfig.DEFAULT_PARTITIONS;

    @Option(names = "--latency-ms", description = "websim's delay before every answer (default ${DEFAULT-VALUE}).")
    int latencyMs = 250;

    @Option(names = "--in-flight", description = "Each fetcher's max-in-flight (default ${DEFAULT-VALUE}).")
    int inFlight = 2;

    @Option(names = "--fetchers", description = "Fetcher processes in the middle phase (default ${DEFAULT-VALUE}).")
    int fetchers = 3;

    @Option(names = "--phase-seconds", description = "Length of each phase (default ${DEFAULT-VALUE}).")
    double phaseSeconds = 20;

    @Option(names = "--service-heap", description = "-Xmx of each service JVM (default ${DEFAULT-VALUE}).")
    String serviceHeap = FaultsConfig.DEFAULT_SERVICE_HEAP;

    @Option(names = "--max-minutes", description = "Upper bound of the crawl (default ${DEFAULT-VALUE}).")
    long maxMinutes = 10;

    @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
    Path dataDir = Path.of("data", "bench-scale");

    @Option(names = "--jar", description = "The shaded crawler jar the service JVMs run (default: this one).")
    Path jar;

    @Option(names = "--summary", paramLabel = "FILE", description = BenchReportFiles.SUMMARY_HELP)
    Path summary;

    @Override
    public Integer call() throws Exception {
        ScaleScenario.Settings settings;
        try {
            FaultsConfig cluster = new FaultsConfig(pages, ips, pagesPerHost, politenessMs,
                    partitions, FaultsConfig.DEFAULT_MAX_DEPTH, FaultsConfig.DEFAULT_SESSION_TIMEOUT_MS,
                    FaultsConfig.DEFAULT_STOP_MS, FaultsConfig.DEFAULT_QUIET_MS,
                    FaultsConfig.DEFAULT_FIRST_DISRUPTION, Duration.ofMinutes(maxMinutes), serviceHeap,
                    dataDir.toAbsolutePath(), jar != null ? jar : LabJar.locate(spec));
            settings = new ScaleScenario.Settings(cluster, latencyMs, inFlight, fetchers, phaseSeconds, 0.1);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        ScaleResult result = ScaleScenario.run(settings, System.out);
        System.out.print(result.toText());
        System.out.println("machine: " + result.machine());
        if (summary != null) {
            ScaleReports.write(result, summary, BenchReportFiles.plotDir(summary), BenchReportFiles.html(summary),
                    BenchReportFiles.commandLine(spec));
            System.out.println("Summary " + summary + "; report " + BenchReportFiles.html(summary));
        }
        return result.passed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
