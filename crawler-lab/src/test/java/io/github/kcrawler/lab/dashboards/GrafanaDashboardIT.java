package io.github.kcrawler.lab.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.status.MetricsSnapshot;
import io.github.kcrawler.app.status.PrometheusScrapeSource;
import io.github.kcrawler.app.status.RegistryMetricsSource;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard against the metric names the crawler really exports: all four services run in one process
 * on an embedded broker, their Prometheus endpoint is scraped, every PromQL expression of
 * {@code dashboards/grafana/crawler.json} is parsed and each metric it reads must be exported; and every crawler
 * metric family exported must appear in some panel. The same endpoint also checks that the status page's two
 * metrics sources agree on a real crawl process.
 */
class GrafanaDashboardIT {
    private static final Path DASHBOARD = Path.of("..", "dashboards", "grafana", "crawler.json");
    private static CrawlSession session;
    private static Set<String> exported;
    private static MetricsSnapshot scraped;

    @BeforeAll
    static void startServicesAndScrape() throws Exception {
        Path dir = Path.of("target", "dashboard-it");
        DemoRunner.deleteRecursively(dir);
        session = CrawlSession.start(dir, Optional.empty(), "", 2,
                Map.of("warc-dir", dir.resolve("warc").toString()), "127.0.0.1", 0);
        PrometheusScrapeSource source = new PrometheusScrapeSource(
                List.of(URI.create("http://127.0.0.1:" + session.metricsPort() + "/metrics")), Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            scraped = source.read();
            return scraped.errors().isEmpty() && scraped.has("crawler_fetch_total")
                    && scraped.has("crawler_dedup_tests_total") && scraped.has("crawler_frontier_size")
                    && scraped.has("crawler_rank_updates_total");
        });
        exported = new TreeSet<>(scraped.names());
        Files.write(Path.of("target", "exported-metric-names.txt"), exported);
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static List<String> expressions() throws Exception {
        JsonNode dashboard = JsonSerde.MAPPER.readTree(DASHBOARD.toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.add(target.get("expr").asText());
            }
        }
        return out;
    }

    private static String family(String name) {
        return name.replaceAll("_(bucket|count|sum|max)$", "");
    }

    @Test
    void everyMetricTheDashboardReadsIsExported() throws Exception {
        List<String> expressions = expressions();
        assertThat(expressions).hasSizeGreaterThan(20);
        for (String expr : expressions) {
            Set<String> names = PromQl.metricNames(expr);
            assertThat(names).as(expr).isNotEmpty();
            assertThat(exported).as("metrics of %s", expr).containsAll(names);
        }
    }

    @Test
    void everyCrawlerMetricFamilyHasAPanel() throws Exception {
        Set<String> used = expressions().stream().flatMap(e -> PromQl.metricNames(e).stream())
                .map(GrafanaDashboardIT::family).collect(Collectors.toSet());
        Set<String> crawlerFamilies = exported.stream().filter(n -> n.startsWith("crawler_"))
                .map(GrafanaDashboardIT::family).collect(Collectors.toCollection(TreeSet::new));
        assertThat(crawlerFamilies).hasSizeGreaterThan(20);
        assertThat(used).containsAll(crawlerFamilies);
    }

    @Test
    void dashboardIsWellFormedForGrafana() throws Exception {
        JsonNode d = JsonSerde.MAPPER.readTree(DASHBOARD.toFile());
        assertThat(d.get("uid").asText()).isNotBlank();
        assertThat(d.get("templating").get("list").get(0).get("type").asText()).isEqualTo("datasource");
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode panel : d.get("panels")) {
            assertThat(ids.add(panel.get("id").asInt())).as("unique panel id").isTrue();
            JsonNode pos = panel.get("gridPos");
            assertThat(pos.get("x").asInt() + pos.get("w").asInt()).isLessThanOrEqualTo(24);
            Set<String> refs = new TreeSet<>();
            for (JsonNode t : panel.path("targets")) {
                assertThat(refs.add(t.get("refId").asText())).as("unique refId in %s", panel.get("title")).isTrue();
            }
        }
    }

    @Test
    void statusSourcesAgreeOnARealServiceProcess() {
        MetricsSnapshot local = new RegistryMetricsSource(session.registry()).read();
        assertThat(local.errors()).isEmpty();
        assertThat(local.names()).containsExactlyInAnyOrderElementsOf(
                exported.stream().filter(n -> n.startsWith("crawler_")).toList());
    }
}
