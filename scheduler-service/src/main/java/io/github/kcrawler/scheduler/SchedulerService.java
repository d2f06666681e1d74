package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.service.StreamsRunner;
import io.github.kcrawler.common.service.StreamThreadFailures;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.processor.LocalFrontiers;
import io.github.kcrawler.scheduler.processor.SchedulerMetrics;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The scheduler as a deployable: a Kafka Streams application ({@code <prefix>scheduler}, exactly-once v2) that
 * turns admitted URLs into polite, best-first fetch requests (see {@code SchedulerProcessor} for the guarantees).
 * Runs alone behind {@link SchedulerMain} or in-process in {@code crawler-app}, which reads {@link #frontierSize()}
 * for its progress line and to decide when a crawl has run dry.
 */
public final class SchedulerService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final SchedulerConfig config;
    private final CrawlClock clock;
    private final LocalFrontiers frontiers = new LocalFrontiers();
    private final SchedulerMetrics metrics;
    private final MeterRegistry registry;
    private volatile DeadLetters deadLetters;
    /** Replaces a failed stream thread a few times, then shuts down (the policy of every Streams service). */
    private final StreamThreadFailures failures;
    private final Object lock = new Object();
    private KafkaStreams streams;
    /** Kafka Streams' own metrics as {@code kafka_stream_*} meters, as every Streams service has (issue 23). */
    private io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics streamsMetrics;
    private volatile boolean failed;
    private boolean closed;

    public SchedulerService(SchedulerConfig config, MeterRegistry registry, CrawlClock clock) {
        if (config == null || registry == null || clock == null) {
            throw new IllegalArgumentException("config, registry and clock are required");
        }
        this.config = config;
        this.clock = clock;
        this.metrics = new SchedulerMetrics(registry, frontiers, SchedulerTopology.badRecordSources(config));
        this.registry = registry;
        this.failures = new StreamThreadFailures(SchedulerConfig.APPLICATION_ID, registry);
    }

    @Override
    public String name() {
        return SchedulerConfig.APPLICATION_ID;
    }

    /** The Streams topology this service runs (for inspection and {@code TopologyTestDriver}). */
    public Topology topology() {
        return SchedulerTopology.build(config, clock, metrics, frontiers);
    }

    /** The Streams properties this service runs with. */
    public Properties streamsProperties() {
        return StreamsDefaults.properties(config.kafka(), SchedulerConfig.APPLICATION_ID, config.threads(),
                config.commitMs());
    }

    /** Internal topics the service writes, for callers that create topics up front (DESIGN §7, KAFKA-15591). */
    public List<String> internalTopics() {
        return SchedulerTopology.changelogTopics(config);
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("scheduler was closed; build a new one");
            }
            if (streams != null) {
                return;
            }
            Topology topology = topology();
            Properties properties = streamsProperties();
            deadLetters = DeadLetters.install(properties, topology, registry);
            KafkaStreams s = new KafkaStreams(topology, properties);
            s.setUncaughtExceptionHandler(failures);
            streamsMetrics = new io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics(s,
                    java.util.List.of(io.micrometer.core.instrument.Tag.of("service", name())));
            streamsMetrics.bindTo(registry);
            s.setStateListener((now, before) -> {
                LOG.info("scheduler streams {} -> {}", before, now);
                if (now == KafkaStreams.State.ERROR) {
                    failed = true;
                }
            });
            s.start();
            streams = s;
            LOG.info("scheduler started: politeness {} ms, tick {} ms, max pending {} ({} per IP)",
                    config.politenessMs(), config.tickMs(), config.maxPending(), config.maxPendingPerIp());
        }
    }

    @Override
    public boolean isHealthy() {
        KafkaStreams s;
        synchronized (lock) {
            s = streams;
        }
        if (s == null || failed || failures.shutDown()) {
            return false;
        }
        KafkaStreams.State state = s.state();
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }

    @Override
    public boolean settled() {
        KafkaStreams s;
        synchronized (lock) {
            s = streams;
        }
        return !failed && StreamsRunner.settled(s, config.threads(), failures);
    }

    @Override
    public String problem() {
        KafkaStreams s;
        synchronized (lock) {
            s = streams;
        }
        return s == null ? null : StreamsRunner.problem(name(), s.state(), failures);
    }

    @Override
    public Optional<DeadLetters> deadLetters() {
        return Optional.ofNullable(deadLetters);
    }

    /** URLs pending in this instance's tasks (all local partitions); 0 before start. */
    public long frontierSize() {
        return frontiers.size();
    }

    /** IPs with pending URLs in this instance's tasks. */
    public long activeIps() {
        return frontiers.activeIps();
    }

    /** Fetch requests released by this instance since it was built. */
    public long released() {
        return (long) metrics.releasedCount();
    }

    public SchedulerConfig config() {
        return config;
    }

    @Override
    public void close() {
        KafkaStreams s;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            s = streams;
            streams = null;
        }
        if (s != null) {
            // Leave the group: our partitions move to another instance at once, not after the session timeout.
            CloseOptions options = CloseOptions.groupMembershipOperation(
                    CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(CLOSE_TIMEOUT);
            if (!s.close(options)) {
                LOG.warn("scheduler streams did not stop within {}", CLOSE_TIMEOUT);
            }
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
    }
}
