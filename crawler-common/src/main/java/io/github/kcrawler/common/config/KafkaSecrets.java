package io.github.kcrawler.common.config;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which Kafka client settings are secrets, so that nothing of ours prints them. Kafka masks its own
 * {@code Password}-typed values ({@code [hidden]}) when it logs a client's configuration, but the pass-through
 * overrides are plain strings on our side until a client parses them: a record's {@code toString}, a start-up line
 * or a config dump would print {@code sasl.jaas.config} with its password in clear.
 *
 * <p>A key is secret when Kafka declares it as a password in the producer, consumer, admin or Streams
 * configuration (after stripping Streams' {@code producer.}/{@code consumer.}/{@code admin.}… prefixes and a
 * broker's {@code listener.name.<listener>.[<mechanism>.]} prefix), or when its name says so ({@code password},
 * {@code secret}, {@code jaas}, {@code credential}, {@code token}): a key from a newer Kafka or a plug-in is masked
 * too.
 */
public final class KafkaSecrets {
    /** What a secret value is shown as; the same text Kafka uses. */
    public static final String HIDDEN = "[hidden]";

    private static final Set<String> PASSWORD_KEYS = passwordKeys();
    private static final String[] NAME_HINTS = {"password", "secret", "jaas", "credential", "token"};
    private static final String[] CLIENT_PREFIXES = {"main.consumer.", "restore.consumer.", "global.consumer.",
            "consumer.", "producer.", "admin."};

    private KafkaSecrets() {
    }

    /** True if the value of {@code key} (a Kafka client or broker setting) must never be printed. */
    public static boolean isSecret(String key) {
        if (key == null) {
            return false;
        }
        String k = key.trim().toLowerCase(Locale.ROOT);
        for (String hint : NAME_HINTS) {
            if (k.contains(hint)) {
                return true;
            }
        }
        if (PASSWORD_KEYS.contains(k)) {
            return true;
        }
        for (String prefix : CLIENT_PREFIXES) {
            if (k.startsWith(prefix) && PASSWORD_KEYS.contains(k.substring(prefix.length()))) {
                return true;
            }
        }
        if (k.startsWith("listener.name.")) { // listener.name.<listener>.[<mechanism>.]<key>
            for (int i = k.indexOf('.', "listener.name.".length()); i >= 0; i = k.indexOf('.', i + 1)) {
                if (PASSWORD_KEYS.contains(k.substring(i + 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A sorted copy of {@code settings} with every secret value replaced by {@link #HIDDEN}; for printing only. */
    public static Map<String, String> masked(Map<String, ?> settings) {
        Map<String, String> out = new TreeMap<>();
        settings.forEach((k, v) -> out.put(k, isSecret(k) ? HIDDEN : String.valueOf(v)));
        return out;
    }

    private static Set<String> passwordKeys() {
        Set<String> keys = new TreeSet<>();
        for (ConfigDef def : new ConfigDef[]{ProducerConfig.configDef(), ConsumerConfig.configDef(),
                AdminClientConfig.configDef(), StreamsConfig.configDef()}) {
            def.configKeys().forEach((name, key) -> {
                if (key.type == ConfigDef.Type.PASSWORD) {
                    keys.add(name);
                }
            });
        }
        return Set.copyOf(keys);
    }
}
