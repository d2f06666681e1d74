package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.PrintStream;
import java.util.Arrays;

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
            config = SchedulerConfig.from(SchedulerConfig.SETTINGS.parse(System.getenv(), args));
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
        out.print(SchedulerConfig.SETTINGS.help("Usage: scheduler [--key value]...   (or environment variables CRAWLER_KEY)\n"
                + "Releases admitted URLs as fetch requests, best score first, at most one per IP every "
                + "politeness-ms.\n"));
    }
}
