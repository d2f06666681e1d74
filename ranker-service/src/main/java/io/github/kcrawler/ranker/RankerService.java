package io.github.kcrawler.ranker;

import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.service.StreamsService;
import io.github.kcrawler.common.topic.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The ranker service: runs {@link RankerTopology} as Kafka Streams application {@code <topic-prefix>ranker} with
 * exactly-once v2, so each link list's deltas, each score change and each published score are committed exactly
 * once with the input that caused them. Before it starts it checks that the topics have the configured partition
 * count ({@link PartitionCountCheck}), by which the ranker routes its deltas.
 *
 * <p>Lifecycle and failure policy: {@link StreamsService}.
 */
public final class RankerService extends StreamsService {
    /** Application id before the topic prefix. */
    public static final String APPLICATION_ID = "ranker";

    private final RankerConfig config;
    private final MeterRegistry registry;

    public RankerService(RankerConfig config, MeterRegistry registry) {
        super(APPLICATION_ID, registry);
        this.config = Objects.requireNonNull(config, "config");
        this.registry = registry;
    }

    /** The full application id: topic prefix + {@value #APPLICATION_ID}. */
    public static String applicationId(RankerConfig config) {
        return config.kafka().topicPrefix() + APPLICATION_ID;
    }

    /** Internal (changelog) topics this service uses, for tools that create every topic up front. */
    public static List<String> internalTopics(RankerConfig config) {
        return RankerTopology.internalTopics(applicationId(config), config);
    }

    @Override
    public Topology topology() {
        return RankerTopology.build(config.kafka().topics(), config, registry);
    }

    @Override
    public Properties streamsProperties() {
        return StreamsDefaults.properties(config.kafka(), APPLICATION_ID, config.threads(), config.commitMs());
    }

    @Override
    protected void beforeStart() {
        Topics topics = config.kafka().topics();
        List<String> checked = new ArrayList<>(RankerTopology.inputTopics(topics));
        checked.add(topics.rankScores.name());
        PartitionCountCheck.verify(config.kafka(), checked);
    }

    @Override
    protected String describe() {
        return "application.id=" + applicationId(config) + ", threads=" + config.threads() + ", commit-ms="
                + config.commitMs() + ", flush-ms=" + config.flushMs() + ", ranking=" + config.ranking().key();
    }
}
