package io.github.kcrawler.kafka.embedded;

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
 * override can change.
 */
final class BrokerSettings {

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
}
