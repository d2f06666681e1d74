package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.net.ListeningSockets;
import io.github.kcrawler.app.status.RegistryMetricsSource;
import io.github.kcrawler.app.status.StatusService;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 9 item 5: metrics and status endpoints listen on loopback unless configured otherwise. The defaults of every
 * server we start — each service's metrics endpoint, the status page of {@code crawler status}, websim — and the
 * sockets this JVM actually listens on once they run with those defaults. About 2 s.
 */
class LoopbackEndpointsTest {
    @Test
    void everyServiceMetricsEndpointDefaultsToLoopback() {
        Map<String, String> noEnv = Map.of();
        assertThat(DedupConfig.from(Settings.parse(DedupConfig.KEYS, noEnv)).metricsHost()).isEqualTo("127.0.0.1");
        assertThat(SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS, noEnv)).metricsHost())
                .isEqualTo("127.0.0.1");
        assertThat(RankerConfig.from(Settings.parse(RankerConfig.KEYS, noEnv)).metricsHost()).isEqualTo("127.0.0.1");
        // FetcherMain reads metrics-host with this default
        assertThat(FetcherConfig.DEFAULTS.get("metrics-host")).isEqualTo("127.0.0.1");
        StatusCommand status = new StatusCommand();
        new CommandLine(status).parseArgs("--scrape", "http://127.0.0.1:9400/metrics");
        assertThat(status.statusHost).isEqualTo("127.0.0.1");
    }

    @Test
    void serversStartedWithTheirDefaultsListenOnLoopbackOnly(@TempDir Path dir) throws Exception {
        assumeTrue(ListeningSockets.available(), "no /proc/net/tcp on this system");
        StatusCommand statusDefaults = new StatusCommand();
        new CommandLine(statusDefaults).parseArgs("--scrape", "http://127.0.0.1:9400/metrics");
        String metricsHost = DedupConfig.from(Settings.parse(DedupConfig.KEYS, Map.of())).metricsHost();
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        try (MetricsServer metrics = MetricsServer.start(registry, metricsHost, 0, () -> true);
             StatusService status = StatusService.start(new RegistryMetricsSource(registry),
                     statusDefaults.statusHost, 0, Duration.ofSeconds(1));
             WebSim websim = WebSim.start(WebSimConfig.builder().generate(20).ips(3)
                     .hostsFile(dir.resolve("hosts")).build())) {
            List<ListeningSockets.Listener> listening = ListeningSockets.ofThisProcess();
            assertThat(listening).extracting(ListeningSockets.Listener::port)
                    .contains(metrics.port(), websim.port(), java.net.URI.create(status.url()).getPort());
            assertThat(listening).allSatisfy(l -> assertThat(l.address().isLoopbackAddress())
                    .as("%s listens on a loopback address", l).isTrue());
        } finally {
            registry.close();
        }
    }
}
