package io.github.kcrawler.app.status;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;

/**
 * The names under which Prometheus exports the meters of {@link MetricNames}, derived with Micrometer's own naming
 * convention so they are never spelled a second time: counters get {@code _total}, timers {@code _seconds} (then
 * {@code _count}, {@code _sum}, {@code _max}, {@code _bucket}).
 */
public final class PrometheusNames {
    private static final PrometheusNamingConvention NAMING = new PrometheusNamingConvention();

    public static final String FETCHES = counter(MetricNames.FETCHES);
    public static final String FETCH_BYTES = counter(MetricNames.FETCH_BYTES, "bytes");
    public static final String FETCH_LATENCY = timer(MetricNames.FETCH_LATENCY);
    public static final String POLITENESS_WAIT = timer(MetricNames.POLITENESS_WAIT);
    public static final String FETCHES_IN_FLIGHT = gauge(MetricNames.FETCHES_IN_FLIGHT);
    public static final String DNS_FAILURES = counter(MetricNames.DNS_FAILURES);
    public static final String ROBOTS_DENIED = counter(MetricNames.ROBOTS_DENIED);
    public static final String LINKS_DISCOVERED = counter(MetricNames.LINKS_DISCOVERED);
    public static final String LINKS_REJECTED = counter(MetricNames.LINKS_REJECTED);
    public static final String WARC_RECORDS = counter(MetricNames.WARC_RECORDS);
    public static final String DEDUP_TESTS = counter(MetricNames.DEDUP_TESTS);
    public static final String DEDUP_NEW = counter(MetricNames.DEDUP_NEW);
    public static final String DEDUP_LRU_HITS = counter(MetricNames.DEDUP_LRU_HITS);
    public static final String DEDUP_SBFL_POSITIVES = counter(MetricNames.DEDUP_SBFL_POSITIVES);
    public static final String DEDUP_STORAGE_LOOKUPS = counter(MetricNames.DEDUP_STORAGE_LOOKUPS);
    public static final String DEDUP_STORAGE_HITS = counter(MetricNames.DEDUP_STORAGE_HITS);
    public static final String DEDUP_FORGOTTEN = counter(MetricNames.DEDUP_FORGOTTEN);
    public static final String FRONTIER_SIZE = gauge(MetricNames.FRONTIER_SIZE);
    public static final String SCHEDULER_RELEASED = counter(MetricNames.SCHEDULER_RELEASED);
    public static final String SCHEDULER_DROPPED = counter(MetricNames.SCHEDULER_DROPPED);
    public static final String SCHEDULER_ACTIVE_IPS = gauge(MetricNames.SCHEDULER_ACTIVE_IPS);
    public static final String RANK_UPDATES = counter(MetricNames.RANK_UPDATES);
    public static final String BAD_RECORDS = counter(MetricNames.BAD_RECORDS);
    public static final String DEADLETTER_RECORDS = counter(MetricNames.DEADLETTER_RECORDS);

    private PrometheusNames() {
    }

    public static String counter(String micrometerName) {
        return counter(micrometerName, null);
    }

    /** A counter registered with a base unit (Prometheus appends the unit unless the name already ends with it). */
    public static String counter(String micrometerName, String baseUnit) {
        String n = NAMING.name(micrometerName, Meter.Type.COUNTER, baseUnit);
        return n.endsWith("_total") ? n : n + "_total";
    }

    public static String timer(String micrometerName) {
        return NAMING.name(micrometerName, Meter.Type.TIMER, null);
    }

    public static String gauge(String micrometerName) {
        return NAMING.name(micrometerName, Meter.Type.GAUGE, null);
    }
}
