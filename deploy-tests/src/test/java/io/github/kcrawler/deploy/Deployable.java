package io.github.kcrawler.deploy;

import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.ranker.RankerService;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The four services as a deployment sees them: compose service / k8s workload name, Maven module (and image),
 * the settings the service declares and its own parser-plus-validator, so the tests judge deployment files with the
 * very declarations and code the service runs at start-up.
 */
enum Deployable {
    FETCHER("fetcher", "fetcher-service", false, FetcherConfig.SETTINGS, FetcherConfig::from),
    DEDUP("dedup", "dedup-service", true, DedupConfig.SETTINGS, DedupConfig::from),
    SCHEDULER("scheduler", "scheduler-service", true, SchedulerConfig.SETTINGS, SchedulerConfig::from),
    RANKER("ranker", "ranker-service", true, RankerConfig.SETTINGS, RankerConfig::from);

    final String serviceName;
    final String module;
    final boolean streams;
    /** The service's declarations: the keys it accepts, their defaults, rules and descriptions. */
    final SettingSet settings;
    final Set<String> keys;
    private final Function<Settings, Object> from;

    Deployable(String serviceName, String module, boolean streams, SettingSet settings,
               Function<Settings, Object> from) {
        this.serviceName = serviceName;
        this.module = module;
        this.streams = streams;
        this.settings = settings;
        this.keys = settings.keys();
        this.from = from;
    }

    static Deployable byServiceName(String name) {
        for (Deployable d : values()) {
            if (d.serviceName.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** The image repository compose and the k8s base use: {@code kcrawler/<module>}. */
    String imageRepository() {
        return "kcrawler/" + module;
    }

    /**
     * Starts the service's configuration exactly as its main class does ({@code Settings.parse} over the
     * environment and the flags, then the typed config's {@code from}); throws naming every unknown key or bad value.
     */
    Object configure(Map<String, String> env, List<String> args) {
        return from.apply(settings.parse(env, args.toArray(String[]::new)));
    }

    /** Kafka client settings passed with {@code --kafka.<name>}: is {@code name} one the clients of this service know? */
    boolean acceptsKafkaSetting(String name) {
        Set<String> clients = new LinkedHashSet<>(ConsumerConfig.configNames());
        clients.addAll(ProducerConfig.configNames());
        if (!streams) {
            return clients.contains(name);
        }
        if (StreamsConfig.configDef().names().contains(name) || clients.contains(name)
                || AdminClientConfig.configNames().contains(name)) {
            return true;
        }
        for (String prefix : List.of(StreamsConfig.CONSUMER_PREFIX, StreamsConfig.MAIN_CONSUMER_PREFIX,
                StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.GLOBAL_CONSUMER_PREFIX)) {
            if (name.startsWith(prefix) && ConsumerConfig.configNames().contains(name.substring(prefix.length()))) {
                return true;
            }
        }
        if (name.startsWith(StreamsConfig.PRODUCER_PREFIX)
                && ProducerConfig.configNames().contains(name.substring(StreamsConfig.PRODUCER_PREFIX.length()))) {
            return true;
        }
        return name.startsWith(StreamsConfig.ADMIN_CLIENT_PREFIX)
                && AdminClientConfig.configNames().contains(name.substring(StreamsConfig.ADMIN_CLIENT_PREFIX.length()));
    }

    /** Topics the pipeline needs, then the Streams changelogs of every service with default settings. */
    static List<String> pipelineTopics() {
        return Topics.defaults().allNames();
    }

    static List<String> changelogTopics() {
        List<String> names = new ArrayList<>();
        Map<String, String> noEnv = Map.of();
        names.addAll(DedupService.internalTopics((DedupConfig) DEDUP.configure(noEnv, List.of())));
        names.addAll(SchedulerTopology.changelogTopics((SchedulerConfig) SCHEDULER.configure(noEnv, List.of())));
        names.addAll(RankerService.internalTopics((RankerConfig) RANKER.configure(noEnv, List.of())));
        return names;
    }
}
