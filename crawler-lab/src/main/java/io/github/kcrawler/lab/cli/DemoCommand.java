package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.demo.DemoOptions;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.demo.DemoSummary;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler demo}: crawl the simulated web on loopback with everything in this process. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts an embedded Kafka broker, the four services and a simulated web on loopback, crawls it,",
                "shows live progress and a status page, and prints a summary whose counts come from the simulated",
                "web's access log."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler demo                                   20,000 generated pages on 1,024 IPs, status page on a free port",
                "  crawler demo --status-port 9500                 status page at http://127.0.0.1:9500/",
                "  crawler demo --graph ../shared/data/cnr-2000 --max-pages 50000 --summary demo.json",
                "  crawler demo --politeness-ms 20 --ips 1024 --no-progress > demo.log",
                "  java -Xmx512m -jar crawler-lab-*-all.jar demo --hostile --summary hostile.json",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE, ExitCodes.CODES_CHECK,
                ExitCodes.CODES_DEAD_LETTERS})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--graph", paramLabel = "BASENAME",
            description = "Serve this BVGraph (e.g. ../shared/data/cnr-2000) instead of a generated graph.")
    Path graph;

    @Option(names = "--pages", paramLabel = "N", description = "Pages of the generated graph (default "
            + DemoOptions.DEFAULT_GENERATED_PAGES + "; " + DemoOptions.DEFAULT_HOSTILE_PAGES + " with --hostile).")
    Integer pages;

    @Option(names = "--hostile", description = {"Also serve every hostile mode of the simulated web (100 MB body, gzip "
            + "bomb, redirect loops and chains, one byte a second, resets, cut responses, spider traps, 100k links, "
            + "bad charsets, broken robots.txt, 429/503), each on its own host linked from the seed page.",
            "Fetch timeouts are shortened (connect 3 s, first byte and read 5 s, total 10 s) and the per-host page "
                    + "budget is set to the largest ordinary host, so the demo finishes in a minute or two; the "
                    + "summary adds outcomes by reason code and the heap's high-water mark."})
    boolean hostile;

    @Option(names = "--max-pages", paramLabel = "N", description = "Page budget; 0 = whole reachable web (default).")
    long maxPages;

    @Option(names = "--politeness-ms", paramLabel = "T",
            description = "Minimum time between two requests to one IP (default ${DEFAULT-VALUE}).")
    long politenessMs = DemoOptions.DEFAULT_POLITENESS_MS;

    @Option(names = "--pages-per-host", description = "Mean pages per host of the generated web (default "
            + DemoOptions.DEFAULT_DEMO_PAGES_PER_HOST + "; " + DemoOptions.DEFAULT_HOSTILE_PAGES_PER_HOST
            + " with --hostile).")
    Double pagesPerHost;

    @Option(names = "--ips", description = "Simulated server IPs (default " + DemoOptions.DEFAULT_IPS + "; "
            + DemoOptions.DEFAULT_HOSTILE_IPS + " with --hostile).")
    Integer ips;

    @Option(names = "--latency-ms", description = "Simulated server latency (default ${DEFAULT-VALUE}).")
    int latencyMs = 0;

    @Option(names = "--max-depth", description = "Link depth limit (default ${DEFAULT-VALUE}).")
    int maxDepth = DemoOptions.DEFAULT_MAX_DEPTH;

    @Option(names = "--partitions", description = "Partitions of every topic (default ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--data-dir", description = "Working directory, wiped at start (default ${DEFAULT-VALUE}).")
    Path dataDir = DemoOptions.DEFAULT_DATA_DIR;

    @Option(names = "--max-seconds", description = "Give up after this long (default ${DEFAULT-VALUE}).")
    long maxSeconds = DemoOptions.DEFAULT_MAX_SECONDS;

    @Option(names = "--summary", paramLabel = "FILE", description = "Write the summary as JSON.")
    Path summary;

    @Option(names = "--no-progress", description = "No live progress line.")
    boolean noProgress;

    @Option(names = "--status-port", paramLabel = "P",
            description = "Status page on http://127.0.0.1:P/ (0 = a free port, the default; -1 = no status page).")
    int statusPort = 0;

    @Option(names = "--seeds", paramLabel = "N", description = "Start from N seed pages spread evenly over the "
            + "web's page ids, and so over its hosts (deterministic; default " + DemoOptions.DEFAULT_DEMO_SEEDS
            + " for the generated web, 1 with --hostile or --graph).")
    Integer seeds;

    @Option(names = "--store-metrics", description = {"Count state-store operations per page (storeOpsPerPage in "
            + "the summary): RocksDB statistics on every store, which cost RocksDB 5-10 %% by its wiki."})
    boolean storeMetrics;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any service setting, e.g. --set threads=2.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (statusPort < DemoOptions.NO_STATUS_PAGE || statusPort > 65_535) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--status-port must be in 0..65535 (or -1 for none), was " + statusPort);
        }
        int generated = pages != null ? pages
                : hostile ? DemoOptions.DEFAULT_HOSTILE_PAGES : DemoOptions.DEFAULT_GENERATED_PAGES;
        int serverIps = ips != null ? ips : hostile ? DemoOptions.DEFAULT_HOSTILE_IPS : DemoOptions.DEFAULT_IPS;
        DemoOptions options = new DemoOptions(graph, generated, maxPages, politenessMs, serverIps, latencyMs, maxDepth,
                partitions, dataDir, maxSeconds, !noProgress, settings, pagesPerHost != null ? pagesPerHost
                : hostile ? DemoOptions.DEFAULT_HOSTILE_PAGES_PER_HOST : DemoOptions.DEFAULT_DEMO_PAGES_PER_HOST,
                statusPort, hostile).withSeeds(seeds != null ? seeds
                : graph == null && !hostile ? Math.min(DemoOptions.DEFAULT_DEMO_SEEDS, generated) : 1)
                .withStoreMetrics(storeMetrics);
        DemoSummary result = DemoRunner.run(options, noProgress ? null : System.out);
        System.out.println(result.toText());
        if (summary != null) {
            result.write(summary);
            System.out.println("Summary written to " + summary);
        }
        boolean passed = result.politenessViolations() == 0 && result.missingPages() == 0;
        long deadLetters = result.deadLetters() == null ? 0 : result.deadLetters().count();
        int code = ExitCodes.forCrawl(false, !passed, deadLetters);
        if (code == ExitCodes.OK) {
            System.out.println("Next: crawl real sites with ./crawler crawl --seeds URL (see --help); WARC files are in "
                    + dataDir.resolve("warc") + ".");
        }
        if (!passed) {
            System.out.println("Check failed: websim counted politeness violations or missing pages (see above); exit"
                    + " code " + code + ".");
        }
        if (deadLetters > 0) {
            System.out.printf("%,d record(s) could not be processed and were dead-lettered (see above); exit code %d.%n",
                    deadLetters, code);
        }
        return code;
    }
}
