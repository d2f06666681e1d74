package io.github.kcrawler.lab.demo;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrawlTimelineTest {
    @Test
    void samples_cumulativeCountsOfEveryStage_atTheTickerTime() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        AtomicLong pages = new AtomicLong();
        CrawlTimeline t = new CrawlTimeline(60_000, nanos::get); // no automatic sample within the test
        t.start(registry, pages::get);
        registry.counter(MetricNames.FETCHES, "outcome", "OK").increment(7);
        registry.counter(MetricNames.FETCHES, "outcome", "TIMEOUT").increment(2);
        registry.counter(MetricNames.DEDUP_TESTS).increment(40);
        pages.set(7);
        nanos.addAndGet(1_500_000_000L);
        t.sample();
        t.stop();
        List<CrawlTimeline.Sample> s = t.samples();
        assertThat(s).hasSize(3);
        assertThat(s.get(0).seconds()).isZero();
        assertThat(s.get(0).pages()).isZero();
        assertThat(s.get(0).stages()).containsOnlyKeys(DemoRunner.STAGES.keySet());
        assertThat(s.get(1).seconds()).isEqualTo(1.5);
        assertThat(s.get(1).pages()).isEqualTo(7);
        assertThat(s.get(1).stages()).containsEntry("fetched", 9L).containsEntry("discovered", 40L)
                .containsEntry("admitted", 0L);
        assertThat(t.course().periodMillis()).isEqualTo(60_000L);
        assertThat(t.course().samples()).isEqualTo(s);
    }

    @Test
    void badPeriod_isRejectedNamingTheValue() {
        assertThatThrownBy(() -> new CrawlTimeline(5, System::nanoTime))
                .hasMessage("timeline period must be >= 10 ms, was 5");
        assertThatThrownBy(() -> new CrawlTimeline(100, System::nanoTime).sample())
                .isInstanceOf(IllegalStateException.class);
    }
}
