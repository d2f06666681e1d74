package io.github.kcrawler.app.status;

import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RegistryMetricsSourceTest extends MetricsSourceContract {
    @Override
    protected MetricsSource source() {
        return new RegistryMetricsSource(registry);
    }

    @Test
    void readsOnlyCrawlerMeters() {
        assertThat(source().read().names()).isNotEmpty().allMatch(n -> n.startsWith("crawler_"));
    }

    @Test
    void gaugeThatThrowsIsReportedNotFatal() {
        Gauge.builder("crawler.broken", () -> {
            throw new IllegalStateException("boom");
        }).register(registry);
        MetricsSnapshot s = source().read();
        assertThat(s.has("crawler_frontier_size")).isTrue();
        // Micrometer itself may turn the failure into NaN; either way the other meters are read
        assertThat(s.errors().isEmpty() || s.errors().get(0).contains("crawler.broken")).isTrue();
    }
}
