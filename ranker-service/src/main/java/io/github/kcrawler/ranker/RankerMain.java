package io.github.kcrawler.ranker;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Runs the ranker service on its own: {@code java -jar ranker-service-…-all.jar --bootstrap-servers host:9092}.
 * Settings come from {@code --key value} flags and {@code CRAWLER_*} environment variables ({@code --help} lists
 * them). The topics must exist (with the same partition count); the service creates only its changelog topics.
 * Exits with status 2 on bad settings, 1 if the service fails, 0 after a normal shutdown (SIGTERM).
 */
public final class RankerMain {
    private RankerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            printHelp(System.out);
            return;
        }
        RankerConfig config;
        try {
            config = RankerConfig.from(RankerConfig.SETTINGS.parse(System.getenv(), args));
        } catch (IllegalArgumentException e) {
            System.err.println("ranker: " + e.getMessage());
            System.err.println("Run with --help for the settings.");
            System.exit(2);
            return;
        }
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        int status = StreamsService.runMain(new RankerService(config, registry), registry, config.metricsHost(),
                config.metricsPort());
        if (status != 0) {
            System.exit(status);
        }
    }

    static void printHelp(PrintStream out) {
        out.print(RankerConfig.SETTINGS.help("ranker-service: page priorities from the link graph (crawl.links -> crawl.rank.deltas -> crawl.rank.scores)."));
    }
}
