package io.github.kcrawler.lab.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.measure.PolitenessEfficiency;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pieces of {@code demo --hostile} that need no crawl: heap sampling, the budget rule, the summary format. < 2 s. */
class HostileDemoPartsTest {

    @Test
    void heapSamplerSeesAnAllocationThatAFullGcThenFrees() throws Exception {
        long before = HeapSampler.usedAfterGc();
        try (HeapSampler sampler = new HeapSampler(10)) {
            byte[][] big = new byte[64][];
            for (int i = 0; i < big.length; i++) {
                big[i] = new byte[1 << 20]; // 64 MiB, live until sampled
            }
            Thread.sleep(50);
            assertThat(sampler.maxBytes()).isGreaterThanOrEqualTo(before + (60L << 20));
            assertThat(big[63]).hasSize(1 << 20);
            big = null; // unreachable from here on
        }
        assertThat(HeapSampler.usedAfterGc()).isLessThan(before + (32L << 20));
        assertThatThrownBy(() -> new HeapSampler(0)).hasMessageContaining("was 0");
    }

    @Test
    void hostileHostBudgetCoversTheLargestOrdinaryHost() {
        SiteLayout layout = SiteLayout.build(1_000, WebSimConfig.builder().meanPagesPerHost(10).build());
        int largest = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            largest = Math.max(largest, layout.hostEnd(h) - layout.hostStart(h));
        }
        assertThat(DemoRunner.hostileHostBudget(layout)).isEqualTo(
                Math.max(DemoOptions.HOSTILE_MIN_PAGES_PER_HOST, largest + 1));
        SiteLayout tiny = SiteLayout.build(3, WebSimConfig.builder().meanPagesPerHost(1).build());
        assertThat(DemoRunner.hostileHostBudget(tiny)).isEqualTo(DemoOptions.HOSTILE_MIN_PAGES_PER_HOST);
    }

    @Test
    void countsByTagSumsNonZeroCountersLargestFirst() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Counter.builder(MetricNames.LINKS_REJECTED).tag("reason", "limit").register(registry).increment(5);
        Counter.builder(MetricNames.LINKS_REJECTED).tag("reason", "address").register(registry).increment(7);
        Counter.builder(MetricNames.LINKS_REJECTED).tag("reason", "dns").register(registry);
        assertThat(DemoRunner.countsByTag(registry, MetricNames.LINKS_REJECTED, "reason"))
                .containsExactly(Map.entry("address", 7L), Map.entry("limit", 5L));
        assertThat(DemoRunner.NOT_SUCCESS).doesNotContain(FetchOutcome.OK, FetchOutcome.NOT_MODIFIED,
                FetchOutcome.REDIRECT).contains(FetchOutcome.INFLATED_TOO_LARGE, FetchOutcome.ROBOTS_DENIED);
    }

    @Test
    void summaryKeepsTheOldFieldsAndAddsHeapHostileAndPipelineOnes(@TempDir Path dir) throws Exception {
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("inflated_too_large", 1L);
        DemoSummary s = new DemoSummary(DemoSummary.VERSION, "generated:1000", 4, 100, 256, 0, 10, 10, 0, 0, 101.5,
                3, 0, 10, 10, 0, 1, 5.0, 2.0, Map.of(), errors, 1, true, 9.5, Map.of("limit", 95_000L),
                Map.of("deferred_http", 1L), Map.of("gzip-bomb", 3L), 400L << 20, 300L << 20, 320L << 20, 512L << 20,
                2.0, 1.5, 2.5, 1, Map.of("total", 1.25), Map.of("total", 12.0), Map.of("total", 900.0), null, 0.03,
                new PolitenessEfficiency(0.8, 0.95, 101.0, List.of(new PolitenessEfficiency.Ip("127.1.0.1", 10, 1.0, 1.0,
                        101.0))),
                1, 120, Map.of("etag dropped", 2L),

new io.github.kcrawler.app.runtime.DeadLetterSummary(1, java.util.List.of(
                        new io.github.kcrawler.common.service.DeadLetters.Letter("scheduler", "crawl.fetch.results", 2,
                                17, "java.lang.IllegalArgumentException", "too long"))),
                Map.of("total", 9.5, "Produce", 4.0), Map.of("total", 0.2, "Produce", 0.1));
        Path file = dir.resolve("s.json");
        s.write(file);
        JsonNode json = JsonSerde.MAPPER.readTree(file.toFile());
        assertThat(json.get("v").asInt()).isEqualTo(3);
        for (String field : new String[] {"politenessViolations", "missingPages", "errorsByReason", "warcFiles",
                "maxHeapBytes", "heapBaselineBytes", "heapEndBytes", "heapLimitBytes", "linksRejectedByReason",
                "robotsFetchesByResult", "hostileAccesses", "wallSeconds", "hostile", "pagesPerSecond",
                "slowestWindowPagesPerSecond", "fastestWindowPagesPerSecond", "cpuMsPerPage", "recordsPerPage",
                "bytesPerPage", "storeOpsPerPage", "gcShare", "politenessEfficiency", "elapsedSeconds",
                "meanPagesPerSecond", "seeds", "busiestIpPages", "boundedValues",
                "deadLetters", "brokerRequestsPerPage", "brokerLocalMsPerPage"}) {
            assertThat(json.has(field)).as(field).isTrue();
        }
        assertThat(json.get("errorsByReason").get("inflated_too_large").asLong()).isEqualTo(1);
        assertThat(json.get("deadLetters").get("count").asLong()).isEqualTo(1);
        assertThat(json.get("deadLetters").get("first").get(0).get("offset").asLong()).isEqualTo(17);
        assertThat(json.get("deadLetters").get("first").get(0).get("topic").asText()).isEqualTo("crawl.fetch.results");
        assertThat(s.toText()).contains("broker requests per page: 9.5 (Produce 4.0)", "dead letters: 1 record(s)",
                "scheduler crawl.fetch.results-2@17 java.lang.IllegalArgumentException: too long");
        assertThat(s.toText()).contains("inflated_too_large 1", "heap: max 400.0 MiB, baseline 300.0 MiB, end 320.0 MiB",
                "links rejected, by reason: limit 95,000", "gzip-bomb 3", "bounded values: etag dropped 2");
        assertThat(json.get("politenessEfficiency").get("min").asDouble()).isEqualTo(0.8);
        assertThat(json.get("recordsPerPage").get("total").asDouble()).isEqualTo(12.0);
        // the summary ends with pages/s and politeness efficiency
        String[] lines = s.toText().split("\\R");
        assertThat(lines[lines.length - 2]).contains("pages/s between 10 % and 90 % of the budget: 2",
                "slowest 2", "fastest 3"); // 1.5 and 2.5 rounded by %,.0f
        assertThat(lines[lines.length - 1]).contains("politeness efficiency", "min 0.80, median 0.95");
    }
}
