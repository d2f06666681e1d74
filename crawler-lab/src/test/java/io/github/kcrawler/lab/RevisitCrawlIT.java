package io.github.kcrawler.lab;

import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.websim.ChangeModel;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.websim.WebSimStats;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 6 item 6: a crawl of a websim whose pages change on deterministic schedules (Zipf intervals of 1–8 s) keeps
 * revisiting what it fetched — conditional GETs answered 304 for unchanged pages, 200 with a new body for changed
 * ones, detected as changes — through the politeness wheel, with 0 politeness violations by websim's count. Every
 * change the scheduler detects gives the page's old body back in dedup's content count, from the body hash the
 * revisit memo carried through the fetcher (no page of this web shares a body with another, so none is reported a
 * content duplicate).
 */
class RevisitCrawlIT {
    private static final long T = 50;

    private static double revisits(MeterRegistry registry, String outcome) {
        var c = registry.find(MetricNames.SCHEDULER_REVISITS).tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    private static double contentRefs(MeterRegistry registry, String op) {
        var c = registry.find(MetricNames.DEDUP_CONTENT_REFS).tag("op", op).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void changingPagesAreRevisited_conditionally_andPolitely() throws Exception {
        Path dir = Path.of("target", "revisit-it");
        DemoRunner.deleteRecursively(dir);
        WebSimConfig web = WebSimConfig.builder().generate(300).ips(16).politenessMs(T).meanPagesPerHost(10)
                .hostsFile(dir.resolve("hosts")).changeModel(ChangeModel.ZIPF).changeUnitMs(1000)
                .changeMaxInterval(8).build();
        try (WebSim websim = WebSim.start(web)) {
            Map<String, String> settings = Map.of("politeness-ms", Long.toString(T),
                    "hosts-file", websim.hostsFile().toString(), "allow-addresses", "127.0.0.0/8",
                    "revisit-unit-ms", "500", "revisit-initial-ms", "2000", "revisit-min-ms", "500",
                    "revisit-max-ms", "8000");
            try (CrawlSession session = CrawlSession.start(dir, Optional.empty(), "", 4, settings, "127.0.0.1", 0)) {
                SeedInjector.inject(session.runtime().kafka(), session.runtime().topics().discovered,
                        websim.seedUrls(), SeedInjector.resolver(websim.layout().hostToIp()),
                        System.currentTimeMillis());
                BitSet reachable = websim.reachablePages(1000);
                await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    WebSimStats s = websim.stats();
                    BitSet fetched = websim.fetchedPages();
                    fetched.and(reachable);
                    return fetched.cardinality() == reachable.cardinality() && s.conditionalNotModified() >= 20
                            && s.conditionalChanged() >= 20;
                });
                WebSimStats s = websim.stats();
                MeterRegistry registry = session.registry();
                assertThat(s.politenessViolations()).as("politeness violations (websim's count)").isZero();
                assertThat(s.disallowedFetched()).isZero();
                assertThat(s.pagesFetched()).as("revisits fetch pages again").isGreaterThan(s.distinctUrlsFetched());
                assertThat(revisits(registry, "unchanged")).as("304s seen by the scheduler").isPositive();
                assertThat(revisits(registry, "changed")).as("changes picked up").isPositive();
                assertThat(registry.find(MetricNames.SCHEDULER_REVISITS_DUE).counter().count()).isPositive();
                // each change the scheduler saw is one REMOVE of the old body, once its reference reaches dedup
                double changed = revisits(registry, "changed");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> assertThat(contentRefs(registry, "remove"))
                                .as("old bodies given back; changes seen %s", changed).isGreaterThanOrEqualTo(changed));
                assertThat(registry.find(MetricNames.DEDUP_CONTENT_DUPLICATES).counter().count())
                        .as("content duplicates in a web without shared bodies").isZero();
            }
        }
    }
}
