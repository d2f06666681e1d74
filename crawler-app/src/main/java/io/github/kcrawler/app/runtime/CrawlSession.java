package io.github.kcrawler.app.runtime;

import io.github.kcrawler.app.status.RegistryMetricsSource;
import io.github.kcrawler.app.status.StatusService;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.fetcher.FetcherService;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.ranker.RankerService;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A whole crawl in one process: the runtime (broker and topics), the four services sharing one metrics registry
 * and one Prometheus endpoint, seeding, and a loop that prints progress until the crawl is quiet.
 */
public final class CrawlSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlSession.class);
    private static final List<Set<String>> SERVICE_KEYS = List.of(DedupConfig.KEYS, SchedulerConfig.KEYS,
            RankerConfig.KEYS, FetcherConfig.KEYS);
    /** Keys the session itself sets from the runtime; a user cannot set them per service. */
    private static final Set<String> RUNTIME_KEYS = SettingSet.of(KafkaSettings.SETTINGS, CommonSettings.METRICS)
            .keys();

    private final CrawlRuntime runtime;
    private final PrometheusMeterRegistry registry;
    private final MetricsServer metrics;
    private final CrawlMonitor monitor;
    private StatusService status;
    private volatile CrawlOutcome.Ending ending;
    private final List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();

    private CrawlSession(CrawlRuntime runtime, PrometheusMeterRegistry registry, MetricsServer metrics) {
        this.runtime = runtime;
        this.registry = registry;
        this.metrics = metrics;
        this.monitor = new CrawlMonitor(registry, runtime.admin(), runtime.kafka(), runtime.topics(),
                runtime.kafka().partitions(), 3);
    }

    /**
     * @param settings service settings ({@code politeness-ms}, {@code max-pages}, ...), each routed to the services
     *                 that declare it; unknown keys are refused
     */
    public static CrawlSession start(Path dataDir, Optional<String> bootstrapServers, String topicPrefix,
                                     int partitions, Map<String, String> settings, String metricsHost,
                                     int metricsPort) {
        for (String key : settings.keySet()) {
            if (RUNTIME_KEYS.contains(key)) {
                throw new IllegalArgumentException("'" + key + "' is set for the whole process, not per service");
            }
        }
        ServiceSettings serviceSettings = new ServiceSettings(settings, SERVICE_KEYS);
        Map<String, String> kafkaOverrides = new LinkedHashMap<>();
        settings.forEach((k, v) -> {
            if (k.startsWith(Settings.KAFKA_PREFIX)) {
                kafkaOverrides.put(k.substring(Settings.KAFKA_PREFIX.length()), v);
            }
        });
        CrawlRuntime runtime = CrawlRuntime.start(dataDir, bootstrapServers, topicPrefix, partitions, kafkaOverrides);
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        MetricsServer metrics = null;
        CrawlSession session = null;
        try {
            metrics = MetricsServer.start(registry, metricsHost, metricsPort, runtime::healthy);
            session = new CrawlSession(runtime, registry, metrics);
            Function<Set<String>, Settings> forService = keys -> withRuntime(serviceSettings, keys, runtime.kafka());
            DedupConfig dedup = DedupConfig.from(forService.apply(DedupConfig.KEYS));
            runtime.startService(new DedupService(dedup, registry), DedupService.internalTopics(dedup));
            RankerConfig ranker = RankerConfig.from(forService.apply(RankerConfig.KEYS));
            runtime.startService(new RankerService(ranker, registry), RankerService.internalTopics(ranker));
            SchedulerService scheduler = new SchedulerService(
                    SchedulerConfig.from(forService.apply(SchedulerConfig.KEYS)), registry, CrawlClock.SYSTEM);
            runtime.startService(scheduler, scheduler.internalTopics());
            runtime.startService(new FetcherService(FetcherConfig.from(forService.apply(FetcherConfig.KEYS)),
                    registry, CrawlClock.SYSTEM), List.of());
            session.watchServices();
            return session;
        } catch (IOException e) {
            runtime.close();
            throw new UncheckedIOException("cannot open the metrics endpoint on " + metricsHost + ":" + metricsPort, e);
        } catch (RuntimeException e) {
            if (session != null) {
                session.close(); // services, broker, monitor, metrics endpoint
            } else {
                runtime.close();
                if (metrics != null) {
                    metrics.close();
                }
            }
            throw e;
        }
    }

    /**
     * Makes the idle rule watch every Streams service's consumer group on the topics its topology reads, and require
     * every service settled and healthy. Call again after starting another service with {@link CrawlRuntime#startService}.
     */
    public void watchServices() {
        for (var service : runtime.services()) {
            service.deadLetters().ifPresent(d -> monitor.watch(d.service(), d.sourceTopics(),
                    runtime.kafka().partitions()));
        }
        monitor.require(runtime::settled, runtime::healthy);
    }

    private static Settings withRuntime(ServiceSettings settings, Set<String> keys, KafkaSettings kafka) {
        Map<String, String> values = new LinkedHashMap<>(settings.values());
        values.put("bootstrap-servers", kafka.bootstrapServers());
        values.put("topic-prefix", kafka.topicPrefix());
        values.put("partitions", Integer.toString(kafka.partitions()));
        values.put("state-dir", kafka.stateDir().toString());
        List<Set<String>> known = new ArrayList<>(SERVICE_KEYS);
        known.add(RUNTIME_KEYS);
        return new ServiceSettings(values, known).forService(keys);
    }

    public CrawlRuntime runtime() {
        return runtime;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public CrawlMonitor monitor() {
        return monitor;
    }

    public int metricsPort() {
        return metrics.port();
    }

    /**
     * Serves the status page on {@code host:port} (0 = a free port) from this session's registry until the session
     * closes.
     *
     * @return the page's address
     */
    public synchronized String startStatusPage(String host, int port) throws IOException {
        if (status != null) {
            throw new IllegalStateException("the status page is already running at " + status.url());
        }
        status = StatusService.start(new RegistryMetricsSource(registry), host, port, Duration.ofSeconds(1))
                .withFetchResults(runtime.kafka(), runtime.topics().fetchResults);
        return status.url();
    }

    /**
     * Prints a progress line every second (when {@code out} is not null; see {@link ProgressPrinter}) until the crawl
     * is quiet ({@link IdleRule}), {@code stop} says so, {@code maxTime} passes or a service dies or gives up; then
     * {@link #outcome()} says which.
     *
     * @return the last progress snapshot
     */
    public CrawlMonitor.Progress awaitQuiet(Duration maxTime, PrintStream out, BooleanSupplier stop)
            throws InterruptedException {
        return run(maxTime, out, stop, true);
    }

    /** Like {@link #awaitQuiet} but, when {@code stopWhenQuiet} is false, keeps running through quiet periods. */
    public CrawlMonitor.Progress run(Duration maxTime, PrintStream out, BooleanSupplier stop, boolean stopWhenQuiet)
            throws InterruptedException {
        long deadline = System.nanoTime() + maxTime.toNanos();
        ProgressPrinter progress = out == null ? null : ProgressPrinter.of(out);
        CrawlMonitor.Progress last = monitor.check();
        ending = null;
        problems.clear();
        while (!(stopWhenQuiet && monitor.finished()) && !stop.getAsBoolean() && System.nanoTime() < deadline) {
            List<String> failed = runtime.problems();
            if (!failed.isEmpty()) {
                problems.addAll(failed);
                ending = CrawlOutcome.Ending.SERVICE_FAILED;
                LOG.error("Stopping the crawl: {}", String.join("; ", failed));
                break;
            }
            Thread.sleep(1000);
            last = monitor.check();
            if (progress != null) {
                progress.update(last.line());
            }
        }
        if (progress != null) {
            progress.finish();
        }
        if (ending == null) {
            if (stopWhenQuiet && monitor.finished()) {
                ending = CrawlOutcome.Ending.IDLE;
            } else if (System.nanoTime() >= deadline) {
                ending = CrawlOutcome.Ending.TIME_LIMIT;
                LOG.warn("The crawl was still running after {}; stopping it", maxTime);
            } else {
                ending = CrawlOutcome.Ending.STOPPED;
            }
        }
        return last;
    }

    /**
     * How the last {@link #run} ended: why it stopped, services that died or gave up (seen during the run or now),
     * and the records dead-lettered so far. Call before {@link #close()}.
     */
    public CrawlOutcome outcome() {
        List<String> all = new ArrayList<>(problems);
        for (String p : runtime.problems()) {
            if (!all.contains(p)) {
                all.add(p);
            }
        }
        CrawlOutcome.Ending e = ending == null ? CrawlOutcome.Ending.STOPPED : ending;
        return new CrawlOutcome(all.isEmpty() ? e : CrawlOutcome.Ending.SERVICE_FAILED, all, runtime.deadLetters());
    }

    @Override
    public void close() {
        synchronized (this) {
            if (status != null) {
                status.close();
                status = null;
            }
        }
        monitor.close();
        runtime.close();
        metrics.close();
        registry.close();
    }
}
