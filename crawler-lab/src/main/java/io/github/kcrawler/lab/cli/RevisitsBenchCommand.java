package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.dedup.bench.BenchReport;
import io.github.kcrawler.lab.revisits.RevisitsBench;
import io.github.kcrawler.websim.ChangeModel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code crawler bench revisits} (issue 22): revisits in the running pipeline with the revisit state in SAT/L
 * ({@code satl}) against the per-page store baseline ({@code store}), on paper 003's Zipf and Peaked change models.
 */
@Command(name = "revisits", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls a changing websim (paper 003's Zipf and Peaked change models) with revisits due every",
                "few seconds, once per revisit-state variant (satl: the state in the SAT/L queue and on the work;",
                "store: the per-page store baseline), and reports per revisit the random store reads, store writes,",
                "record bytes, bytes read and written (/proc/self/io), the revisit state's own bytes (its changelog",
                "on the broker and its SAT/L bucket files), scheduler CPU, and revisits/s at the fixed T.",
                "Counts are exact; timings depend on the machine."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench revisits --summary out/revisits.json",
                "  crawler bench revisits --pages 1000000 --seconds 120 --variants satl,store --models zipf",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED,
                ExitCodes.CODES_USAGE})
public final class RevisitsBenchCommand implements Callable<Integer> {
    @Option(names = "--pages", description = "Pages of the websim (default ${DEFAULT-VALUE}).")
    int pages = 1_000_000;

    @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
    int ips = 4096;

    @Option(names = "--pages-per-host", description = "Mean pages per host (default ${DEFAULT-VALUE}).")
    double pagesPerHost = 3;

    @Option(names = "--politeness-ms", description = "T, fixed for every run (default ${DEFAULT-VALUE}).")
    long politenessMs = 100;

    @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--max-depth", description = "Crawl depth from the seeds: the first fetches end there, and "
            + "what was fetched is revisited (default ${DEFAULT-VALUE}).")
    int maxDepth = 4;

    @Option(names = "--variants", split = ",", description = "satl, store, satl-time-order (satl with paper 003's flush "
            + "order; satl and store use ours, farthest-first), satl-strict (satl with paper 003's strict timing: "
            + "revisit-early-fraction 0) (default satl,store).")
    List<String> variants = List.of("satl", "store");

    @Option(names = "--models", split = ",", description = "Change models: zipf, peaked (default both).")
    List<String> models = List.of("zipf", "peaked");

    @Option(names = "--change-unit-ms", description = "websim's change time unit (default ${DEFAULT-VALUE}).")
    long changeUnitMs = 1_000;

    @Option(names = "--change-max-interval", description = "Longest change interval in units (default "
            + "${DEFAULT-VALUE}).")
    int changeMaxInterval = 120;

    @Option(names = "--revisit-unit-ms", description = "The scheduler's revisit unit, also the shortest interval "
            + "(default ${DEFAULT-VALUE}).")
    long revisitUnitMs = 1_000;

    @Option(names = "--revisit-initial-ms", description = "First revisit after (default ${DEFAULT-VALUE}).")
    long revisitInitialMs = 5_000;

    @Option(names = "--revisit-max-ms", description = "Longest revisit interval (default ${DEFAULT-VALUE}).")
    long revisitMaxMs = 120_000;

    @Option(names = "--warmup-seconds", description = "Crawl before measuring (default ${DEFAULT-VALUE}).")
    long warmupSeconds = 30;

    @Option(names = "--seconds", description = "Measurement window per run (default ${DEFAULT-VALUE}).")
    long seconds = 60;

    @Option(names = "--block-cache-mb", description = "Block cache per RocksDB store instance, MiB, for every store "
            + "of both variants (default: Kafka Streams' own, 50 MiB). A smaller cache makes a benchmark-sized state "
            + "stand to its cache as a large crawl's does.")
    long blockCacheMb = RevisitsBench.Options.STREAMS_BLOCK_CACHE;

    @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
    Path dataDir = Path.of("data", "bench-revisits");

    @Option(names = "--summary", paramLabel = "FILE", description = BenchReportFiles.SUMMARY_HELP)
    Path summary;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (pages < 1 || seconds < 1 || warmupSeconds < 0 || blockCacheMb < 0) {
            throw new ParameterException(spec.commandLine(), "--pages and --seconds must be >= 1, --warmup-seconds "
                    + "and --block-cache-mb >= 0");
        }
        for (String v : variants) {
            if (!RevisitsBench.VARIANTS.contains(v)) {
                throw new ParameterException(spec.commandLine(), "--variants: one of " + RevisitsBench.VARIANTS
                        + ", was '" + v + "'");
            }
        }
        RevisitsBench.Options o = new RevisitsBench.Options(pages, ips, pagesPerHost, politenessMs, partitions, maxDepth,
                changeUnitMs, changeMaxInterval, revisitUnitMs, revisitInitialMs, revisitMaxMs, warmupSeconds,
                seconds, blockCacheMb << 20, dataDir);
        // variant name → its pooled figures, in the order --variants named them; then the settings and the machine
        Map<String, Object> result = new LinkedHashMap<>();
        for (String v : variants) {
            Map<String, RevisitsBench.Figures> byModel = new LinkedHashMap<>();
            for (String m : models) {
                ChangeModel model;
                try {
                    model = ChangeModel.valueOf(m.trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "--models: zipf or peaked, was '" + m + "'");
                }
                byModel.put(model.name().toLowerCase(Locale.ROOT), RevisitsBench.run(o, v, model, System.err));
            }
            result.put(v, RevisitsBench.Pooled.of(byModel));
        }
        result.put("settings", new RevisitsBench.Settings(pages, ips, politenessMs, partitions, maxDepth,
                changeUnitMs, changeMaxInterval, revisitUnitMs, revisitInitialMs, revisitMaxMs, warmupSeconds,
                seconds, blockCacheMb << 20));
        result.put("machine", BenchReport.machine());
        return UrlSeenBenchCommands.finish(result, summary);
    }
}
