package io.github.kcrawler.fetcher;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.util.Map;

/**
 * The first sign that the broker is gone: how many connections the fetcher's Kafka clients (the transactional
 * producer and the request consumer) have seen closed or fail, from their own {@code connection-close-total}
 * metrics. A broker killed or restarted closes every socket to it at once, and each client's network thread sees
 * that within milliseconds — long before a transaction round is noticed to stall. The consumer loop closes the fetch
 * gate while this count differs from the one last confirmed by a transaction round trip ({@link ConsumerLoop}), so
 * a page is not fetched while its results may never be committable (such a page would be fetched again by the
 * partition's next owner after the outage).
 *
 * <p>Invariants: the count never decreases (both metrics are cumulative, and a metric read as not a number counts
 * as 0, so a close seen before can only be re-counted, never forgotten); reading it allocates nothing per call
 * beyond boxing the metrics' own values, and takes the clients' metric locks briefly (safe from any thread).
 * A close in normal operation (an idle connection reaped after {@code connections.max.idle.ms}) only costs one
 * extra transaction round trip before fetches go on.
 */
final class ClientLinks {
    static final String CLOSES = "connection-close-total";

    /** Replaced, never changed in place: read by any thread. */
    private volatile Metric[] closes = new Metric[0];

    /** Adds the client-level close counter of one client's metrics ({@code producer-metrics}, ...); if any. */
    synchronized ClientLinks watch(Map<MetricName, ? extends Metric> metrics, String group) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (CLOSES.equals(e.getKey().name()) && group.equals(e.getKey().group())) {
                Metric[] more = java.util.Arrays.copyOf(closes, closes.length + 1);
                more[closes.length] = e.getValue();
                closes = more;
                break;
            }
        }
        return this;
    }

    /** Connections closed or failed so far, over all watched clients (any thread). */
    long closed() {
        long n = 0;
        for (Metric m : closes) {
            Object v = m.metricValue();
            if (v instanceof Number num && !Double.isNaN(num.doubleValue())) {
                n += Math.round(num.doubleValue());
            }
        }
        assert n >= 0 : "a cumulative count went negative: " + n;
        return n;
    }

    /** How many clients are watched (tests, and the start-up log). */
    int watched() {
        return closes.length;
    }
}
