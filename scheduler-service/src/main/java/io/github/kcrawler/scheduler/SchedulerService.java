package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.service.StreamsService;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.processor.LocalFrontiers;
import io.github.kcrawler.scheduler.processor.SchedulerMetrics;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.Topology;

import java.util.List;
import java.util.Properties;

/**
 * The scheduler as a deployable: a Kafka Streams application ({@code <prefix>scheduler}, exactly-once v2) that
 * turns admitted URLs into polite, best-first fetch requests (see {@code SchedulerProcessor} for the guarantees).
 * Runs alone behind {@link SchedulerMain} or in-process in {@code crawler-app}, which reads {@link #frontierSize()}
 * for its progress line and to decide when a crawl has run dry.
 *
 * <p>Lifecycle and failure policy: {@link StreamsService}.
 */
public final class SchedulerService extends StreamsService {
    private final SchedulerConfig config;
    private final CrawlClock clock;
    private final LocalFrontiers frontiers = new LocalFrontiers();
    private final SchedulerMetrics metrics;

    public SchedulerService(SchedulerConfig config, MeterRegistry registry, CrawlClock clock) {
        super(SchedulerConfig.APPLICATION_ID, registry);
        if (config == null || clock == null) {
            throw new IllegalArgumentException("config, registry and clock are required");
        }
        this.config = config;
        this.clock = clock;
        this.metrics = new SchedulerMetrics(registry, frontiers, SchedulerTopology.badRecordSources(config));
    }

    /** The Streams topology this service runs (for inspection and {@code TopologyTestDriver}). */
    @Override
    public Topology topology() {
        return SchedulerTopology.build(config, clock, metrics, frontiers);
    }

    @Override
    public Properties streamsProperties() {
        return StreamsDefaults.properties(config.kafka(), SchedulerConfig.APPLICATION_ID, config.threads(),
                config.commitMs());
    }

    @Override
    protected String describe() {
        return "politeness " + config.politenessMs() + " ms, tick " + config.tickMs() + " ms, max pending "
                + config.maxPending() + ", order " + config.wheel().order().key();
    }

    /** The full application id: topic prefix + {@value SchedulerConfig#APPLICATION_ID}. */
    public static String applicationId(SchedulerConfig config) {
        return config.kafka().topicPrefix() + SchedulerConfig.APPLICATION_ID;
    }

    /** Internal topics the service writes, for callers that create topics up front (DESIGN §7, KAFKA-15591). */
    public static List<String> internalTopics(SchedulerConfig config) {
        return SchedulerTopology.changelogTopics(config);
    }

    /** Internal topics of this service's settings; see {@link #internalTopics(SchedulerConfig)}. */
    public List<String> internalTopics() {
        return internalTopics(config);
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
}
