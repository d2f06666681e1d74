package io.github.kcrawler.app.cli;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kafka client settings for the commands that talk to a cluster without running the services ({@code seed},
 * {@code status}): {@code --kafka NAME=VALUE} flags and {@code CRAWLER_KAFKA_*} environment variables, the same
 * pass-through the services take ({@code security.protocol}, {@code sasl.*}, {@code ssl.*} ...). A flag wins over the
 * environment; secrets belong in the environment, not on a command line every local user can read.
 */
public final class KafkaClientOptions {
    @Option(names = "--kafka", paramLabel = "NAME=VALUE",
            description = "A Kafka client setting, --kafka.NAME=VALUE as every service takes it, e.g. "
                    + "--kafka.security.protocol=SASL_SSL (repeatable; the older --kafka NAME=VALUE is deprecated). Also "
                    + "read from CRAWLER_KAFKA_* variables (CRAWLER_KAFKA_SASL_JAAS_CONFIG=...): use those for secrets.")
    Map<String, String> flags = new LinkedHashMap<>();

    /** The environment's settings overlaid with the flags. */
    Map<String, String> overrides(Map<String, String> env) {
        Map<String, String> all = new LinkedHashMap<>(Settings.kafkaFromEnv(env));
        all.putAll(flags);
        return all;
    }

    KafkaSettings settings(String bootstrapServers, String topicPrefix, Map<String, String> env) {
        return new KafkaSettings(bootstrapServers, topicPrefix, KafkaSettings.DEFAULT_PARTITIONS, null,
                overrides(env));
    }
}
