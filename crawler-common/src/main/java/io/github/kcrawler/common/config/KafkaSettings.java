package io.github.kcrawler.common.config;

import io.github.kcrawler.common.topic.Topics;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * What every service needs to reach the cluster: bootstrap servers, the topic prefix, the partition count shared by
 * all topics, where local state lives, and Kafka client settings passed through unchanged.
 *
 * @param partitions the co-partitioning contract: every topic has this many partitions; it bounds each service's
 *                   parallelism, so choose it for the largest fleet planned
 */
public record KafkaSettings(String bootstrapServers, String topicPrefix, int partitions, Path stateDir,
                            Map<String, String> clientOverrides) {
    public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";
    public static final int DEFAULT_PARTITIONS = 4;
    public static final Path DEFAULT_STATE_DIR = Path.of("data", "state");

    /** The keys {@link #from(Settings)} reads; services add them to their own known keys. */
    public static final Set<String> KEYS = Set.of("bootstrap-servers", "topic-prefix", "partitions", "state-dir");

    public KafkaSettings {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers must not be empty, was '" + bootstrapServers + "'");
        }
        if (partitions < 1 || partitions > 10_000) {
            throw new IllegalArgumentException("partitions must be in 1..10000, was " + partitions);
        }
        Topics.withPrefix(topicPrefix); // validates the prefix
        stateDir = stateDir == null ? DEFAULT_STATE_DIR : stateDir;
        clientOverrides = Map.copyOf(clientOverrides == null ? Map.of() : clientOverrides);
    }

    public static KafkaSettings from(Settings s) {
        return new KafkaSettings(s.string("bootstrap-servers", DEFAULT_BOOTSTRAP), s.string("topic-prefix", ""),
                s.integer("partitions", DEFAULT_PARTITIONS), Path.of(s.string("state-dir", DEFAULT_STATE_DIR.toString())),
                s.kafkaOverrides());
    }

    public Topics topics() {
        return Topics.withPrefix(topicPrefix);
    }

    /** Base client properties: bootstrap servers plus the pass-through overrides (applied last by callers). */
    public Properties baseProperties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }

    /** Applies the pass-through overrides on top of a service's own client settings. */
    public Properties withOverrides(Properties props) {
        props.putAll(clientOverrides);
        return props;
    }

    /**
     * Settings for one Kafka client that is not a service's main client (an admin client, a seed producer, a lag
     * probe, the status page's tail): bootstrap servers, then the client's own settings, then the pass-through
     * overrides, so security settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}) reach every client
     * the process creates, exactly as they reach the services' own.
     */
    public Map<String, Object> clientProperties(Map<String, ?> own) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("bootstrap.servers", bootstrapServers);
        p.putAll(own);
        p.putAll(clientOverrides);
        return p;
    }

    /** Secret overrides ({@code sasl.jaas.config}, {@code *.password} ...) are shown as {@code [hidden]}. */
    @Override
    public String toString() {
        return "KafkaSettings[bootstrapServers=" + bootstrapServers + ", topicPrefix=" + topicPrefix + ", partitions="
                + partitions + ", stateDir=" + stateDir + ", clientOverrides=" + KafkaSecrets.masked(clientOverrides)
                + "]";
    }
}
