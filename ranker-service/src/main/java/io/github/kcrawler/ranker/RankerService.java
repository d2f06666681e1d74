package io.github.kcrawler.ranker;

import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.topic.Topics;
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
 * The ranker service: runs {@link RankerTopology} as Kafka Streams application {@code <topic-prefix>ranker} with
 * exactly-once v2, so each link list's deltas, each score change and each published score are committed exactly
 * once with the input that caused them. Before it starts it checks that the topics have the configured partition
 * count ({@link PartitionCountCheck}), by which the ranker routes its work (a source page fetched twice is still counted twice, see
 * {@code BacklinkCounter}).
 *
 * <p>Lifecycle and failure policy: {@link StreamsRunner}.
 */
public final class RankerService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(RankerService.class);
    /** Application id before the topic prefix. */
    public static final String APPLICATION_ID = "ranker";

    private final RankerConfig config;
    private final StreamsRunner streams;

    public RankerService(RankerConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        Topology topology = RankerTopology.build(config.kafka().topics(), config, registry);
        this.streams = new StreamsRunner(APPLICATION_ID, topology,
                StreamsDefaults.properties(config.kafka(), APPLICATION_ID, config.threads(), config.commitMs()),
                registry);
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
    public String name() {
        return APPLICATION_ID;
    }

    @Override
    public void start() {
        Topics topics = config.kafka().topics();
        PartitionCountCheck.verify(config.kafka(), List.of(topics.links.name(), topics.rankDeltas.name(),
                topics.rankScores.name()));
        streams.start();
        LOG.info("ranker service started: application.id={}, threads={}, commit-ms={}, flush-ms={}",
                applicationId(config), config.threads(), config.commitMs(), config.flushMs());
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
