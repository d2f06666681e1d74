package io.github.kcrawler.app.status;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StatusModelTest {
    /** A source that returns scripted snapshots one second apart. */
    private static final class Scripted implements MetricsSource {
        private final List<List<MetricSample>> reads = new ArrayList<>();
        private int next;

        Scripted then(MetricSample... samples) {
            reads.add(List.of(samples));
            return this;
        }

        @Override
        public MetricsSnapshot read() {
            int i = Math.min(next++, reads.size() - 1);
            return new MetricsSnapshot(i * 1_000_000_000L, reads.get(i), List.of());
        }

        @Override
        public String describe() {
            return "scripted";
        }
    }

    private static MetricSample fetches(String outcome, double v) {
        return new MetricSample("crawler_fetch_total", Map.of("outcome", outcome, "status", "none"), v);
    }

    @Test
    void quantileInterpolatesInsideTheBucketLikeHistogramQuantile() {
        TreeMap<Double, Double> h = new TreeMap<>(Map.of(0.1, 0.0, 0.2, 50.0, 0.4, 100.0,
                Double.POSITIVE_INFINITY, 100.0));
        assertThat(StatusModel.quantile(h, 0.5)).isCloseTo(0.2, within(1e-12));
        assertThat(StatusModel.quantile(h, 0.25)).isCloseTo(0.15, within(1e-12));
        assertThat(StatusModel.quantile(h, 0.99)).isCloseTo(0.396, within(1e-12));
        assertThat(StatusModel.quantile(new TreeMap<>(), 0.5)).isNull();
        assertThat(StatusModel.quantile(new TreeMap<>(Map.of(Double.POSITIVE_INFINITY, 0.0)), 0.5)).isNull();
    }

    @Test
    void quantileBeyondTheLastFiniteBucketIsThatBound() {
        TreeMap<Double, Double> h = new TreeMap<>(Map.of(1.0, 1.0, Double.POSITIVE_INFINITY, 10.0));
        assertThat(StatusModel.quantile(h, 0.9)).isEqualTo(1.0);
    }

    @Test
    void restartedServiceCountsAsAResetNotANegativeRate() {
        StatusModel m = new StatusModel(new Scripted().then(fetches("OK", 100)).then(fetches("OK", 5)), 10, () -> 0);
        m.poll();
        StatusReport r = m.poll();
        assertThat(r.pagesPerSecond()).isEqualTo(5.0);
        assertThat(r.pagesFetched()).isEqualTo(5);
    }

    @Test
    void deadLettersAreCountedBySourceAndInTotal() {
        StatusModel m = new StatusModel(new Scripted().then(
                new MetricSample("crawler_deadletter_records_total",
                        Map.of("service", "scheduler", "topic", "crawl.fetch.results"), 2),
                new MetricSample("crawler_deadletter_records_total",
                        Map.of("service", "scheduler", "topic", "crawl.urls.admitted"), 0),
                new MetricSample("crawler_deadletter_records_total",
                        Map.of("service", "dedup", "topic", "crawl.urls.discovered"), 1)), 10, () -> 0);
        StatusReport r = m.poll();
        assertThat(r.deadLetters()).isEqualTo(3);
        assertThat(r.deadLettersBySource()).containsExactly(Map.entry("dedup crawl.urls.discovered", 1L),
                Map.entry("scheduler crawl.fetch.results", 2L));
    }

    @Test
    void unknownOutcomesCountAsOtherErrors() {
        StatusModel m = new StatusModel(new Scripted().then(fetches("OK", 1), fetches("SOMETHING_NEW", 4)), 10,
                () -> 0);
        StatusReport r = m.poll();
        assertThat(r.errorsByReason()).containsEntry("other", 4L);
        assertThat(r.pagesFetched()).isEqualTo(1);
    }

    @Test
    void missingMetricsGiveZerosAndNullRatesNotFailures() {
        StatusModel m = new StatusModel(new Scripted().then(), 3, () -> 42);
        StatusReport r = m.poll();
        assertThat(r.pagesFetched()).isZero();
        assertThat(r.rates().latencyP50Ms()).isNull();
        assertThat(r.rates().lruHitRate()).isNull();
        assertThat(r.errorsByReason()).containsKeys("dns_failure", "connect_failure", "timeout");
        m.poll();
        m.poll();
        m.poll();
        assertThat(m.history()).hasSize(3);
    }
}
