package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.demo.DemoOptions;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.demo.DemoSummary;
import io.github.kcrawler.lab.measure.FetchOrder;
import io.github.kcrawler.lab.measure.LinkLatency;
import io.github.kcrawler.lab.measure.OrderBenchResult;
import io.github.kcrawler.lab.measure.OrderQuality;
import io.github.kcrawler.lab.ranker.simulate.CrawlSimulator;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.lab.ranker.simulate.SyntheticUrls;
import io.github.kcrawler.lab.report.OrderPlots;

import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering;
import io.github.kcrawler.lab.ranker.pagerank.FrontierOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NodeLabels;
import io.github.kcrawler.lab.ranker.pagerank.PoliteOrdering;
import io.github.kcrawler.lab.ranker.pagerank.Strategies;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code crawler bench order}: how much PageRank the running pipeline collects first, against the simulator's order
 * for the same strategy, seeds and host layout (issue 21, item 2).
 */
@Command(name = "order", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls a real graph served by websim through the whole pipeline, takes the order pages were",
                "first fetched from websim's access log and reports criterion B (PageRank collected at each 10 %% of",
                "the crawl, paper 002) beside the simulator's for the same strategy, seeds and host layout."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler bench order --graph ../shared/data/cnr-2000 \\",
                "      --seed-pages ../shared/data/cnr-2000.seeds-scc100.txt --summary out/order.json",
                "", "Summary fields: pipelineCriterionB, simulatorCriterionB (10 values each, at 10 %% … 100 %%; a",
                "point past the pages the crawl reached is null; the simulator's under websim's robots.txt, the",
                "pipeline's pages in flight and politeness per IP), maxGap, simulatorPoliteness,",
                "simulatorWithoutPolitenessCriterionB and maxGapWithoutPoliteness (the simulator without the",
                "politeness model), sequentialSimulatorCriterionB (one page at a time, every page),",
                "sequentialMaxGap, simulatorFeedbackDelay, strategy, population, fetched, and linkLatencyP1Ms,",
                "linkLatencyP10Ms, linkLatencyP50Ms (from the first fetch of a page linking to a page to its fetch).",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class OrderBenchCommand implements Callable<Integer> {
    /** Pipeline rankings by the simulator's strategy name (BLC is the simulator's only: issue 24). */
    private static final Map<String, String> RANKINGS = Map.of("IPR-DL1", "ipr-dl1", "IPR-VR", "ipr-vr",
            "IPR-AR", "ipr-ar");

    @Option(names = "--graph", required = true, paramLabel = "BASENAME", description = "BVGraph to crawl.")
    Path graph;

    @Option(names = "--seed-pages", paramLabel = "FILE|IDS", description = "Seed page ids: a file of ids separated by "
            + "commas or white space (lines starting with # ignored), or a comma-separated list (default: the page "
            + "with the largest out-degree).")
    String seedPages;

    @Option(names = "--scc-seeds", paramLabel = "N", description = "Seed the smallest page id of each of the N largest "
            + "strongly connected components, as the simulator's --scc-seeds (issue 21's many-seed start for any "
            + "graph); not with --seed-pages.")
    Integer sccSeeds;

    @Option(names = "--strategy", description = "The pipeline's ranking, named as in the simulator: IPR-DL1, IPR-VR, "
            + "IPR-AR (default ${DEFAULT-VALUE}).")
    String strategy = "IPR-DL1";

    @Option(names = "--politeness-ms", description = "T (default ${DEFAULT-VALUE}).")
    long politenessMs = 20;

    @Option(names = "--ips", description = "Simulated IPs (default ${DEFAULT-VALUE}).")
    int ips = 4096;

    @Option(names = "--pages-per-host", description = "Mean pages per host of websim's layout, the simulator's too "
            + "(default ${DEFAULT-VALUE}).")
    double pagesPerHost = DemoOptions.DEFAULT_PAGES_PER_HOST;

    @Option(names = "--max-pages", description = "Page budget; 0 = every reachable page (default ${DEFAULT-VALUE}).")
    long maxPages = 0;

    @Option(names = "--partitions", description = "Partitions (default ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--max-seconds", description = "Give up after this long (default ${DEFAULT-VALUE}).")
    long maxSeconds = 3600;

    @Option(names = "--data-dir", description = "Working directory, wiped (default ${DEFAULT-VALUE}).")
    Path dataDir = Path.of("data", "bench-order");

    @Option(names = "--simulator-feedback-delay", paramLabel = "PAGES", description = "Pages the simulator hands out "
            + "before a page's links reach the strategy, the pipeline's pages in flight (default: partitions × "
            + "wheel-lookahead, the most URLs the pipeline holds chosen ahead of their fetch results).")
    Integer simulatorFeedbackDelay;

    @Option(names = "--simulator-politeness", paramLabel = "K", description = "The simulator's politeness model: after "
            + "a page of one of websim's IPs, that IP waits until K other pages were handed out (the pipeline's wheel "
            + "gives an IP one request per T; default: the pipeline's pages/s × T, rounded; 0 = none).")
    Integer simulatorPoliteness;

    @Option(names = "--summary", paramLabel = "FILE", description = "Write the summary as JSON.")
    Path summary;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any service setting.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String ranking = RANKINGS.get(strategy);
        if (ranking == null) {
            throw new ParameterException(spec.commandLine(), "--strategy must be one of " + RANKINGS.keySet()
                    + " (the strategies the pipeline runs), was " + strategy);
        }
        if (sccSeeds != null && (sccSeeds < 1 || seedPages != null)) {
            throw new ParameterException(spec.commandLine(), "--scc-seeds must be >= 1 and not given with "
                    + "--seed-pages, was " + sccSeeds);
        }
        LinkGraph g = LinkGraph.load(graph);
        int[] seeds = sccSeeds != null ? g.largestComponentSeeds(sccSeeds)
                : seedPages == null ? new int[] {g.maxOutdegreeNode()} : parseSeeds(seedPages, g.numNodes());
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.putIfAbsent("ranking", ranking);
        DemoOptions o;
        try {
            o = new DemoOptions(graph, 1, maxPages, politenessMs, ips, 0, DemoOptions.DEFAULT_MAX_DEPTH, partitions,
                    dataDir, maxSeconds, false, all, pagesPerHost)
                    .withSeedPageIds(Arrays.stream(seeds).boxed().toList());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        int delay;
        try {
            delay = simulatorFeedbackDelay != null ? simulatorFeedbackDelay : pipelineInFlight(all);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ParameterException(spec.commandLine(), "wheel-lookahead: " + e.getMessage(), e);
        }
        if (delay < 0) {
            throw new ParameterException(spec.commandLine(), "--simulator-feedback-delay must be >= 0, was " + delay);
        }
        if (simulatorPoliteness != null && simulatorPoliteness < 0) {
            throw new ParameterException(spec.commandLine(), "--simulator-politeness must be >= 0, was "
                    + simulatorPoliteness);
        }
        DemoSummary crawl = DemoRunner.run(o, System.out);
        FetchOrder.Timed timed = FetchOrder.readTimed(dataDir.resolve("websim-access.tsv"));
        int[] fetched = timed.order();
        LinkLatency.Summary latency = LinkLatency.of(g.offsets(), g.targets(), fetched, timed.atMs());

        // websim's layout of the crawled web, as DemoRunner's websim built it: the simulator's hosts and robots.txt
        SiteLayout layout = SiteLayout.build(g.numNodes(), WebSimConfig.builder().meanPagesPerHost(pagesPerHost)
                .build(), seeds);
        var labels = SyntheticUrls.of(layout);
        int population = g.reachableFrom(seeds).cardinality();
        int recomputeEvery = Math.max(1, (population + 99) / 100);
        int[] sequential = CrawlSimulator.crawl(simulated(labels, recomputeEvery), g, seeds);
        LinkGraph websimWeb = g.withoutLinksInto(layout.disallowedPages());
        int k = simulatorPoliteness != null ? simulatorPoliteness
                : (int) Math.round(crawl.pagesPerSecond() * politenessMs / 1000.0);
        int[] impolite = CrawlSimulator.crawl(simulated(labels, recomputeEvery), websimWeb, seeds, delay);
        int[] simulated = k == 0 ? impolite : CrawlSimulator.crawl(new PoliteOrdering(
                (FrontierOrdering) simulated(labels, recomputeEvery), k, strategy, ipOfPage(layout)), websimWeb,
                seeds, delay);
        OrderQuality.Comparison c = OrderQuality.compare(g, seeds, simulated, k == 0 ? null : impolite, sequential,
                fetched, PageRank.DEFAULT_DAMPING);

        OrderBenchResult out = new OrderBenchResult("order", graph.toString(), strategy, seeds.length, politenessMs,
                partitions, c.population(), c.fetchedInPopulation(), c.fetchedOutside(),
                OrderBenchResult.CHECKPOINTS_PERCENT.clone(), OrderBenchResult.nullable(c.pipeline()),
                OrderBenchResult.nullable(c.simulator()), c.maxGap(), delay, c.simulatorCrawled(), k,
                k == 0 ? null : OrderBenchResult.nullable(c.simulatorWithoutPoliteness()),
                k == 0 ? null : c.maxGapWithoutPoliteness(), c.sequential(),
                c.sequentialMaxGap(), latency.pages(), OrderBenchResult.nullable(latency.p1Ms()),
                OrderBenchResult.nullable(latency.p10Ms()), OrderBenchResult.nullable(latency.p50Ms()),
                crawl.pagesPerSecond(), crawl.politenessViolations(), crawl.duplicateFetches(), crawl.elapsedSeconds());
        System.out.printf("criterion B at 10 %% … 100 %% (%s, %d seeds, %,d pages reachable, %,d fetched):%n",
                strategy, seeds.length, c.population(), c.fetchedInPopulation());
        System.out.println("  pipeline  " + row(c.pipeline()));
        System.out.println("  simulator " + row(c.simulator()) + "   (websim's robots.txt, " + delay
                + " pages in flight, an IP waits " + k + " hand-outs)");
        if (k > 0) {
            System.out.println("  impolite  " + row(c.simulatorWithoutPoliteness()) + "   (the same without "
                    + "politeness; largest gap " + String.format(java.util.Locale.ROOT, "%.3f",
                    c.maxGapWithoutPoliteness()) + ")");
        }
        System.out.println("  sequential" + row(c.sequential()) + "   (one page at a time, every page)");
        System.out.printf("  largest gap %.3f (to the sequential simulator %.3f); %,.0f pages/s, %d politeness "
                        + "violations%n", c.maxGap(), c.sequentialMaxGap(), crawl.pagesPerSecond(),
                crawl.politenessViolations());
        System.out.printf("  a link through the pipeline (first fetch of a page linking to v → v's fetch): p1 %.0f, "
                + "p10 %.0f, median %.0f ms over %,d pages%n", latency.p1Ms(), latency.p10Ms(), latency.p50Ms(),
                latency.pages());
        if (summary != null) {
            JsonSerde.writeIndented(summary, out);
            BenchReportFiles.write(summary, OrderBenchResult.class, OrderPlots.TITLE, List.of(
                    "The simulator crawls websim's web (never the pages its robots.txt disallows) in its "
                            + "strategy's exact order with the pipeline's pages in flight (a page's links reach the "
                            + "strategy that many hand-outs later) and politeness (after a page of one of websim's "
                            + "IPs, that IP waits the pipeline's pages per T of hand-outs: its best page waits, the "
                            + "next best of another IP goes first); the sequential simulator one page at a time over "
                            + "every page. The pipeline orders through Kafka: scores coalesced per flush, the priority "
                            + "pool's score buckets, the politeness wheel. Points past the pages a crawl reached are "
                            + "left out."),
                    BenchReportFiles.commandLine(spec), OrderPlots::plot, List.of());
            System.out.println("Summary written to " + summary);
        }
        return 0;
    }

    /** websim's IP of every page: the unit the pipeline's wheel is polite to. */
    private static int[] ipOfPage(SiteLayout layout) {
        int[] ip = new int[layout.numPages()];
        for (int v = 0; v < ip.length; v++) {
            ip[v] = layout.ipIndexOfPage(v);
        }
        return ip;
    }

    private CrawlOrdering simulated(NodeLabels labels, int recomputeEvery) {
        return Strategies.create(strategy, labels, IprParams.defaults(IprParams.CutOff.DL1), recomputeEvery,
                PageRank.DEFAULT_DAMPING);
    }

    /**
     * The most URLs the pipeline holds chosen ahead of their fetch results: {@code wheel-lookahead} per partition
     * (waiting in the wheel or in flight, SchedulerConfig); 0 when the lookahead is off (the wheel alone bounds it,
     * far above any window the simulator models well: pass {@code --simulator-feedback-delay}).
     */
    private int pipelineInFlight(Map<String, String> settings) {
        String raw = settings.get(SchedulerConfig.Wheel.LOOKAHEAD.key());
        int lookahead = raw != null ? SchedulerConfig.Wheel.LOOKAHEAD.parse(raw)
                : SchedulerConfig.Wheel.LOOKAHEAD.defaultValue();
        return Math.multiplyExact(lookahead, partitions);
    }

    static int[] parseSeeds(String spec, int numNodes) throws IOException {
        List<String> tokens = new ArrayList<>();
        Path file = Path.of(spec);
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                if (!line.strip().startsWith("#")) {
                    for (String t : line.split("[,\\s]+")) {
                        if (!t.isEmpty()) {
                            tokens.add(t);
                        }
                    }
                }
            }
        } else {
            tokens.addAll(Arrays.asList(spec.split(",")));
        }
        int[] seeds = new int[tokens.size()];
        for (int i = 0; i < seeds.length; i++) {
            try {
                seeds[i] = Integer.parseInt(tokens.get(i).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seed pages must be page ids, was '" + tokens.get(i) + "'");
            }
            if (seeds[i] < 0 || seeds[i] >= numNodes) {
                throw new IllegalArgumentException("seed page " + seeds[i] + " is outside [0, " + numNodes + ")");
            }
        }
        if (seeds.length == 0) {
            throw new IllegalArgumentException("no seed pages in " + spec);
        }
        return seeds;
    }

    private static String row(double[] values) {
        StringBuilder s = new StringBuilder();
        for (double v : values) {
            s.append(Double.isNaN(v) ? "   -  " : String.format(" %.3f", v));
        }
        return s.toString();
    }
}
