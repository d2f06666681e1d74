package io.github.kcrawler.dedup;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Runs the dedup service on its own: {@code java -jar dedup-service-…-all.jar --bootstrap-servers host:9092}.
 * Settings come from {@code --key value} flags and {@code CRAWLER_*} environment variables ({@code --help} lists
 * them). The topics must exist (with the same partition count); the service creates only its changelog topic.
 * Exits with status 2 on bad settings, 1 if the service fails, 0 after a normal shutdown (SIGTERM).
 */
public final class DedupMain {
    private DedupMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            printHelp(System.out);
            return;
        }
        DedupConfig config;
        try {
            config = DedupConfig.from(DedupConfig.SETTINGS.parse(System.getenv(), args));
        } catch (IllegalArgumentException e) {
            System.err.println("dedup: " + e.getMessage());
            System.err.println("Run with --help for the settings.");
            System.exit(2);
            return;
        }
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        int status = StreamsService.runMain(new DedupService(config, registry), registry, config.metricsHost(),
                config.metricsPort());
        if (status != 0) {
            System.exit(status);
        }
    }

    static void printHelp(PrintStream out) {
        out.print(DedupConfig.SETTINGS.help("dedup-service: the URL-seen test of the crawler (crawl.urls.discovered -> crawl.urls.admitted)."));
    }
}
