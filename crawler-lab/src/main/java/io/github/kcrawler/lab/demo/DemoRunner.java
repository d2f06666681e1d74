package io.github.kcrawler.lab.demo;

import io.github.kcrawler.lab.measure.CountingRocksDbConfigSetter;
import io.github.kcrawler.lab.measure.CrawlMeasurement;
import io.github.kcrawler.app.runtime.CrawlMonitor;
import io.github.kcrawler.app.runtime.CrawlOutcome;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.app.runtime.WarcFiles;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.websim.HostileMode;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.websim.WebSimStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs a crawl of the simulated web in this process: websim on loopback, an embedded broker, the four services,
 * and a summary whose counts come from websim's own access log. With {@link DemoOptions#hostile()} websim also
 * serves every hostile mode and the fetcher runs with short timeouts; the summary then shows each mode's outcome by
 * reason code and the heap's high-water mark against its baseline.
 */
public final class DemoRunner {
    private static final Logger LOG = LoggerFactory.getLogger(DemoRunner.class);

    private DemoRunner() {
    }

    /** The pipeline stages reported per crawl: stage name → the counter of records through it. */
    public static final Map<String, String> STAGES;

    static {
        Map<String, String> stages = new LinkedHashMap<>();
        stages.put("discovered", MetricNames.DEDUP_TESTS);
        stages.put("admitted", MetricNames.DEDUP_NEW);
        stages.put("released", MetricNames.SCHEDULER_RELEASED);
        stages.put("fetched", MetricNames.FETCHES);
        stages.put("outlinksProduced", MetricNames.LINKS_DISCOVERED);
        stages.put("rankUpdates", MetricNames.RANK_UPDATES);
        STAGES = java.util.Collections.unmodifiableMap(stages);
    }

    public static DemoSummary run(DemoOptions o, PrintStream out) throws IOException, InterruptedException {
        return run(o, out, null);
    }

