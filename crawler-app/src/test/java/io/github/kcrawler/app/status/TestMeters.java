package io.github.kcrawler.app.status;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Meters registered the way the services register them (types, tags, histograms), driven by the tests. */
final class TestMeters {
    final Counter ok;
    final Counter notFound;
    final Counter timeout;
    final Counter dnsFailure;
    final Counter robotsDenied;
    final Counter bytes;
    final Timer latency;
    final Timer politenessWait;
    final Counter tests;
    final Counter admitted;
    final AtomicLong lruHits = new AtomicLong();
    final AtomicLong frontier = new AtomicLong();

    TestMeters(MeterRegistry r) {
        ok = fetch(r, "OK", "2xx");
        notFound = fetch(r, "HTTP_ERROR", "4xx");
        timeout = fetch(r, "TIMEOUT", "none");
        dnsFailure = fetch(r, "DNS_FAILURE", "none");
        robotsDenied = fetch(r, "ROBOTS_DENIED", "none");
        bytes = Counter.builder(MetricNames.FETCH_BYTES).baseUnit("bytes").register(r);
        latency = Timer.builder(MetricNames.FETCH_LATENCY).publishPercentileHistogram().register(r);
        politenessWait = Timer.builder(MetricNames.POLITENESS_WAIT).publishPercentileHistogram().register(r);
        tests = Counter.builder(MetricNames.DEDUP_TESTS).register(r);
        admitted = Counter.builder(MetricNames.DEDUP_NEW).register(r);
        FunctionCounter.builder(MetricNames.DEDUP_LRU_HITS, lruHits, AtomicLong::get).register(r);
        Gauge.builder(MetricNames.FRONTIER_SIZE, frontier, AtomicLong::get).register(r);
        Counter.builder(MetricNames.SCHEDULER_DROPPED).tag("reason", "queue_full").register(r).increment(3);
    }

    private static Counter fetch(MeterRegistry r, String outcome, String status) {
        return Counter.builder(MetricNames.FETCHES).tag("outcome", outcome).tag("status", status).register(r);
    }

    /** One second of crawling: {@code pages} 200s of 1 KiB at {@code latencyMs}, one 404, one timeout. */
    void crawl(int pages, long latencyMs) {
        for (int i = 0; i < pages; i++) {
            ok.increment();
            bytes.increment(1024);
            latency.record(Duration.ofMillis(latencyMs));
            politenessWait.record(Duration.ofMillis(5));
            tests.increment(4);
            admitted.increment();
            lruHits.addAndGet(2);
        }
        notFound.increment();
        timeout.increment();
        frontier.set(1000 - pages);
    }
}
