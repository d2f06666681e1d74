package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.dedup.bench.BenchReport;
import io.github.kcrawler.lab.dedup.bench.ImpCbfBench;
import io.github.kcrawler.lab.dedup.bench.ImpCbfResult;
import io.github.kcrawler.lab.report.ImpCbfPlots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code crawler bench imp-cbf} (issue 7): seed 001's measurement — IMP-CB filter vs fingerprint-DB-only dedup time
 * at 0.5M, 1M, 1.5M, 2M and 10M items, duplicate ratios 7.8% and 30%, on RocksDB.
 */
@Command(name = "imp-cbf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Content dedup time: IMP-CB filter (counting Bloom filter + fingerprint DB) against the",
                "fingerprint DB alone, at 0.5M-10M items and 7.8%% / 30%% duplicates (paper 001, Fig. 3)."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench imp-cbf --summary out/imp-cbf.json",
                "  crawler bench imp-cbf --max-items 2000000 --ratios 0.078 --summary out/i.json",
                "", BenchReportFiles.FOOTER, "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED,
                ExitCodes.CODES_USAGE})
public final class ImpCbfBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--max-items", description = "Largest stream run, of 500000, 1000000, 1500000, 2000000, 10000000 "
            + "(default ${DEFAULT-VALUE}).")
    int maxItems = ImpCbfBench.Options.LARGE_SIZE;

    @Option(names = "--ratios", split = ",", paramLabel = "R",
            description = "Duplicate ratios (default 0.078,0.3).")
    List<Double> ratios = new ArrayList<>(ImpCbfBench.Options.DEFAULT_RATIOS);

    @Option(names = "--repeats", description = "Timed runs per variant, best reported (default ${DEFAULT-VALUE}).")
    int repeats = ImpCbfBench.Options.DEFAULT_REPEATS;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the RocksDB directories are created and deleted (default ${DEFAULT-VALUE}); "
                    + "use a disk, not tmpfs.")
    Path workDir = ImpCbfBench.Options.DEFAULT_WORK_DIR;

    @Option(names = "--summary", paramLabel = "FILE", description = BenchReportFiles.SUMMARY_HELP)
    Path summary;

    @Override
    public Integer call() throws IOException {
        ImpCbfBench.Options o;
        try {
            o = new ImpCbfBench.Options(ImpCbfBench.Options.sizesUpTo(maxItems), ratios, repeats, workDir,
                    ImpCbfBench.Options.DEFAULT_SEED);
        } catch (IllegalArgumentException e) { // a bad option value: a usage error naming it, not a stack trace
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ImpCbfResult result = ImpCbfBench.run(o, System.err, partial -> {
            if (summary != null) { // a long run that is stopped keeps what it finished
                try {
                    BenchReport.writeJson(partial, summary);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        return UrlSeenBenchCommands.finish(result, ImpCbfResult.class, summary, spec, ImpCbfPlots.TITLE, List.of(
                "The paper plots MD5-fingerprint-DB-only against IMP-CB dedup time at 0.5M, 1M, 1.5M and 2M pages, "
                        + "k = 8, m/n = 20; its text gives no values, only that the filter's advantage grows with "
                        + "the data because it avoids DB reads for new items."),
                ImpCbfPlots::plot);
    }
}
