package io.github.kcrawler.dedup;

import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.service.StreamsService;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.Topology;

import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The dedup service: runs {@link DedupTopology} as Kafka Streams application {@code <topic-prefix>dedup} with
 * exactly-once v2, so an admitted URL is emitted if and only if its fingerprint is committed to the store.
 *
 * <p>Lifecycle and failure policy: {@link StreamsService}.
 */
public final class DedupService extends StreamsService {
    /** Application id before the topic prefix. */
    public static final String APPLICATION_ID = "dedup";

    private final DedupConfig config;
    private final MeterRegistry registry;

    public DedupService(DedupConfig config, MeterRegistry registry) {
        super(APPLICATION_ID, registry);
        this.config = Objects.requireNonNull(config, "config");
        this.registry = registry;
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
    public Topology topology() {
        return DedupTopology.build(config.kafka().topics(), config, registry);
    }

    @Override
    public Properties streamsProperties() {
        return StreamsDefaults.properties(config.kafka(), APPLICATION_ID, config.threads(), config.commitMs());
    }

    @Override
    protected String describe() {
        return "application.id=" + applicationId(config) + ", threads=" + config.threads() + ", commit-ms="
                + config.commitMs();
    }
}
