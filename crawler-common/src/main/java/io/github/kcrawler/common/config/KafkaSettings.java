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
    public static final Setting<String> BOOTSTRAP_SERVERS = Setting.string("bootstrap-servers", "127.0.0.1:9092",
            Check.notBlank(), "Kafka brokers to start from, host:port,...");
    public static final Setting<String> TOPIC_PREFIX = Setting.string("topic-prefix", "",
            Check.of(p -> p != null && p.matches("[a-zA-Z0-9._-]*"), "may only contain [a-zA-Z0-9._-]"),
            "prefix of every topic name and Streams application id (several crawls on one cluster)");
    public static final Setting<Integer> PARTITIONS = Setting.integer("partitions", 4, Check.range(1, 10_000),
            "partitions of every topic (the co-partitioning contract; bounds each service's parallelism)");
    public static final Setting<String> STATE_DIR = Setting.string("state-dir", Path.of("data", "state").toString(),
            Check.any(), "directory of the local state (RocksDB stores, the fetcher's instance slots)");
    /**
     * Kafka Streams stream threads of one instance. Shared by the Streams services; each gives its own rule
     * ({@link Setting#withCheck}).
     */
    public static final Setting<Integer> STREAMS_THREADS = Setting.integer("threads", 1, Check.range(1, 256),
            "Kafka Streams threads in this instance; useful up to the partitions it owns");
    /** Kafka Streams commit interval; each Streams service gives its own default ({@link Setting#withDefault}). */
    public static final Setting<Long> STREAMS_COMMIT_MS = Setting.longValue("commit-ms", 100L,
            Check.range(1, 600_000), "Kafka Streams commit interval: one exactly-once transaction per commit");

    /** The keys every service reads to reach the cluster, declared once here. */
    public static final SettingSet SETTINGS = SettingSet.of(BOOTSTRAP_SERVERS, TOPIC_PREFIX, PARTITIONS, STATE_DIR);

    public static final String DEFAULT_BOOTSTRAP = BOOTSTRAP_SERVERS.defaultValue();
    public static final int DEFAULT_PARTITIONS = PARTITIONS.defaultValue();
    public static final Path DEFAULT_STATE_DIR = Path.of(STATE_DIR.defaultValue());

    /** The keys {@link #from(Settings)} reads; services add them to their own known keys. */
    public static final Set<String> KEYS = SETTINGS.keys();

    public KafkaSettings {
        BOOTSTRAP_SERVERS.check(bootstrapServers);
        PARTITIONS.check(partitions);
        Topics.withPrefix(topicPrefix); // validates the prefix (TOPIC_PREFIX's rule)
        stateDir = stateDir == null ? DEFAULT_STATE_DIR : stateDir;
        clientOverrides = Map.copyOf(clientOverrides == null ? Map.of() : clientOverrides);
    }

    public static KafkaSettings from(Settings s) {
        return new KafkaSettings(s.get(BOOTSTRAP_SERVERS), s.get(TOPIC_PREFIX), s.get(PARTITIONS),
                Path.of(s.get(STATE_DIR)), s.kafkaOverrides());
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
