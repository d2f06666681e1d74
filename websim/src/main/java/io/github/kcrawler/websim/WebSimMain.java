package io.github.kcrawler.websim;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Command line for running the simulated web on its own ({@code java -jar websim-*-all.jar}): prints the seed URLs
 * and the hosts file, serves until Ctrl-C (or {@code --duration-s}) and prints the access statistics as JSON on
 * exit. Option defaults come from {@link WebSimConfig#defaults()}.
 */
@Command(name = "websim", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serve a simulated web (real or generated graph) on loopback addresses 127.1.x.y.",
        footerHeading = "%nExamples:%n",
        footer = {"  crawler websim --graph ../shared/data/cnr-2000",
                "  crawler websim --generate 2000 --hostile    plus every hostile mode, each on its own host",
                "  crawler websim --hostile=gzip-bomb,slow     just these two",
                "  crawler websim --help        every setting of the simulated web with its default",
                "", "Exit codes:", "  0  success", "  1  failure (port or file could not be opened)",
                "  2  usage error (unknown option or bad value)"})
public final class WebSimMain implements Callable<Integer> {

    private static final WebSimConfig DEFAULTS = WebSimConfig.defaults();

    @CommandLine.ArgGroup(exclusive = true)
    private GraphChoice graphChoice;

    static final class GraphChoice {
        @Option(names = "--graph", paramLabel = "BASENAME", description = "BVGraph basename to serve (e.g. "
                + "../shared/data/cnr-2000).")
        Path graph;

        @Option(names = "--generate", paramLabel = "N", description = "Generate a graph of N pages (default: "
                + "20000).")
        Integer generate;
    }

    @Option(names = "--seed", description = "Seed of every deterministic choice (default: ${DEFAULT-VALUE}).")
    private long seed = DEFAULTS.seed();

    @Option(names = "--seed-pages", split = ",", paramLabel = "ID",
            description = "Page ids to start from (default: page 0 of a generated graph, the largest out-degree "
                    + "page of a real one).")
    private List<Integer> seedPages = DEFAULTS.seedPages();

    @Option(names = "--pages-per-host", description = "Approximate mean pages per host (default: ${DEFAULT-VALUE}).")
    private double pagesPerHost = DEFAULTS.meanPagesPerHost();

    @Option(names = "--ips", description = "Number of simulated IP addresses (default: ${DEFAULT-VALUE}).")
    private int ips = DEFAULTS.ips();

    @Option(names = "--port", description = "Port on every address, 0 = any free port (default: ${DEFAULT-VALUE}).")
    private int port = DEFAULTS.port();

    @Option(names = "--latency-ms", description = "Delay of every response (default: ${DEFAULT-VALUE}).")
    private int latencyMs = DEFAULTS.latencyMs();

    @Option(names = "--politeness-ms", description = "T for counting politeness violations, 0 = off "
            + "(default: ${DEFAULT-VALUE}).")
    private long politenessMs = DEFAULTS.politenessMs();

    @Option(names = "--tolerance-ms", description = "Slack subtracted from T (default: ${DEFAULT-VALUE}).")
    private long toleranceMs = DEFAULTS.politenessToleranceMs();

    @Option(names = "--robots-disallow-fraction", description = "Fraction of hosts with a Disallow rule "
            + "(default: ${DEFAULT-VALUE}).")
    private double disallowFraction = DEFAULTS.robotsDisallowFraction();

    @Option(names = "--crawl-delay-fraction", description = "Fraction of hosts with a Crawl-delay "
            + "(default: ${DEFAULT-VALUE}).")
    private double crawlDelayFraction = DEFAULTS.crawlDelayFraction();

    @Option(names = "--crawl-delay-s", description = "The Crawl-delay those hosts announce, seconds "
            + "(default: ${DEFAULT-VALUE}).")
    private double crawlDelaySeconds = DEFAULTS.crawlDelaySeconds();

    @Option(names = "--hosts-file", paramLabel = "PATH", description = "Write the hosts file here (default: a "
            + "temporary file, deleted on exit).")
    private Path hostsFile;

    @Option(names = "--access-log", paramLabel = "PATH", description = "Write a TSV access log here.")
    private Path accessLog;

    @Option(names = "--io-threads", description = "Netty event-loop threads, 0 = automatic (default: "
            + "${DEFAULT-VALUE}).")
    private int ioThreads = DEFAULTS.ioThreads();

    @Option(names = "--change-model", description = "How pages change: ${COMPLETION-CANDIDATES} (default: "
            + "${DEFAULT-VALUE}).")
    private ChangeModel changeModel = DEFAULTS.changeModel();

    @Option(names = "--change-unit-ms", description = "Time unit of change intervals, ms, >= 1000 (default: "
            + "${DEFAULT-VALUE}).")
    private long changeUnitMs = DEFAULTS.changeUnitMs();

    @Option(names = "--change-max-interval", description = "T: change intervals are 1..T units (default: "
            + "${DEFAULT-VALUE}).")
    private int changeMaxInterval = DEFAULTS.changeMaxInterval();

    @Option(names = "--hostile", arity = "0..1", fallbackValue = "all", paramLabel = "MODES",
            description = "Serve hostile hosts (each on its own address 127.2.0.x, linked from the seed pages): "
                    + "'all' (the value when none is given) or a comma list of: big-body, gzip-bomb, redirect-loop, "
                    + "redirect-chain, slow, reset, half-head, half-body, calendar, session-ids, many-links, "
                    + "bad-utf8, wrong-charset, robots-html, robots-5xx, robots-4xx, robots-huge, robots-redirect, "
                    + "robots-timeout, throttle-429-retry-after, throttle-429, throttle-503-retry-after, "
                    + "throttle-503 (default: none).")
    private String hostile;

    @Option(names = "--duration-s", description = "Stop after this many seconds instead of waiting for Ctrl-C.")
    private Long durationSeconds;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "websim-logback.xml");
        }
        System.exit(new CommandLine(new WebSimMain()).execute(args));
    }

    /** The configuration the options describe (validated). */
    WebSimConfig config() {
        WebSimConfig.Builder b = WebSimConfig.builder()
                .seed(seed).seedPages(seedPages).meanPagesPerHost(pagesPerHost).ips(ips).port(port)
                .latencyMs(latencyMs).politenessMs(politenessMs).politenessToleranceMs(toleranceMs)
                .robotsDisallowFraction(disallowFraction).crawlDelayFraction(crawlDelayFraction)
                .crawlDelaySeconds(crawlDelaySeconds).hostsFile(hostsFile).accessLog(accessLog).ioThreads(ioThreads)
                .changeModel(changeModel).changeUnitMs(changeUnitMs).changeMaxInterval(changeMaxInterval)
                .hostile(hostile == null ? java.util.Set.of() : HostileMode.parseList(hostile));
        if (graphChoice != null && graphChoice.graph != null) {
            b.graph(graphChoice.graph);
        } else if (graphChoice != null && graphChoice.generate != null) {
            b.generate(graphChoice.generate);
        }
        return b.build();
    }

    @Override
    public Integer call() throws Exception {
        WebSimConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        WebSim sim = WebSim.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop(sim, out);
            stopped.countDown();
        }, "websim-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.printf("websim serving %s: %d pages, %d links, %d hosts on %d addresses, port %d%n",
                sim.graph().description(), sim.graph().numPages(), sim.graph().numArcs(), sim.layout().numHosts(),
                sim.layout().numIps(), sim.port());
        out.printf("hosts file: %s%n", sim.hostsFile());
        for (String url : sim.seedUrls()) {
            out.printf("seed: %s%n", url);
        }
        for (HostileMode m : sim.hostileModes()) {
            out.printf("hostile: %s %s (%s)%n", m.label(), sim.hostileUrl(m), m.ipAddress());
        }
        out.flush();
        if (durationSeconds != null) {
            if (!stopped.await(durationSeconds, TimeUnit.SECONDS)) {
                Runtime.getRuntime().removeShutdownHook(hook);
                stop(sim, out);
            }
            return 0;
        }
        stopped.await();
        return 0;
    }

    private static void stop(WebSim sim, java.io.PrintWriter out) {
        sim.close();
        out.println(sim.stats().toJson());
        out.flush();
    }
}
