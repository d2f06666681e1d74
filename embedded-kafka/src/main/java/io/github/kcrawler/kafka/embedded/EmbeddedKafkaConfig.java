package io.github.kcrawler.kafka.embedded;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of an {@link EmbeddedKafkaBroker}.
 *
 * @param dataDir   directory holding the broker's state; created if missing. The Kafka log directory is
 *                  {@code dataDir/logs}, the chosen ports are remembered in {@code dataDir/embedded-kafka.properties}.
 *                  Callers usually pass {@link #DEFAULT_DATA_DIR} ({@code ./data/kafka}).
 * @param port      client (PLAINTEXT) port; {@code 0} means "the port used last time on this data directory, or a
 *                  free one on the first start".
 * @param host      listener address; only the loopback address {@code 127.0.0.1} is allowed ({@code null} means that).
 * @param overrides extra broker settings (e.g. {@code num.partitions}, {@code message.max.bytes}); they win over
 *                  the defaults of {@link BrokerSettings#defaults()}. Settings that define the
 *                  node's identity, listeners or directories are managed by the broker and rejected here.
 * @param sasl      null for a PLAINTEXT client listener; otherwise the client listener is SASL_PLAINTEXT with the
 *                  PLAIN mechanism and this one user (the KRaft controller listener stays PLAINTEXT: it is internal
 *                  to the node). Clients then need {@link EmbeddedKafkaBroker#clientConfig()}'s security settings.
 */
public record EmbeddedKafkaConfig(Path dataDir, int port, String host, Map<String, String> overrides,
                                  SaslPlain sasl) {

    /** The data directory used by the application unless told otherwise: {@code ./data/kafka}. */
    public static final Path DEFAULT_DATA_DIR = Path.of("data", "kafka");

    /** The only listener address allowed. */
    public static final String LOOPBACK = "127.0.0.1";

    /** Broker settings that {@link EmbeddedKafkaBroker} derives itself and that callers may not override. */
    public static final Set<String> MANAGED_SETTINGS = Set.of(
            "process.roles", "node.id", "broker.id",
            "listeners", "advertised.listeners", "listener.security.protocol.map",
            "controller.listener.names", "inter.broker.listener.name", "security.inter.broker.protocol",
            "controller.quorum.voters", "controller.quorum.bootstrap.servers",
            "log.dir", "log.dirs", "metadata.log.dir");

    public EmbeddedKafkaConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535 (0 = reuse the last port or pick a free one), got " + port);
        }
        if (host == null || host.isBlank()) {
            host = LOOPBACK;
        }
        if (!LOOPBACK.equals(host)) {
            throw new IllegalArgumentException("the embedded broker listens on " + LOOPBACK + " only, got host '" + host + "'");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        if (overrides != null) {
            for (Map.Entry<String, String> e : overrides.entrySet()) {
                String key = e.getKey();
                if (key == null || key.isBlank()) {
                    throw new IllegalArgumentException("override with an empty key");
                }
                if (e.getValue() == null) {
                    throw new IllegalArgumentException("override '" + key + "' has no value");
                }
                if (MANAGED_SETTINGS.contains(key.trim())) {
                    throw new IllegalArgumentException("broker setting '" + key + "' is managed by the embedded broker"
                            + " and cannot be overridden (managed: " + MANAGED_SETTINGS + ")");
                }
                copy.put(key.trim(), e.getValue());
            }
        }
        overrides = Collections.unmodifiableMap(copy);
    }

    /** A PLAINTEXT client listener. */
    public EmbeddedKafkaConfig(Path dataDir, int port, String host, Map<String, String> overrides) {
        this(dataDir, port, host, overrides, null);
    }

    /**
     * One SASL/PLAIN user. The password is a secret: {@link #toString()} does not show it and
     * {@link EmbeddedKafkaBroker} passes it to Kafka only inside {@code sasl.jaas.config}, a value Kafka masks.
     */
    public record SaslPlain(String user, String password) {
        public SaslPlain {
            check("user", user);
            check("password", password);
        }

        private static void check(String what, String value) {
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException("SASL/PLAIN " + what + " must not be empty");
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '"' || c == '\\' || c == ';' || c < 0x20) { // they would break out of the JAAS quoting
                    throw new IllegalArgumentException("SASL/PLAIN " + what + " must not contain quotes, backslashes,"
                            + " semicolons or control characters (character " + i + ")");
                }
            }
        }

        /** The client's {@code sasl.jaas.config} for this user. */
        public String clientJaasConfig() {
            return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
                    + "\" password=\"" + password + "\";";
        }

        @Override
        public String toString() {
            return "SaslPlain[user=" + user + ", password=[hidden]]";
        }
    }

    /** Settings for {@code dataDir}, reusing the last port (or a free one), no overrides. */
    public static EmbeddedKafkaConfig of(Path dataDir) {
        return new EmbeddedKafkaConfig(dataDir, 0, LOOPBACK, Map.of());
    }

    /** Settings for {@code dataDir} listening on {@code port} (0 = last or free), no overrides. */
    public static EmbeddedKafkaConfig of(Path dataDir, int port) {
        return new EmbeddedKafkaConfig(dataDir, port, LOOPBACK, Map.of());
    }

    public EmbeddedKafkaConfig withPort(int newPort) {
        return new EmbeddedKafkaConfig(dataDir, newPort, host, overrides, sasl);
    }

    public EmbeddedKafkaConfig withDataDir(Path newDataDir) {
        return new EmbeddedKafkaConfig(newDataDir, port, host, overrides, sasl);
    }

    /** A copy with one more broker setting. */
    public EmbeddedKafkaConfig withOverride(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(overrides);
        m.put(key, value);
        return new EmbeddedKafkaConfig(dataDir, port, host, m, sasl);
    }

    /** A copy with more broker settings. */
    public EmbeddedKafkaConfig withOverrides(Map<String, String> more) {
        Map<String, String> m = new LinkedHashMap<>(overrides);
        m.putAll(more);
        return new EmbeddedKafkaConfig(dataDir, port, host, m, sasl);
    }

    /** Secret overrides (a listener's {@code sasl.jaas.config}, {@code *.password}) are shown as {@code [hidden]}. */
    @Override
    public String toString() {
        return "EmbeddedKafkaConfig[dataDir=" + dataDir + ", port=" + port + ", host=" + host + ", overrides="
                + io.github.kcrawler.common.config.KafkaSecrets.masked(overrides) + ", sasl=" + sasl + "]";
    }

    /** A copy whose client listener is SASL_PLAINTEXT (mechanism PLAIN) with one user. */
    public EmbeddedKafkaConfig withSaslPlain(String user, String password) {
        return new EmbeddedKafkaConfig(dataDir, port, host, overrides, new SaslPlain(user, password));
    }
}
