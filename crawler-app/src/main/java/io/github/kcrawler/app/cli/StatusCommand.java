package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.status.PrometheusScrapeSource;
import io.github.kcrawler.app.status.StatusService;
import io.github.kcrawler.common.topic.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code crawler status}: the status page for services that run elsewhere (a cluster, compose, Kubernetes), built
 * from their Prometheus endpoints rather than from an in-process registry.
 */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serves the status page for crawler services running elsewhere, reading their Prometheus",
                "endpoints (every instance of every service: counters are summed across instances)."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler status --scrape http://fetcher-0:9400/metrics --scrape http://fetcher-1:9400/metrics \\",
                "      --scrape http://dedup:9400/metrics --scrape http://scheduler:9400/metrics --status-port 9500 \\",
                "      --bootstrap-servers kafka:9092",
                "  then open http://127.0.0.1:9500/ (JSON at /api/status). Stop with Ctrl-C.",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class StatusCommand implements Callable<Integer> {
    @Option(names = "--scrape", arity = "1..*", paramLabel = "URL", required = true,
            description = "A service's Prometheus endpoint (http://host:port/metrics); repeat for each instance.")
    List<URI> endpoints;

    @Option(names = "--status-port", paramLabel = "P", description = "Port of the page (0 = any free port; default ${DEFAULT-VALUE}).")
    int statusPort = 9500;

    @Option(names = "--status-host", paramLabel = "ADDRESS",
            description = "Address to bind (default ${DEFAULT-VALUE}; the page has no authentication).")
    String statusHost = "127.0.0.1";

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "Also read the fetch results topic of this cluster for the busiest hosts and IPs and the "
                    + "most recent errors (the page works without it).")
    String bootstrapServers;

    @Option(names = "--topic-prefix", description = "Prefix of the crawler's topics on that cluster.")
    String topicPrefix = "";

    @Mixin
    KafkaClientOptions kafka = new KafkaClientOptions();

    @Option(names = "--scrape-timeout-ms", description = "Timeout of each scrape (default ${DEFAULT-VALUE}).")
    long timeoutMs = 2000;

    @Override
    public Integer call() throws Exception {
        if (timeoutMs < 1) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--scrape-timeout-ms must be >= 1, was " + timeoutMs);
        }
        PrometheusScrapeSource source;
        try {
            source = new PrometheusScrapeSource(endpoints, Duration.ofMillis(timeoutMs));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (StatusService status = StatusService.start(source, statusHost, statusPort, Duration.ofSeconds(1))) {
            if (bootstrapServers != null) {
                status.withFetchResults(kafka.settings(bootstrapServers, topicPrefix, System.getenv()),
                        Topics.withPrefix(topicPrefix).fetchResults);
            }
            System.out.println("Status page: " + status.url() + "  (reading " + source.describe() + "; Ctrl-C stops)");
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "status-shutdown"));
            stopped.await();
        }
        return ExitCodes.OK;
    }
}
