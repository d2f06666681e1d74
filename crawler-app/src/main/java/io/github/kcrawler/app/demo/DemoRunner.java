package io.github.kcrawler.app.demo;

import io.github.kcrawler.app.runtime.CrawlMonitor;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.app.runtime.WarcFiles;
import io.github.kcrawler.common.metrics.MetricNames;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs a crawl of the simulated web in this process: websim on loopback, an embedded broker, the four services,
 * and a summary whose counts come from websim's own access log.
 */
public final class DemoRunner {
    private static final Logger LOG = LoggerFactory.getLogger(DemoRunner.class);

    private DemoRunner() {
    }

    public static DemoSummary run(DemoOptions o, PrintStream out) throws IOException, InterruptedException {
        deleteRecursively(o.dataDir());
        Files.createDirectories(o.dataDir());
        WebSimConfig.Builder web = WebSimConfig.builder().ips(o.ips()).latencyMs(o.latencyMs())
                .politenessMs(o.politenessMs()).hostsFile(o.dataDir().resolve("hosts"))
                .meanPagesPerHost(o.pagesPerHost());
        if (o.graph() != null) {
            web.graph(o.graph());
        } else {
            web.generate(o.generatedPages());
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
            settings.putAll(o.settings());
            long started = System.nanoTime();
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
                SeedInjector.inject(session.runtime().kafka(), session.runtime().topics().discovered,
                        websim.seedUrls(), SeedInjector.resolver(websim.layout().hostToIp()),
                        System.currentTimeMillis());
                // With a page budget the crawl is over once the budget is spent: what is still queued would only
                // come back as BUDGET_EXHAUSTED at the politeness rate.
                CrawlMonitor monitor = session.monitor();
                CrawlMonitor.Progress last = session.awaitQuiet(Duration.ofSeconds(o.maxSeconds()), out,
                        () -> o.maxPages() > 0 && monitor.fetched() >= o.maxPages());
                double elapsed = session.monitor().activeSeconds();
                WebSimStats stats = websim.stats();
                BitSet reachable = websim.reachablePages(o.maxDepth());
                long expected = o.maxPages() > 0 ? Math.min(reachable.cardinality(), o.maxPages())
                        : reachable.cardinality();
                BitSet missing = (BitSet) reachable.clone();
                missing.andNot(websim.fetchedPages());
                long missingPages = o.maxPages() > 0 ? Math.max(0, expected - stats.distinctUrlsFetched())
                        : missing.cardinality();
                LOG.info("Demo finished after {} s of wall time", (System.nanoTime() - started) / 1e9);
                return new DemoSummary(DemoSummary.VERSION,
                        o.graph() == null ? "generated:" + o.generatedPages() : o.graph().toString(),
                        o.partitions(), o.politenessMs(), o.ips(), o.maxPages(), stats.pagesFetched(),
                        stats.distinctUrlsFetched(), stats.duplicateFetches(), stats.politenessViolations(),
                        stats.minGapMs(), stats.robotsFetches(), stats.disallowedFetched(), reachable.cardinality(),
                        expected, missingPages, last.errors(), elapsed,
                        elapsed > 0 ? stats.distinctUrlsFetched() / elapsed : 0, stages(session.registry(), elapsed),
                        monitor.countsOf(CrawlMonitor.FAILURES), WarcFiles.in(o.dataDir().resolve("warc")).files());
            }
        }
    }

    /** Records through each stage and the mean rate over the crawl. */
    static Map<String, Double> stages(MeterRegistry registry, double seconds) {
        Map<String, Double> out = new LinkedHashMap<>();
        stage(out, registry, "discovered", MetricNames.DEDUP_TESTS, seconds);
        stage(out, registry, "admitted", MetricNames.DEDUP_NEW, seconds);
        stage(out, registry, "released", MetricNames.SCHEDULER_RELEASED, seconds);
        stage(out, registry, "fetched", MetricNames.FETCHES, seconds);
        stage(out, registry, "outlinksProduced", MetricNames.LINKS_DISCOVERED, seconds);
        stage(out, registry, "rankUpdates", MetricNames.RANK_UPDATES, seconds);
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
