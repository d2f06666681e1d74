package io.github.kcrawler.app.status;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What every {@link MetricsSource} must do, run against both implementations: the same registry read in-process or
 * through its Prometheus endpoint yields the same exported names and values, and the same status numbers.
 */
abstract class MetricsSourceContract {
    protected PrometheusMeterRegistry registry;
    protected TestMeters meters;
    private final AtomicLong clock = new AtomicLong(1_000_000);

    /** The implementation under test, reading {@link #registry}. */
    protected abstract MetricsSource source() throws Exception;

    @BeforeEach
    void createRegistry() {
        registry = MetricsServer.newRegistry();
        meters = new TestMeters(registry);
    }

    @AfterEach
    void closeRegistry() {
        registry.close();
    }

    @Test
    void exportsCountersUnderPrometheusNamesWithTags() throws Exception {
        meters.crawl(10, 20);
        MetricsSnapshot s = source().read();
        assertThat(s.errors()).isEmpty();
        assertThat(s.sum("crawler_fetch_total")).isEqualTo(12.0); // 10 OK + 1 404 + 1 timeout (+ counters still at 0)
        assertThat(s.sumBy("crawler_fetch_total", "outcome")).containsEntry("OK", 10.0).containsEntry("TIMEOUT", 1.0)
                .containsEntry("DNS_FAILURE", 0.0);
        assertThat(s.sum("crawler_fetch_bytes_total")).isEqualTo(10 * 1024.0);
        assertThat(s.sum("crawler_dedup_lru_hits_total")).isEqualTo(20.0);
        assertThat(s.sum("crawler_frontier_size")).isEqualTo(990.0);
        assertThat(s.sum("crawler_fetch_latency_seconds_count")).isEqualTo(10.0);
        assertThat(s.sum("crawler_fetch_latency_seconds_sum")).isCloseTo(0.2, within(1e-9));
    }

    @Test
    void exportsCumulativeHistogramBuckets() throws Exception {
        meters.crawl(100, 20);
        TreeMap<Double, Double> buckets = source().read().buckets("crawler_fetch_latency_seconds");
        assertThat(buckets).isNotEmpty();
        assertThat(buckets.lastKey()).isInfinite();
        assertThat(buckets.lastEntry().getValue()).isEqualTo(100.0);
        assertThat(buckets.headMap(0.019, true).values()).allMatch(c -> c == 0.0);
        assertThat(buckets.tailMap(0.021, true).values()).allMatch(c -> c == 100.0);
    }

    @Test
    void statusFromTwoReadsHasRatesPercentilesAndErrorsByReason() throws Exception {
        StatusModel model = new StatusModel(source(), 10, clock::get);
        meters.crawl(5, 10);
        StatusReport first = model.poll();
        assertThat(first.pagesFetched()).isEqualTo(6); // 5 OK + one 404 (a response)
        assertThat(first.pagesPerSecond()).as("no rate before a second read").isNull();
        meters.crawl(50, 200);
        clock.addAndGet(1000);
        StatusReport second = model.poll();
        assertThat(second.pagesFetched()).isEqualTo(57);
        assertThat(second.pagesPerSecond()).isPositive();
        assertThat(second.errorsByReason()).containsEntry("timeout", 2L).containsEntry("dns_failure", 0L)
                .doesNotContainKey("ok");
        assertThat(second.fetchErrors()).isEqualTo(2);
        assertThat(second.declinedByReason()).containsEntry("robots_denied", 0L);
        assertThat(second.droppedByReason()).containsEntry("queue_full", 3L);
        assertThat(second.frontierSize()).isEqualTo(950);
        // only the interval's observations (all 200 ms) count, not the first read's 10 ms ones
        assertThat(second.rates().latencyP50Ms()).isBetween(150.0, 230.0);
        assertThat(second.rates().latencyP99Ms()).isBetween(150.0, 230.0);
        assertThat(second.rates().lruHitRate()).isCloseTo(0.5, within(1e-9));
        assertThat(second.rates().newUrlRate()).isCloseTo(0.25, within(1e-9));
        assertThat(second.rates().storageHitRate()).isEqualTo(0.0);
        assertThat(second.urlSeen().tests()).isEqualTo(220);
        assertThat(model.history()).hasSize(2);
    }

    @Test
    void readsTheSameSamplesAsTheOtherImplementation() throws Exception {
        meters.crawl(7, 33);
        MetricsSnapshot mine = source().read();
        MetricsSnapshot scraped = new MetricsSnapshot(0,
                PrometheusTextParser.parse(registry.scrape()).samples(), java.util.List.of());
        for (String name : mine.names()) {
            if (!name.startsWith("crawler_")) {
                continue; // the scraped endpoint also exports the JVM's meters, which change between reads
            }
            if (name.endsWith("_bucket")) {
                String base = name.substring(0, name.length() - "_bucket".length());
                assertThat(mine.buckets(base)).as(name).isEqualTo(scraped.buckets(base));
            } else {
                assertThat(mine.sum(name)).as(name).isCloseTo(scraped.sum(name), within(1e-9));
            }
        }
        assertThat(scraped.names()).filteredOn(n -> n.startsWith("crawler_"))
                .containsExactlyInAnyOrderElementsOf(mine.names().stream().filter(n -> n.startsWith("crawler_"))
                        .toList());
    }
}
