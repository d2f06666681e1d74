package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Runs the scheduler service alone: settings from {@code CRAWLER_*} variables and {@code --key value} flags, a
 * Prometheus endpoint, and a shutdown hook that closes both ({@link StreamsService#runMain}). {@code --help} lists
 * every setting with its default. Exits with status 2 on bad settings, 1 if the service fails, 0 after a normal
 * shutdown (SIGTERM).
 */
public final class SchedulerMain {
    private SchedulerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            printHelp(System.out);
            return;
        }
        SchedulerConfig config;
        try {
            config = SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS, System.getenv(), args));
        } catch (IllegalArgumentException e) {
            System.err.println("scheduler: " + e.getMessage());
            System.err.println("Run with --help for the list of settings.");
            System.exit(2);
            return;
        }
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        int status = StreamsService.runMain(new SchedulerService(config, registry, CrawlClock.SYSTEM), registry,
                config.metricsHost(), config.metricsPort());
        if (status != 0) {
            System.exit(status);
        }
    }

    static void printHelp(PrintStream out) {
        Map<String, String> kafkaDefaults = Map.of("bootstrap-servers", KafkaSettings.DEFAULT_BOOTSTRAP,
                "topic-prefix", "", "partitions", Integer.toString(KafkaSettings.DEFAULT_PARTITIONS),
                "state-dir", KafkaSettings.DEFAULT_STATE_DIR.toString());
        Map<String, String> all = new LinkedHashMap<>(SchedulerConfig.OWN_DEFAULTS);
        for (String key : new TreeSet<>(KafkaSettings.KEYS)) {
            all.put(key, kafkaDefaults.getOrDefault(key, ""));
        }
        out.println("Usage: scheduler [--key value]...   (or environment variables CRAWLER_KEY)");
        out.println("Releases admitted URLs as fetch requests, best score first, at most one per IP every "
                + "politeness-ms.");
        out.println();
        for (Map.Entry<String, String> e : all.entrySet()) {
            String value = e.getValue().isEmpty() ? "\"\"" : e.getValue();
            out.printf("  --%-20s default %-16s env %s%n", e.getKey(), value, Settings.envName(e.getKey()));
        }
        out.println(Settings.KAFKA_HELP);
    }
}