    /**
     * Runs the crawl; with a {@code timeline} (not yet started), samples the crawl's course into it from seeding
     * to the end.
     */
    public static DemoSummary run(DemoOptions o, PrintStream out, CrawlTimeline timeline)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        try (HeapSampler heap = new HeapSampler(100)) {
            return run(o, out, timeline, heap, started);
        }
    }

    private static DemoSummary run(DemoOptions o, PrintStream out, CrawlTimeline timeline, HeapSampler heap,
                                   long started)
            throws IOException, InterruptedException {
        deleteRecursively(o.dataDir());
        Files.createDirectories(o.dataDir());
        WebSimConfig.Builder web = WebSimConfig.builder().ips(o.ips()).latencyMs(o.latencyMs())
                .politenessMs(o.politenessMs()).hostsFile(o.dataDir().resolve("hosts"))
                .meanPagesPerHost(o.pagesPerHost()).accessLog(o.dataDir().resolve("websim-access.tsv"))
                .hostile(o.hostile() ? EnumSet.allOf(HostileMode.class) : Set.of());
        if (o.graph() != null) {
            web.graph(o.graph());
        } else {
            web.generate(o.generatedPages());
        }
        if (!o.seedPageIds().isEmpty()) {
            web.seedPages(o.seedPageIds());
        } else if (o.seeds() > 1) {
            web.seedPages(DemoOptions.seedPages(o.seeds(),
                    o.graph() != null ? graphNodes(o.graph()) : o.generatedPages()));
        }
        try (WebSim websim = WebSim.start(web.build())) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("politeness-ms", Long.toString(o.politenessMs()));
            settings.put("hosts-file", websim.hostsFile().toString());
            settings.put("allow-addresses", "127.0.0.0/8");
            settings.put("max-depth", Integer.toString(o.maxDepth()));
            settings.put("warc-dir", o.dataDir().resolve("warc").toString());
            if (o.maxPages() > 0) {
                settings.put("max-pages", Long.toString(o.maxPages()));
            }
            if (o.hostile()) {
                settings.putAll(DemoOptions.HOSTILE_SETTINGS);
                // the traps (calendar, session ids) end at the per-host budget; every ordinary host fits in it
                settings.put("max-pages-per-host", Long.toString(hostileHostBudget(websim.layout())));
            }
            settings.putAll(o.settings());
            if (o.storeMetrics()) {
                settings.put(DemoOptions.STORE_METRICS_KEY, CountingRocksDbConfigSetter.class.getName());
            }
            long busiest = busiestIpPages(websim.layout());
            if (out != null) {
                out.printf("Politeness bound: busiest IP holds %,d pages → ≥ %.1f s at T = %d ms%n", busiest,
                        busiest * o.politenessMs() / 1000.0, o.politenessMs());
            }
            try (CrawlSession session = CrawlSession.start(o.dataDir(), Optional.empty(), "", o.partitions(),
                    settings, "127.0.0.1", 0)) {
                String statusUrl = o.statusPort() == DemoOptions.NO_STATUS_PAGE ? null
                        : session.startStatusPage("127.0.0.1", o.statusPort());
                if (out != null) {
                    out.printf("Simulated web: %,d pages on %d IPs (port %d); metrics at http://127.0.0.1:%d/metrics%n",
                            websim.graph().numPages(), o.ips(), websim.port(), session.metricsPort());
                    if (statusUrl != null) {
                        out.println("Status page: " + statusUrl);
                    }
                }
                if (o.hostile() && out != null) {
                    out.printf("Hostile hosts: %d modes on 127.2.0.x, linked from the seed page; fetch timeouts "
                                    + "shortened (%s), max-pages-per-host %s%n", websim.hostileModes().size(),
                            DemoOptions.HOSTILE_SETTINGS, settings.get("max-pages-per-host"));
                }
                // the baseline once every Streams service runs its tasks (their fixed-size structures allocated)
                awaitStreamsRunning(3, Duration.ofSeconds(120));
                long heapBaseline = HeapSampler.usedAfterGc();
                CrawlMonitor monitor = session.monitor();
                if (timeline != null) {
                    timeline.start(session.registry(), monitor::fetched);
                }
                CrawlMonitor.Progress last;
                CrawlMeasurement measure = CrawlMeasurement.start(websim, session.runtime().admin(),
                        session.runtime().kafka().topicPrefix(), o.storeMetrics());
                CrawlMeasurement.Figures figures;
                try {
                    measure.seeded();
                    SeedInjector.inject(session.runtime().kafka(), session.runtime().topics().discovered,
                            websim.seedUrls(), SeedInjector.resolver(websim.layout().hostToIp()),
                            System.currentTimeMillis());
                    // With a page budget the crawl is over once the budget is spent: what is still queued would
                    // only come back as BUDGET_EXHAUSTED at the politeness rate.
                    last = session.awaitQuiet(Duration.ofSeconds(o.maxSeconds()), out,
                            () -> o.maxPages() > 0 && monitor.fetched() >= o.maxPages());
                } finally {
                    if (timeline != null) {
                        timeline.stop();
                    }
                    measure.stop(); // the crawl's end: CPU, GC, log-end offsets read now
                }
                CrawlOutcome outcome = session.outcome();
                if (outcome.serviceFailed()) {
                    throw new IllegalStateException("the crawl stopped because a service failed: "
                            + String.join("; ", outcome.problems()));
                }
                double wall = (System.nanoTime() - started) / 1e9;
                long heapEnd = HeapSampler.usedAfterGc();
                WebSimStats stats = websim.stats();
                BitSet reachable = websim.reachablePages(o.maxDepth());
                long expected = o.maxPages() > 0 ? Math.min(reachable.cardinality(), o.maxPages())
                        : reachable.cardinality();
                BitSet missing = (BitSet) reachable.clone();
                missing.andNot(websim.fetchedPages());
                long missingPages = o.maxPages() > 0 ? Math.max(0, expected - stats.distinctUrlsFetched())
                        : missing.cardinality();
                figures = measure.finish(expected, stats.pagesFetched(), o.politenessMs());
                double elapsed = figures.elapsedSeconds();
                LOG.info("Demo finished after {} s of wall time", wall);
                return new DemoSummary(DemoSummary.VERSION,
                        o.graph() == null ? "generated:" + o.generatedPages() : o.graph().toString(),
                        o.partitions(), o.politenessMs(), o.ips(), o.maxPages(), stats.pagesFetched(),
                        stats.distinctUrlsFetched(), stats.duplicateFetches(), stats.politenessViolations(),
                        stats.minGapMs(), stats.robotsFetches(), stats.disallowedFetched(), reachable.cardinality(),
                        expected, missingPages, last.errors(), elapsed,
                        figures.pageRate().pagesPerSecond(), stages(session.registry(), elapsed),
                        monitor.countsOf(NOT_SUCCESS), WarcFiles.in(o.dataDir().resolve("warc")).files(),
                        o.hostile(), wall, countsByTag(session.registry(), MetricNames.LINKS_REJECTED, "reason"),
                        countsByTag(session.registry(), MetricNames.ROBOTS_FETCHES, "result"),
                        stats.hostileAccesses(), heap.maxBytes(), heapBaseline, heapEnd,
                        Runtime.getRuntime().maxMemory(),
                        elapsed > 0 ? stats.distinctUrlsFetched() / elapsed : 0,
                        figures.pageRate().slowestWindowPagesPerSecond(),
                        figures.pageRate().fastestWindowPagesPerSecond(), figures.pageRate().windows(),
                        figures.cpuMsPerPage(), figures.recordsPerPage(), figures.bytesPerPage(),
                        figures.storeOpsPerPage(), figures.gcShare(), figures.politenessEfficiency(), o.seeds(),
                        busiest, monitor.boundedValues(), outcome.deadLetters(), figures.brokerRequestsPerPage(),
                        figures.brokerLocalMsPerPage());
            }
        }
    }

    /**
     * Pages on the simulated IP that holds the most: a complete crawl needs at least that many times T, whatever
     * the crawler does (the politeness bound).
     */
    public static long busiestIpPages(SiteLayout layout) {
        long[] perIp = new long[layout.numIps()];
        long max = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            int ip = layout.ipIndexOfHost(h);
            perIp[ip] += layout.hostEnd(h) - layout.hostStart(h);
            max = Math.max(max, perIp[ip]);
        }
        return max;
    }

    /** The node count of a BVGraph from its {@code BASENAME.properties} ({@code nodes=...}). */
    static int graphNodes(Path basename) throws IOException {
        java.util.Properties p = new java.util.Properties();
        try (var in = Files.newInputStream(Path.of(basename + ".properties"))) {
            p.load(in);
        }
        String nodes = p.getProperty("nodes");
        if (nodes == null) {
            throw new IOException(basename + ".properties has no nodes= line");
        }
        return Integer.parseInt(nodes.trim());
    }

    /** Every fetch outcome except the ordinary successes: what {@code errorsByReason} counts. */
    static final Set<FetchOutcome> NOT_SUCCESS = Collections.unmodifiableSet(EnumSet.complementOf(
            EnumSet.of(FetchOutcome.OK, FetchOutcome.NOT_MODIFIED, FetchOutcome.REDIRECT)));

    /**
     * The per-host budget of a hostile demo: the ordinary web's largest host (so no ordinary page is cut), at least
     * {@link DemoOptions#HOSTILE_MIN_PAGES_PER_HOST}.
     */
    static long hostileHostBudget(SiteLayout layout) {
        long largest = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            largest = Math.max(largest, layout.hostEnd(h) - layout.hostStart(h));
        }
        return Math.max(DemoOptions.HOSTILE_MIN_PAGES_PER_HOST, largest + 1);
    }

    /** Counts of {@code metric}'s counters by the value of {@code tag}, non-zero only, largest first. */
    static Map<String, Long> countsByTag(MeterRegistry registry, String metric, String tag) {
        Map<String, Long> counts = new java.util.HashMap<>();
        for (Counter c : registry.find(metric).counters()) {
            String value = c.getId().getTag(tag);
            if (value != null && c.count() > 0) {
                counts.merge(value, Math.round(c.count()), Long::sum);
            }
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * Waits until at least {@code clients} Kafka Streams clients of this process report state RUNNING in their
     * {@code kafka.streams:type=stream-metrics} JMX metric (all tasks assigned, restored and initialised), at most
     * {@code max}; logs and goes on if they do not.
     */
    static void awaitStreamsRunning(int clients, Duration max) throws InterruptedException {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        long deadline = System.nanoTime() + max.toNanos();
        int running = 0;
        int seen = 0;
        while (System.nanoTime() < deadline) {
            running = 0;
            seen = 0;
            try {
                for (javax.management.ObjectName name : server.queryNames(
                        new javax.management.ObjectName("kafka.streams:type=stream-metrics,client-id=*"), null)) {
                    seen++;
                    if ("RUNNING".equals(String.valueOf(server.getAttribute(name, "state")))) {
                        running++;
                    }
                }
            } catch (javax.management.JMException e) {
                LOG.debug("reading the Streams state from JMX failed", e);
            }
            if (seen >= clients && running == seen) {
                return;
            }
            Thread.sleep(200);
        }
        LOG.warn("{} of {} Kafka Streams clients RUNNING after {}; measuring the heap baseline anyway", running, seen,
                max);
    }

    /** Records through each stage and the mean rate over the crawl. */
    static Map<String, Double> stages(MeterRegistry registry, double seconds) {
        Map<String, Double> out = new LinkedHashMap<>();
        STAGES.forEach((name, metric) -> stage(out, registry, name, metric, seconds));
        return out;
    }

    private static void stage(Map<String, Double> out, MeterRegistry registry, String name, String metric,
                              double seconds) {
        double count = registry.find(metric).counters().stream().mapToDouble(Counter::count).sum();
        out.put(name, count);
        out.put(name + "PerSecond", seconds > 0 ? count / seconds : 0);
    }

    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
