package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.soak.SoakConfig;
import io.github.kcrawler.lab.soak.SoakRunner;
import io.github.kcrawler.lab.soak.SoakSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code crawler bench soak}: a long crawl with a bounded heap; is the rate flat and the heap after GC level? */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls a generated web (websim in this JVM) with the crawler in a child JVM with a bounded",
                "heap for a fixed time, samples pages/s (websim's count) and reads the heap after each GC from",
                "the child's GC log; after the warm-up both must be flat within the tolerance.",
                "Writes a JSON summary, SVG plots and one HTML report (default under --data-dir)."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench soak --minutes 15 --summary target/soak.json",
                "  crawler bench soak --minutes 3 --heap 768m --pages 200000",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE,
                SoakBenchCommand.CODES_NOT_FLAT})
public final class SoakBenchCommand implements Callable<Integer> {
    static final String CODES_NOT_FLAT = "  3  the soak ran but pages/s or the heap after GC was not flat after the "
            + "warm-up (the reasons are printed), or the crawl did not stop cleanly";

    @Spec
    CommandSpec spec;

    @Option(names = "--minutes", description = "How long the crawl runs (default ${DEFAULT-VALUE}).")
    double minutes = SoakConfig.DEFAULT_MINUTES;

    @Option(names = "--heap", description = "The crawl JVM's -Xmx (default ${DEFAULT-VALUE}).")
    String heap = SoakConfig.DEFAULT_HEAP;

    @Option(names = "--pages", description = "Pages of the generated web (default ${DEFAULT-VALUE}).")
    int pages = SoakConfig.DEFAULT_PAGES;

    @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
    int ips = SoakConfig.DEFAULT_IPS;

    @Option(names = "--pages-per-host", description = "Mean pages per host (default ${DEFAULT-VALUE}).")
    double pagesPerHost = SoakConfig.DEFAULT_PAGES_PER_HOST;

    @Option(names = "--seeds", description = "Seed pages, spread over the web (default ${DEFAULT-VALUE}).")
    int seeds = SoakConfig.DEFAULT_SEEDS;

    @Option(names = "--politeness-ms", description = "T (default ${DEFAULT-VALUE}).")
    long politenessMs = SoakConfig.DEFAULT_POLITENESS_MS;

    @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
    int partitions = SoakConfig.DEFAULT_PARTITIONS;

    @Option(names = "--max-depth", description = "Link depth limit (default ${DEFAULT-VALUE}).")
    int maxDepth = SoakConfig.DEFAULT_MAX_DEPTH;

    @Option(names = "--interval-seconds", description = "Sampling interval (default ${DEFAULT-VALUE}).")
    int intervalSeconds = SoakConfig.DEFAULT_INTERVAL_SECONDS;

    @Option(names = "--live-set-seconds", paramLabel = "SECONDS", description = "Take a class histogram of the "
            + "crawl JVM's live heap (jcmd GC.class_histogram, a full GC first) this often; the heap after that GC is "
            + "the live set, judged beside the heap after every GC, and the histograms show what it grew by. "
            + "0 = never. Default: " + SoakConfig.DEFAULT_LIVE_SET_SECONDS + ", or an eighth of a shorter run.")
    Integer liveSetSeconds;

    @Option(names = "--window-seconds", description = "Rate window of the verdict (default ${DEFAULT-VALUE}).")
    int windowSeconds = SoakConfig.DEFAULT_WINDOW_SECONDS;

    @Option(names = "--warmup", paramLabel = "FRACTION",
            description = "Leading share of the run not judged, at most 0.25 (default ${DEFAULT-VALUE}).")
    double warmupFraction = SoakConfig.DEFAULT_WARMUP_FRACTION;

    @Option(names = "--tolerance", description = "Allowed relative deviation (default ${DEFAULT-VALUE}).")
    double tolerance = SoakConfig.DEFAULT_TOLERANCE;

    @Option(names = "--stop-seconds", description = "Wait this long after SIGTERM before killing the crawl "
            + "(default ${DEFAULT-VALUE}).")
    int stopSeconds = SoakConfig.DEFAULT_STOP_SECONDS;

    @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
    Path dataDir = SoakConfig.DEFAULT_DATA_DIR;

    @Option(names = "--jar", description = "The crawler jar the child runs (default: the one running this).")
    Path jar;

    @Option(names = "--jvm-option", paramLabel = "OPT", description = "Further option for the crawl JVM "
            + "(repeatable), e.g. --jvm-option=-XX:+UseParallelGC.")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any service setting, passed to the crawl.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--summary", paramLabel = "FILE", description = BenchReportFiles.SUMMARY_HELP
            + " Default: DATA-DIR/soak.json.")
    Path summary;

    @Override
    public Integer call() throws Exception {
        SoakConfig config;
        try {
            int liveSet = liveSetSeconds != null ? liveSetSeconds : SoakConfig.defaultLiveSetSeconds(minutes);
            config = new SoakConfig(pages, ips, pagesPerHost, seeds, politenessMs, partitions, maxDepth, minutes, heap,
                    intervalSeconds, liveSet, windowSeconds, warmupFraction, tolerance, stopSeconds, dataDir,
                    jar != null ? jar : LabJar.locate(spec), jvmOptions, settings);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        String command = BenchReportFiles.commandLine(spec);
        SoakSummary result = SoakRunner.run(config, outputs(), command.strip(),
                System.out);
        System.out.println(result.toText());
        return result.verdict().flat() && result.cleanStop() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /** The bench rule ({@link BenchReportFiles}): NAME.json, NAME-plots/, NAME.html side by side. */
    private SoakRunner.Outputs outputs() {
        Path json = summary != null ? summary : dataDir.resolve("soak.json");
        return new SoakRunner.Outputs(json, BenchReportFiles.plotDir(json), BenchReportFiles.html(json));
    }
}
