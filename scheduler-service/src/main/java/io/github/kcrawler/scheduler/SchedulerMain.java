package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the scheduler service alone: settings from {@code CRAWLER_*} variables and {@code --key value} flags, a
 * Prometheus endpoint, and a shutdown hook that closes both. {@code --help} lists every setting with its default.
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
        SchedulerService service = new SchedulerService(config, registry, CrawlClock.SYSTEM);
        MetricsServer metrics = MetricsServer.start(registry, config.metricsHost(), config.metricsPort(),
                service::isHealthy);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            metrics.close();
            stopped.countDown();
        }, "scheduler-shutdown"));
        service.start();
        stopped.await();
    }

    static void printHelp(PrintStream out) {
        out.print(SchedulerConfig.SETTINGS.help("Usage: scheduler [--key value]...   (or environment variables CRAWLER_KEY)\n"
                + "Releases admitted URLs as fetch requests, best score first, at most one per IP every "
                + "politeness-ms.\n"));
    }
}
