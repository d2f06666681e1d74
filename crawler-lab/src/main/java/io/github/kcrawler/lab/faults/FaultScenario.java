package io.github.kcrawler.lab.faults;

import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.app.runtime.CrawlMonitor;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.websim.WebSimStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 9 item 3: the crawl survives its own infrastructure failing. Two crawls of the same generated web with the
 * same budget (depth limit, settings), each part of the crawler in its own JVM ({@link FaultCluster}):
 * <ol>
 *   <li>undisturbed, from fresh directories: its fetched set is the reference;</li>
 *   <li>disturbed, from fresh directories: SIGKILL and restart of dedup, scheduler, ranker, one fetcher and the
 *   broker, then SIGSTOP of the other fetcher for longer than its session timeout (its partitions move to the
 *   first) and SIGCONT; one after the other, each once the crawl has recovered from the previous one and has
 *   fetched its share of the reference set (spread evenly from {@code firstDisruptionFraction} to 70 %).</li>
 * </ol>
 * A crawl is complete when the reference set's size is reached and every consumer group has caught up, or when
 * websim has seen no request for {@code quietMs} and nothing lags. Then: lost URLs (in the reference set, never
 * fetched in the disturbed run), websim's duplicate fetches and politeness violations, and the scheduler's
 * revisit-state changelog checked against every page fetched. {@link #runAgainstReachable} skips the undisturbed
 * crawl and takes every page websim can reach within the depth limit as the reference set instead: at least as
 * strict (an undisturbed crawl fetches no page outside it) and one crawl shorter, for CI.
 */
public final class FaultScenario {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(3);
    private static final long GAP_BETWEEN_DISRUPTIONS_MS = 2_000;
    /** The last disruption comes once this share of the reference set is fetched again. */
    static final double LAST_DISRUPTION_FRACTION = 0.7;

    private final FaultsConfig config;
    private final PrintStream out;

    private FaultScenario(FaultsConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /** Runs both crawls (wiping {@code config.dataDir()} first) and returns the figures. */
    public static FaultsResult run(FaultsConfig config, PrintStream out) throws Exception {
        return prepare(config, out).run(true);
    }

    /**
     * Runs the disturbed crawl only (wiping {@code config.dataDir()} first), against every reachable page as the
     * reference set; the result has no undisturbed figures.
     */
    public static FaultsResult runAgainstReachable(FaultsConfig config, PrintStream out) throws Exception {
        return prepare(config, out).run(false);
    }

    private static FaultScenario prepare(FaultsConfig config, PrintStream out) throws IOException {
        if (!Files.isRegularFile(config.jar())) {
            throw new IllegalArgumentException("the crawler jar " + config.jar() + " does not exist (mvn package)");
        }
        DemoRunner.deleteRecursively(config.dataDir());
        Files.createDirectories(config.dataDir());
        return new FaultScenario(config, out);
    }

    private FaultsResult run(boolean undisturbedFirst) throws Exception {
        Crawl reference = null;
        if (undisturbedFirst) {
            out.printf("Undisturbed crawl of a %,d-page web on %d IPs, T = %d ms, every service in its own JVM%n",
                    config.pages(), config.ips(), config.politenessMs());
            reference = crawl("undisturbed", -1, false);
            out.printf("Disturbed crawl of the same web%n");
        } else {
            out.printf("Disturbed crawl of a %,d-page web on %d IPs, T = %d ms, every service in its own JVM, "
                    + "against every reachable page%n", config.pages(), config.ips(), config.politenessMs());
        }
        Crawl disturbed = crawl("disturbed", reference == null ? -1 : reference.fetched.cardinality(), true);

        BitSet lost = (BitSet) (reference == null ? disturbed.reachableSet : reference.fetched).clone();
        lost.andNot(disturbed.fetched);
        List<String> lostSample = new ArrayList<>();
        for (int p = lost.nextSetBit(0); p >= 0 && lostSample.size() < 20; p = lost.nextSetBit(p + 1)) {
            lostSample.add(disturbed.urls.get(p));
        }
        long distinct = disturbed.stats.distinctUrlsFetched();
        double dupRatio = distinct == 0 ? 0 : (double) disturbed.stats.duplicateFetches() / distinct;
        Map<String, Boolean> goals = FaultsResult.goals(lost.cardinality(), dupRatio,
                disturbed.stats.politenessViolations(), disturbed.revisit, disturbed.disruptions, disturbed.exited);
        return new FaultsResult(FaultsResult.VERSION, settings(config), reference == null ? null
                : reference.figures(), disturbed.figures(),
                lost.cardinality(), lostSample, dupRatio, disturbed.stats.politenessViolations(), disturbed.revisit,
                disturbed.disruptions, disturbed.exited, disturbed.violations, disturbed.duplicates,
                FaultsResult.attribute(disturbed.duplicateTimes, disturbed.disruptions), goals,
                goals.values().stream().allMatch(b -> b), machine());
    }

    /** The settings the summary states for {@code config}. */
    static FaultsResult.Settings settings(FaultsConfig config) {
        // the production default commit interval: the duplicates measured are what a deployment would see
        return new FaultsResult.Settings(config.pages(), config.ips(), config.pagesPerHost(), config.politenessMs(),
                config.partitions(), config.maxDepth(), config.sessionTimeoutMs(), config.stopMs(), config.quietMs(),
                config.serviceHeap(), 2, Long.parseLong(FetcherConfig.DEFAULTS.get("commit-interval-ms")));
    }

    static String machine() {
        return String.format(Locale.ROOT, "%d cores, %s %s, Java %s", Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"));
    }

    /** What one crawl left behind. */
    private record Crawl(double seconds, BitSet reachableSet, BitSet fetched, WebSimStats stats, double[] timeS,
                         long[] distinct, List<FaultsResult.Disruption> disruptions, RevisitStateCheck revisit,
                         List<String> exited, List<RunMonitor.Event> violations, List<RunMonitor.Event> duplicates,
                         double[] duplicateTimes, List<String> urls) {
        FaultsResult.RunFigures figures() {
            return new FaultsResult.RunFigures(seconds, reachableSet.cardinality(), stats.distinctUrlsFetched(),
                    stats.pagesFetched(),
                    stats.duplicateFetches(), stats.politenessViolations(), stats.minGapMs(), stats.robotsFetches(),
                    stats.disallowedFetched(), timeS, distinct);
        }
    }

    /**
     * One crawl from fresh directories.
     *
     * @param target distinct pages that make the crawl complete (-1: every reachable page)
     */
    private Crawl crawl(String name, long target, boolean disturb) throws Exception {
        Path runDir = config.dataDir().resolve(name).toAbsolutePath();
        Files.createDirectories(runDir);
        WebSimConfig webConfig = WebSimConfig.builder().generate(config.pages()).ips(config.ips())
                .meanPagesPerHost(config.pagesPerHost()).politenessMs(config.politenessMs())
                .hostsFile(runDir.resolve("hosts")).build();
        try (WebSim websim = WebSim.start(webConfig)) {
            BitSet reachable = websim.reachablePages(config.maxDepth());
            long goal = target < 0 ? reachable.cardinality() : target;
            List<String> urls = new ArrayList<>(websim.graph().numPages());
            for (int p = 0; p < websim.graph().numPages(); p++) {
                urls.add(websim.url(p));
            }
            long t0 = System.nanoTime();
            try (FaultCluster cluster = FaultCluster.start(config, runDir, websim.hostsFile(), START_TIMEOUT);
                 Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                         cluster.bootstrapServers()));
                 CrawlMonitor lag = new CrawlMonitor(new SimpleMeterRegistry(), admin, kafkaOf(cluster, config),
                         Topics.withPrefix(""), config.partitions(), 3);
                 RunMonitor monitor = new RunMonitor(websim, config.politenessMs())) {
                out.printf("  %s: %d JVMs healthy in %.1f s; seeding %d URL(s); %,d pages reachable%n", name, 6,
                        (System.nanoTime() - t0) / 1e9, websim.seedUrls().size(), reachable.cardinality());
                SeedInjector.inject(kafkaOf(cluster, config), Topics.withPrefix("").discovered, websim.seedUrls(),
                        SeedInjector.resolver(websim.layout().hostToIp()), System.currentTimeMillis());
                List<FaultsResult.Disruption> disruptions = new ArrayList<>();
                List<String> exited = new ArrayList<>();
                Sampler sampler = new Sampler(monitor);
                sampler.start();
                try {
                    if (disturb) {
                        disrupt(cluster, admin, monitor, goal, disruptions);
                    }
                    awaitComplete(name, cluster, monitor, lag, goal, exited);
                } finally {
                    sampler.halt();
                }
                double seconds = monitor.seconds();
                RevisitStateCheck revisit = null;
                if (disturb) {
                    settle(lag); // a page served just now: its result reaches the scheduler before the check reads
                    BitSet fetched = websim.fetchedPages();
                    List<String> fetchedUrls = new ArrayList<>();
                    for (int p = fetched.nextSetBit(0); p >= 0; p = fetched.nextSetBit(p + 1)) {
                        fetchedUrls.add(urls.get(p));
                    }
                    revisit = RevisitStateCheck.read(cluster.bootstrapServers(), fetchedUrls, Duration.ofMinutes(1));
                }
                WebSimStats stats = websim.stats();
                out.printf("  %s complete after %.1f s: %,d distinct pages, %d duplicate fetches, %d violations%n",
                        name, seconds, stats.distinctUrlsFetched(), stats.duplicateFetches(),
                        stats.politenessViolations());
                return new Crawl(seconds, reachable, websim.fetchedPages(), stats, monitor.sampleTimes(),
                        monitor.sampleDistinct(), disruptions, revisit, exited, monitor.violations(),
                        monitor.duplicates(), monitor.duplicateTimes(), urls);
            }
        }
    }

    /**
     * Waits (at most {@link #SETTLE}) until no group lags in two checks in a row: the crawl counts as complete once
     * websim was quiet and nothing lagged, but a fetch may still have gone out since, and the revisit-state check must
     * not race with its result (the fetcher holds its request uncommitted until the result is committed, so the lag
     * stays above 0 until the scheduler has consumed it).
     */
    private static void settle(CrawlMonitor lag) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        int zero = 0;
        while (zero < 2 && System.nanoTime() < deadline) {
            zero = lag.check().lag() == 0 ? zero + 1 : 0;
            if (zero < 2) {
                Thread.sleep(500);
            }
        }
    }

    /** The longest {@link #settle} waits. */
    static final Duration SETTLE = Duration.ofSeconds(60);

    /**
     * Kills (or stops) each process in turn, each once the crawl has recovered from the previous disruption: the
     * process is healthy, websim has served a page not served before, and the fetcher group has settled on every
     * fetcher of the cluster ({@link FetcherGroup}), so that no disruption strikes in the middle of the previous one's
     * rebalance.
     */
    private void disrupt(FaultCluster cluster, Admin admin, RunMonitor monitor, long goal,
                         List<FaultsResult.Disruption> disruptions) throws Exception {
        List<String[]> plan = List.of(new String[] {"SIGKILL", FaultCluster.DEDUP},
                new String[] {"SIGKILL", FaultCluster.SCHEDULER}, new String[] {"SIGKILL", FaultCluster.RANKER},
                new String[] {"SIGKILL", FaultCluster.FETCHER_1}, new String[] {"SIGKILL", FaultCluster.BROKER},
                new String[] {"SIGSTOP", FaultCluster.FETCHER_2});
        for (int i = 0; i < plan.size(); i++) {
            String[] step = plan.get(i);
            // spread over the crawl by its own progress, so each comes mid-crawl whatever the machine's speed
            double fraction = config.firstDisruptionFraction()
                    + i * (LAST_DISRUPTION_FRACTION - config.firstDisruptionFraction()) / (plan.size() - 1);
            awaitDistinct(monitor, cluster, Math.max(1, (long) (goal * fraction)));
            ServiceProcess p = cluster.service(step[1]);
            long before = monitor.distinct();
            double at = monitor.seconds();
            if (step[0].equals("SIGKILL")) {
                p.kill();
                p.start();
            } else {
                p.signal("STOP");
                Thread.sleep(config.stopMs());
                p.signal("CONT");
            }
            double resumed = monitor.seconds();
            long distinctAtResume = monitor.distinct();
            double recovered = awaitRecovery(cluster, p, monitor, distinctAtResume, goal);
            FaultsResult.Disruption d = new FaultsResult.Disruption(step[0], step[1], at, resumed, recovered, before,
                    before < goal);
            disruptions.add(d);
            out.printf(Locale.ROOT, "  %-18s at %6.1f s (%,d pages): running again at %6.1f s, recovered at %6.1f s%n",
                    d.label(), at, before, resumed, recovered);
            if (Double.isNaN(recovered)) {
                out.printf("  the crawl did not recover from %s: the remaining disruptions are skipped%n", d.label());
                return;
            }
            if (i + 1 < plan.size()) {
                int fetchers = cluster.fetcherCount();
                double waited = FetcherGroup.awaitStable(admin, fetchers, RECOVERY_TIMEOUT);
                out.printf(Locale.ROOT, "  %-18s the fetcher group settled on its %d fetchers at %6.1f s (%.1f s)%n",
                        "", fetchers, monitor.seconds(), waited);
            }
            Thread.sleep(GAP_BETWEEN_DISRUPTIONS_MS);
        }
    }

    private void awaitDistinct(RunMonitor monitor, FaultCluster cluster, long n) throws InterruptedException {
        awaitDistinct(config, monitor, cluster, n);
    }

    /** Until websim has served {@code n} distinct pages; fails after the maximum run time. */
    static void awaitDistinct(FaultsConfig config, RunMonitor monitor, FaultCluster cluster, long n)
            throws InterruptedException {
        long deadline = System.nanoTime() + config.maxRunTime().toNanos();
        while (monitor.distinct() < n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the crawl did not reach " + n + " pages within "
                        + config.maxRunTime() + " (not running: " + cluster.notRunning() + ")");
            }
            Thread.sleep(100);
        }
    }

    /**
     * Seconds at which {@code p} is healthy again and websim has served a page not served before the restart (or
     * the crawl is complete); NaN if that did not happen within the recovery timeout.
     */
    private double awaitRecovery(FaultCluster cluster, ServiceProcess p, RunMonitor monitor, long distinctAtResume,
                                 long goal) throws InterruptedException {
        long deadline = System.nanoTime() + RECOVERY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            long d = monitor.distinct();
            if (p.healthy() && (d > distinctAtResume || d >= goal)) {
                return monitor.seconds();
            }
            if (!p.isAlive()) {
                out.printf("  %s exited after its restart; see %s%n", p.name(), p.log());
                out.print(cluster.diagnosis());
                return Double.NaN;
            }
            List<String> dead = cluster.notRunning();
            if (!dead.isEmpty()) {
                // nothing restarts it: waiting longer cannot help (a supervisor would; the scenario counts it)
                out.printf("  %s exited on its own while the crawl recovered from %s%n", dead, p.name());
                out.print(cluster.diagnosis());
                return Double.NaN;
            }
            Thread.sleep(100);
        }
        out.printf("  %s did not recover within %s (not running: %s)%n", p.name(), RECOVERY_TIMEOUT,
                cluster.notRunning());
        out.print(cluster.diagnosis());
        return Double.NaN;
    }

    /**
     * Waits until the goal is reached and every group caught up (three checks in a row), or websim has been quiet
     * for {@code quietMs} with nothing lagging (or with a process that exited on its own: nothing restarts it), or
     * the maximum run time has passed.
     */
    private void awaitComplete(String name, FaultCluster cluster, RunMonitor monitor, CrawlMonitor lag, long goal,
                               List<String> exited) throws InterruptedException {
        awaitComplete(config, out, name, cluster, monitor, lag, goal, exited);
    }

    /** {@link #awaitComplete(String, FaultCluster, RunMonitor, CrawlMonitor, long, List)} for any scenario. */
    static void awaitComplete(FaultsConfig config, PrintStream out, String name, FaultCluster cluster,
                              RunMonitor monitor, CrawlMonitor lag, long goal, List<String> exited)
            throws InterruptedException {
        long deadline = System.nanoTime() + config.maxRunTime().toNanos();
        long lastPrint = 0;
        while (System.nanoTime() < deadline) {
            Thread.sleep(1000);
            CrawlMonitor.Progress progress = lag.check();
            long distinct = monitor.distinct();
            boolean caughtUp = progress.lag() == 0;
            if ((lag.finished() && distinct >= goal) || (caughtUp && monitor.quietMs() >= config.quietMs())) {
                break;
            }
            for (String dead : cluster.notRunning()) {
                if (!exited.contains(dead)) {
                    exited.add(dead);
                    out.printf("  %s exited on its own; see %s%n", dead, cluster.service(dead).log());
                    out.print(cluster.service(dead).diagnosis(FaultCluster.DIAGNOSIS_LINES));
                }
            }
            if (!exited.isEmpty() && monitor.quietMs() >= config.quietMs()) {
                out.printf("  %s: %s not running and no fetch for %d ms: the crawl cannot complete%n", name,
                        exited, config.quietMs());
                break;
            }
            if (System.nanoTime() - lastPrint > 10_000_000_000L) {
                lastPrint = System.nanoTime();
                out.printf(Locale.ROOT, "  %s: %6.1f s, %,d of %,d pages, unconsumed %s%n", name, monitor.seconds(),
                        distinct, goal, progress.lag() < 0 ? "?" : Long.toString(progress.lag()));
            }
        }
        for (String dead : cluster.notRunning()) {
            if (!exited.contains(dead)) {
                exited.add(dead);
            }
        }
    }

    /** Samples the distinct-page count twice a second until halted. */
    static final class Sampler extends Thread {
        private final RunMonitor monitor;
        private volatile boolean running = true;

        Sampler(RunMonitor monitor) {
            super("faults-sampler");
            setDaemon(true);
            this.monitor = monitor;
        }

        @Override
        public void run() {
            while (running) {
                monitor.sample();
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void halt() throws InterruptedException {
            running = false;
            interrupt();
            join(5000);
            monitor.sample();
        }
    }

    /** The harness's own clients talk to the scenario's plaintext loopback broker. */
    static io.github.kcrawler.common.config.KafkaSettings kafkaOf(FaultCluster cluster, FaultsConfig config) {
        return new io.github.kcrawler.common.config.KafkaSettings(cluster.bootstrapServers(), "", config.partitions(),
                null, Map.of());
    }
}
