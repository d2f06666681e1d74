package io.github.kcrawler.kafka.embedded;

import kafka.server.KafkaConfig;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker.CLIENT_LISTENER;
import static io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker.CONTROLLER_LISTENER;
import static io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker.SASL_CLIENT_LISTENER;

/**
 * What the embedded single-node KRaft broker ({@link EmbeddedKafkaBroker}) is configured with: laptop-sized defaults,
 * then the caller's overrides ({@link EmbeddedKafkaConfig#overrides()}), then the settings that define the node —
 * roles, node id, listeners on the configured host, SASL/PLAIN when asked for, and the log directory — which no
 * override can change; and how a new log directory is formatted ({@link #format}).
 */
final class BrokerSettings {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerSettings.class);

    /** {@code transaction.state.log.segment.bytes} unless overridden: 4 MiB. */
    static final int TRANSACTION_LOG_SEGMENT_BYTES = 4 * 1024 * 1024;

    private BrokerSettings() {
    }

    /**
     * The broker settings applied before the caller's overrides: single-node replication factors, no topic
     * auto-creation, fast group rebalances, laptop-sized segments, threads and cleaner memory.
     */
    static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("num.partitions", "4");
        m.put("default.replication.factor", "1");
        m.put("min.insync.replicas", "1");
        m.put("auto.create.topics.enable", "false");
        m.put("delete.topic.enable", "true");
        m.put("offsets.topic.replication.factor", "1");
        m.put("offsets.topic.num.partitions", "10");
        m.put("transaction.state.log.replication.factor", "1");
        m.put("transaction.state.log.min.isr", "1");
        m.put("transaction.state.log.num.partitions", "10");
        // Kafka's 100 MiB: every restart reads this log before the broker starts (LastTransactions), and only rolled
        // segments are compacted, so the segment size bounds that read (~21 transactions a second in bench e2e)
        m.put("transaction.state.log.segment.bytes", String.valueOf(TRANSACTION_LOG_SEGMENT_BYTES));
        m.put("share.coordinator.state.topic.replication.factor", "1");
        m.put("share.coordinator.state.topic.min.isr", "1");
        m.put("share.coordinator.state.topic.num.partitions", "5");
        m.put("group.initial.rebalance.delay.ms", "0");
        m.put("group.streams.initial.rebalance.delay.ms", "0");
        m.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
        m.put("log.retention.hours", "168");
        m.put("log.retention.check.interval.ms", "60000");
        m.put("log.cleaner.dedupe.buffer.size", String.valueOf(32 * 1024 * 1024));
        m.put("num.network.threads", "2");
        m.put("num.io.threads", "4");
        m.put("background.threads", "4");
        m.put("num.recovery.threads.per.data.dir", "2");
        m.put("server.max.startup.time.ms", "60000");
        return m;
    }

    /** Every setting of one broker: {@link #defaults()}, the caller's overrides, then the node's own settings. */
    static Map<String, String> of(EmbeddedKafkaConfig config, int nodeId, int port, int controllerPort, Path logDir) {
        String host = config.host();
        Map<String, String> m = defaults();
        m.putAll(config.overrides());
        m.put("process.roles", "broker,controller");
        m.put("node.id", String.valueOf(nodeId));
        m.put("controller.quorum.voters", nodeId + "@" + host + ":" + controllerPort);
        EmbeddedKafkaConfig.SaslPlain sasl = config.sasl();
        String client = sasl == null ? CLIENT_LISTENER : SASL_CLIENT_LISTENER;
        m.put("listeners", client + "://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
        m.put("advertised.listeners", client + "://" + host + ":" + port);
        m.put("listener.security.protocol.map", client + ":" + client + "," + CONTROLLER_LISTENER + ":PLAINTEXT");
        m.put("controller.listener.names", CONTROLLER_LISTENER);
        m.put("inter.broker.listener.name", client);
        if (sasl != null) {
            // The broker's own clients on this listener log in as the same user; user_<name> is the PLAIN user list.
            m.put("sasl.enabled.mechanisms", "PLAIN");
            m.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
            m.put("listener.name." + client.toLowerCase(Locale.ROOT) + ".plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + sasl.user()
                            + "\" password=\"" + sasl.password() + "\" user_" + sasl.user() + "=\""
                            + sasl.password() + "\";");
        }
        m.put("log.dirs", logDir.toString());
        return m;
    }

    static final String TRANSACTION_VERSION_FEATURE = "transaction.version";
    static final short TRANSACTION_VERSION = 1;

    /**
     * Formats a new log directory as {@code kafka-storage format} would, with the feature levels the broker runs at.
     */
    static void format(KafkaConfig kafkaConfig, String clusterId, int nodeId, Path logDir) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(ps)
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(kafkaConfig.metadataLogDir())
                    .addDirectory(logDir.toString())
                    .setUnstableFeatureVersionsEnabled(false)
                    // Transactions v2 (KIP-890 part 2) rejects a non-zero first sequence on a partition without
                    // producer state (KAFKA-18202) as a retriable error; seen here, a Streams producer then retries
                    // the same batch forever and the crawl stalls mid-run. Level 1 keeps exactly-once (KIP-447
                    // EOS v2 does not need it) with partition verification, and none of that stall.
                    .setFeatureLevel(TRANSACTION_VERSION_FEATURE, TRANSACTION_VERSION)
                    .setIgnoreFormatted(false)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka log directory " + logDir + ": " + e.getMessage(), e);
        }
        LOG.debug("Kafka formatter: {}", out.toString(StandardCharsets.UTF_8).trim());
    }
}
