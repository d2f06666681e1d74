package io.github.kcrawler.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the apache/kafka image does at start, from its environment (docker/resources/common-scripts of Apache
 * Kafka: {@code run} → {@code configureDefaults} → {@code configure} → {@code launch}): unset variables of its
 * default single-node set-up are filled in; {@code KAFKA_LISTENERS} defaults to the advertised listeners on all
 * interfaces; every {@code KAFKA_*} variable but a few JVM ones becomes a property (prefix dropped, {@code _} →
 * {@code .}, {@code __} → {@code _}, {@code ___} → {@code -}, lower case, by the image's own regular expression);
 * the log directory is formatted with {@code kafka-storage.sh format --cluster-id=$CLUSTER_ID} (the Kafka release's
 * default features: transaction.version 2 in 4.x) unless already formatted; then {@code kafka-server-start.sh}.
 */
final class KafkaImage {
    /** configureDefaults: applied to unset (or empty) variables when KAFKA_ZOOKEEPER_CONNECT is unset. */
    static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry("CLUSTER_ID", "5L6g3nShT-eMCtK--X86sw"),
            Map.entry("KAFKA_NODE_ID", "1"),
            Map.entry("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PLAINTEXT_HOST:PLAINTEXT"),
            Map.entry("KAFKA_LISTENERS", "PLAINTEXT://localhost:29092,CONTROLLER://localhost:29093,PLAINTEXT_HOST://0.0.0.0:9092"),
            Map.entry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://localhost:29092,PLAINTEXT_HOST://localhost:9092"),
            Map.entry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1"),
            Map.entry("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0"),
            Map.entry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1"),
            Map.entry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1"),
            Map.entry("KAFKA_PROCESS_ROLES", "broker,controller"),
            Map.entry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:29093"),
            Map.entry("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT"),
            Map.entry("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER"),
            Map.entry("KAFKA_LOG_DIRS", "/tmp/kraft-combined-logs"));
    /** kafka-propertiesSpec.json "excludes" (KAFKA_HEAP_OPT is spelled so there: KAFKA_HEAP_OPTS is rendered). */
    static final Set<String> EXCLUDES = Set.of("KAFKA_VERSION", "KAFKA_HEAP_OPT", "KAFKA_LOG4J_OPTS", "KAFKA_OPTS",
            "KAFKA_JMX_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_GC_LOG_OPTS", "KAFKA_LOG4J_ROOT_LOGLEVEL",
            "KAFKA_LOG4J_LOGGERS", "KAFKA_TOOLS_LOG4J_LOGLEVEL");
    private static final Pattern SINGLE = Pattern.compile("[^_]_[^_]");

    private KafkaImage() {
    }

    /** The image's ConvertKey. */
    static String convertKey(String key) {
        Matcher m = SINGLE.matcher(key);
        String single = m.replaceAll(r -> Matcher.quoteReplacement(r.group().replace('_', '.')));
        return single.replace("___", "-").replace("__", "_").toLowerCase(java.util.Locale.ROOT);
    }

    /** The environment after configureDefaults and configure's KAFKA_LISTENERS default. */
    static Map<String, String> effectiveEnv(Map<String, String> env) {
        Map<String, String> e = new LinkedHashMap<>(env);
        if (!e.containsKey("KAFKA_ZOOKEEPER_CONNECT")) {
            DEFAULTS.forEach((k, v) -> {
                if (e.getOrDefault(k, "").isEmpty()) {
                    e.put(k, v);
                }
            });
        }
        return e;
    }

    /** server.properties as the image renders it (sorted, as writeConfig does). */
    static Map<String, String> serverProperties(Map<String, String> env) {
        Map<String, String> props = new TreeMap<>();
        for (Map.Entry<String, String> e : effectiveEnv(env).entrySet()) {
            if (e.getKey().startsWith("KAFKA") && !EXCLUDES.contains(e.getKey()) && e.getKey().length() > 6) {
                props.put(convertKey(e.getKey().substring("KAFKA".length() + 1)), e.getValue());
            }
        }
        return props;
    }

    /**
     * Starts the image as container {@code name}: formats its log directory as {@code launch} does (cluster id from
     * CLUSTER_ID, default features) and starts the broker with the rendered properties, JVM heap from
     * KAFKA_HEAP_OPTS. Listeners bound to all interfaces bind the container's address; container paths are mapped.
     */
    static Process start(LocalContainers c, String name, Map<String, String> env, LocalContainers.Mounts mounts,
                         String memLimit) throws Exception {
        Map<String, String> props = new TreeMap<>(serverProperties(env));
        props.computeIfPresent("listeners", (k, v) -> c.bindOwnAddress(name, v));
        props.computeIfPresent("log.dirs", (k, v) -> String.join(",",
                java.util.Arrays.stream(v.split(",")).map(mounts::map).toList()));
        props.computeIfPresent("metadata.log.dir", (k, v) -> mounts.map(v));
        Path conf = Files.createDirectories(c.work().resolve("rootfs").resolve(name).resolve("opt/kafka/config"))
                .resolve("server.properties");
        StringBuilder sb = new StringBuilder();
        props.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        Files.writeString(conf, sb.toString());

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Map<String, String> e = effectiveEnv(env);
        List<String> format = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        format.addAll(c.jvmFlags(null, 0));
        format.addAll(List.of("-cp", cp, "kafka.tools.StorageTool", "format", "--cluster-id=" + e.get("CLUSTER_ID"),
                "-c", conf.toString()));
        int rc = c.run(name + "-format", format, Map.of(), Duration.ofMinutes(2));
        if (rc != 0 && !c.log(name + "-format").toLowerCase(Locale.ROOT).contains("already formatted")) {
            throw new AssertionError("kafka-storage.sh format failed:\n" + c.log(name + "-format"));
        }
        List<String> server = new ArrayList<>(List.of(java));
        String heap = e.getOrDefault("KAFKA_HEAP_OPTS", "-Xmx1G -Xms1G");
        server.addAll(List.of(heap.trim().split("\\s+")));
        server.addAll(c.jvmFlags(memLimit, 0));
        server.addAll(List.of("-cp", cp, "kafka.Kafka", conf.toString()));
        return c.start(name, server, Map.of());
    }
}
