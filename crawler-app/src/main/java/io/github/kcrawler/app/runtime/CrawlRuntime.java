package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaConfig;
import io.github.kcrawler.kafka.embedded.TopicProvisioner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One crawler process: an embedded KRaft broker (unless bootstrap servers are given), the topic catalogue created
 * with one partition count and checked writable, and the four services started in dependency order. Closing stops
 * the services first and the broker last, so every service commits what it finished.
 */
public final class CrawlRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlRuntime.class);

    private final EmbeddedKafkaBroker broker;
    private final KafkaSettings kafka;
    private final Admin admin;
    private final List<CrawlerService> services = new ArrayList<>();

    private CrawlRuntime(EmbeddedKafkaBroker broker, KafkaSettings kafka, Admin admin) {
        this.broker = broker;
        this.kafka = kafka;
        this.admin = admin;
    }

    /**
     * Starts the broker if {@code bootstrapServers} is empty, then provisions topics.
     *
     * @param dataDir the crawl's directory: {@code kafka/} (embedded broker), {@code state/} (Streams stores)
     */
    public static CrawlRuntime start(Path dataDir, Optional<String> bootstrapServers, String topicPrefix,
                                     int partitions, Map<String, String> kafkaOverrides) {
        EmbeddedKafkaBroker broker = null;
        String bootstrap;
        if (bootstrapServers.isPresent()) {
            bootstrap = bootstrapServers.get();
            LOG.info("Using the Kafka cluster at {}", bootstrap);
        } else {
            broker = EmbeddedKafkaBroker.start(EmbeddedKafkaConfig.of(dataDir.resolve("kafka"))
                    .withOverride("num.partitions", Integer.toString(partitions)));
            bootstrap = broker.bootstrapServers();
            LOG.info("Embedded Kafka broker running at {} (data in {})", bootstrap, broker.dataDir());
        }
        KafkaSettings kafka = new KafkaSettings(bootstrap, topicPrefix, partitions, dataDir.resolve("state"),
                kafkaOverrides);
        Admin admin = Admin.create(kafka.clientProperties(Map.of()));
        CrawlRuntime runtime = new CrawlRuntime(broker, kafka, admin);
        try {
            List<NewTopic> topics = kafka.topics().allNames().stream()
                    .map(name -> new NewTopic(name, Optional.of(partitions), Optional.empty())).toList();
            var created = TopicProvisioner.ensureTopics(admin, topics, Duration.ofSeconds(60));
            LOG.info("Topics ready: {} partitions each ({} created now)", partitions, created.size());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /** Creates Streams internal topics up front (KAFKA-15591: a fresh topic can stall an idempotent producer). */
    public void provisionInternalTopics(List<String> names) {
        List<NewTopic> topics = names.stream()
                .map(name -> new NewTopic(name, Optional.of(kafka.partitions()), Optional.empty())
                        .configs(Map.of("cleanup.policy", "compact")))
                .toList();
        TopicProvisioner.ensureTopics(admin, topics, Duration.ofSeconds(60));
    }

    /**
     * Creates the service's internal topics, starts it and keeps it for {@link #close()}.
     *
     * @param internalTopics the Streams changelog topics it will use (empty for plain consumers)
     */
    public <S extends CrawlerService> S startService(S service, List<String> internalTopics) {
        services.add(service);
        if (!internalTopics.isEmpty()) {
            provisionInternalTopics(internalTopics);
        }
        service.start();
        LOG.info("Service {} started", service.name());
        return service;
    }

    public KafkaSettings kafka() {
        return kafka;
    }

    public Topics topics() {
        return kafka.topics();
    }

    public Admin admin() {
        return admin;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public boolean healthy() {
        return services.stream().allMatch(CrawlerService::isHealthy);
    }

    /** Every service settled: running as configured, no stream thread being replaced (see {@link IdleRule}). */
    public boolean settled() {
        return services.stream().allMatch(CrawlerService::settled);
    }

    /** Why services died or gave up, one sentence each; empty while all are healthy. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (CrawlerService s : services) {
            if (!s.isHealthy()) {
                String p = s.problem();
                problems.add(p != null ? p : s.name() + " is unhealthy; see the log");
            }
        }
        return problems;
    }

    /** The dead letters of every Streams service of this process. */
    public DeadLetterSummary deadLetters() {
        return DeadLetterSummary.of(services.stream().flatMap(s -> s.deadLetters().stream()).toList());
    }

    public List<CrawlerService> services() {
        return List.copyOf(services);
    }

    @Override
    public void close() {
        for (int i = services.size() - 1; i >= 0; i--) {
            CrawlerService s = services.get(i);
            try {
                s.close();
                LOG.info("Service {} stopped", s.name());
            } catch (RuntimeException e) {
                LOG.warn("Service {} did not stop cleanly: {}", s.name(), e.toString());
            }
        }
        services.clear();
        admin.close(Duration.ofSeconds(5));
        if (broker != null) {
            broker.close();
            LOG.info("Embedded Kafka broker stopped");
        }
    }
}
