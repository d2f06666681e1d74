package io.github.kcrawler.dedup;

import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.service.StreamsRunner;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The dedup service: runs {@link DedupTopology} as Kafka Streams application {@code <topic-prefix>dedup} with
 * exactly-once v2, so an admitted URL is emitted if and only if its fingerprint is committed to the store.
 *
 * <p>Lifecycle and failure policy: {@link StreamsRunner}.
 */
public final class DedupService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(DedupService.class);
    /** Application id before the topic prefix. */
    public static final String APPLICATION_ID = "dedup";

    private final DedupConfig config;
    private final StreamsRunner streams;

    public DedupService(DedupConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        Topology topology = DedupTopology.build(config.kafka().topics(), config, registry);
        this.streams = new StreamsRunner(APPLICATION_ID, topology,
                StreamsDefaults.properties(config.kafka(), APPLICATION_ID, config.threads(), config.commitMs()),
                registry);
    }

    /** The full application id: topic prefix + {@value #APPLICATION_ID}. */
    public static String applicationId(DedupConfig config) {
        return config.kafka().topicPrefix() + APPLICATION_ID;
    }

    /** Internal (changelog) topics this service uses, for tools that create every topic up front. */
    public static List<String> internalTopics(DedupConfig config) {
        return DedupTopology.internalTopics(applicationId(config));
    }

    @Override
    public String name() {
        return APPLICATION_ID;
    }

    @Override
    public void start() {
        streams.start();
        LOG.info("dedup service started: application.id={}, threads={}, commit-ms={}", applicationId(config),
                config.threads(), config.commitMs());
    }

    @Override
    public boolean isHealthy() {
        return streams.isHealthy();
    }

    @Override
    public boolean settled() {
        return streams.settled();
    }

    @Override
    public String problem() {
        return streams.problem();
    }

    @Override
    public Optional<DeadLetters> deadLetters() {
        return streams.deadLetters();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * Waits until the service has stopped, by {@link #close()} or by failure.
     *
     * @return true if it stopped within the timeout
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return streams.awaitTermination(timeout);
    }

    /** True once the service stopped because a stream thread failed. */
    public boolean failed() {
        return streams.failed();
    }

    @Override
    public void close() {
        streams.close();
    }
}
