package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.KafkaReachability;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one fetcher instance: {@code java -jar fetcher-service-*-all.jar [--key value ...]} (or {@code CRAWLER_*}
 * environment variables), with Prometheus metrics on {@code metrics-host:metrics-port}. {@code --help} lists every
 * key with its default. Stops cleanly on SIGTERM: running fetches get {@code revoke-wait-ms} to finish, complete
 * offsets are committed, the WARC file is closed.
 */
public final class FetcherMain {
    private FetcherMain() {
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.out.print(FetcherConfig.help());
            return;
        }
        Settings settings;
        FetcherConfig config;
        String metricsHost;
        int metricsPort;
        try {
            settings = FetcherConfig.SETTINGS.parse(System.getenv(), args);
            config = FetcherConfig.from(settings);
            metricsHost = CommonSettings.METRICS_HOST.check(settings.get(CommonSettings.METRICS_HOST));
            metricsPort = CommonSettings.METRICS_PORT.check(settings.get(CommonSettings.METRICS_PORT));
        } catch (IllegalArgumentException e) {
            System.err.println("fetcher: " + e.getMessage());
            System.err.println("Run with --help for the list of settings.");
            System.exit(2);
            return;
        }
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        FetcherService service = new FetcherService(config, registry, CrawlClock.SYSTEM);
        service.start();
        // /health is also false while no broker answers (issue 23): the consumer and producer alone never fail on it
        KafkaReachability kafka = KafkaReachability.start(config.kafka().clientProperties(java.util.Map.of()),
                CrawlClock.SYSTEM, KafkaReachability.DEFAULT_UNREACHABLE_AFTER);
        MetricsServer metrics = MetricsServer.start(registry, metricsHost, metricsPort,
                () -> service.isHealthy() && kafka.reachable());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            service.close();
            metrics.close();
            stopped.countDown();
        }, "fetcher-shutdown"));
        stopped.await();
    }
}
