package io.github.kcrawler.app.status;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The names the status page reads, as Prometheus exports them (the dashboard IT checks them against /metrics). */
class PrometheusNamesTest {
    @Test
    void followMicrometersPrometheusConvention() {
        assertThat(PrometheusNames.FETCHES).isEqualTo("crawler_fetch_total");
        assertThat(PrometheusNames.FETCH_BYTES).isEqualTo("crawler_fetch_bytes_total");
        assertThat(PrometheusNames.FETCH_LATENCY).isEqualTo("crawler_fetch_latency_seconds");
        assertThat(PrometheusNames.FRONTIER_SIZE).isEqualTo("crawler_frontier_size");
        assertThat(PrometheusNames.DEDUP_LRU_HITS).isEqualTo("crawler_dedup_lru_hits_total");
        assertThat(PrometheusNames.BAD_RECORDS).isEqualTo("crawler_records_bad_total");
    }
}
