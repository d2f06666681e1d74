package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.faults.FaultScenario;
import io.github.kcrawler.lab.faults.FaultsConfig;
import io.github.kcrawler.lab.faults.FaultsReports;
import io.github.kcrawler.lab.faults.FaultsResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler bench faults}: issue 9 item 3, the kill-and-restart scenario with every service in its own JVM. */
@Command(name = "faults", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls a generated web twice, the broker and every service in its own JVM (two fetchers):",
                "undisturbed, then with SIGKILL + restart of dedup, scheduler, ranker, one fetcher and the broker",
                "in turn mid-crawl and a SIGSTOP of the other fetcher past its session timeout. Reports lostUrls,",
                "duplicateFetchRatio and politenessViolations (websim's counts) and whether every fetched page",
                "kept its revisit state; with --summary also an SVG plot and an HTML report."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench faults --summary faults.json",
                "  crawler bench faults --pages 3000 --ips 16 --politeness-ms 50 --data-dir target/faults",
                "  crawler bench faults --streams-set journal-snapshot-min-ops=50 \\",
                "      --streams-set journal-snapshot-commit-bytes=4096",
                "      (stores snapshot over several commits while the services are killed)",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE,
                "  3  the scenario ran but a goal was not met (lost URLs, > 1 %% duplicates, a violation, ...)"})
public final class FaultsBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--pages", description = "Pages of the generated web (default ${DEFAULT-VALUE}).")
    int pages = FaultsConfig.DEFAULT_PAGES;

    @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
    int ips = FaultsConfig.DEFAULT_IPS;

    @Option(names = "--pages-per-host", description = "Mean pages per host (default ${DEFAULT-VALUE}).")
    double pagesPerHost = FaultsConfig.DEFAULT_PAGES_PER_HOST;

    @Option(names = "--politeness-ms", description = "T (default ${DEFAULT-VALUE}).")
    long politenessMs = FaultsConfig.DEFAULT_POLITENESS_MS;

    @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
    int partitions = FaultsConfig.DEFAULT_PARTITIONS;

    @Option(names = "--session-timeout-ms", description = "Consumer session timeout of every service "
            + "(default ${DEFAULT-VALUE}).")
    long sessionTimeoutMs = FaultsConfig.DEFAULT_SESSION_TIMEOUT_MS;

    @Option(names = "--stop-ms", description = "How long one fetcher stays SIGSTOPped (default ${DEFAULT-VALUE}).")
    long stopMs = FaultsConfig.DEFAULT_STOP_MS;

    @Option(names = "--quiet-ms", description = "Complete after this long without a request to websim "
            + "(default ${DEFAULT-VALUE}).")
    long quietMs = FaultsConfig.DEFAULT_QUIET_MS;

    @Option(names = "--service-heap", description = "-Xmx of each service JVM (default ${DEFAULT-VALUE}).")
    String serviceHeap = FaultsConfig.DEFAULT_SERVICE_HEAP;

    @Option(names = "--max-minutes", description = "Upper bound of each crawl (default ${DEFAULT-VALUE}).")
    long maxMinutes = FaultsConfig.DEFAULT_MAX_RUN_TIME.toMinutes();

    @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
    Path dataDir = FaultsConfig.DEFAULT_DATA_DIR;

    @Option(names = "--jar", description = "The shaded crawler jar the service JVMs run (default: this one).")
    Path jar;

    @Option(names = "--streams-set", paramLabel = "KEY=VALUE", description = "A setting for dedup, the scheduler "
            + "and the ranker (repeatable), e.g. journal-snapshot-min-ops=50.")
    List<String> streamsSettings = new ArrayList<>();

    @Option(names = "--summary", paramLabel = "FILE",
            description = BenchReportFiles.SUMMARY_HELP)
    Path summary;

    @Override
    public Integer call() throws Exception {
        FaultsConfig config;
        try {
            config = new FaultsConfig(pages, ips, pagesPerHost, politenessMs, partitions,
                    FaultsConfig.DEFAULT_MAX_DEPTH, sessionTimeoutMs, stopMs, quietMs,
                    FaultsConfig.DEFAULT_FIRST_DISRUPTION, Duration.ofMinutes(maxMinutes), serviceHeap, dataDir,
                    jar != null ? jar : LabJar.locate(spec), streamsSettings);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        FaultsResult result = FaultScenario.run(config, System.out);
        System.out.print(result.toText());
        System.out.println("machine: " + result.machine());
        if (summary != null) {
            FaultsReports.write(result, summary, BenchReportFiles.plotDir(summary), BenchReportFiles.html(summary),
                    BenchReportFiles.commandLine(spec));
            System.out.println("Summary " + summary + "; report " + BenchReportFiles.html(summary));
        }
        return result.passed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
