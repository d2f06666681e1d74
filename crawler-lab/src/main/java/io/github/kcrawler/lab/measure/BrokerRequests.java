package io.github.kcrawler.lab.measure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The requests the broker of this process handled, by API, read from Kafka's own request metrics in the platform
 * MBean server ({@code kafka.network:type=RequestMetrics}): {@code RequestsPerSec}'s count (summed over the API's
 * versions) and {@code LocalTimeMs}, the time a request spent in a request-handler thread (its histogram's mean times
 * its count, which is exact: Kafka's histograms keep their sum). Both are cumulative since the broker started, so a
 * measurement takes the difference of two snapshots. Empty when the broker is not in this process. Kafka counts a
 * fetch under {@code Fetch} and again under {@code FetchConsumer} or {@code FetchFollower}; those two are reported
 * but left out of {@code total}.
 *
 * @param counts  API name → requests handled
 * @param localMs API name → milliseconds spent in the request handler
 */
public record BrokerRequests(Map<String, Long> counts, Map<String, Double> localMs) {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRequests.class);
    static final String TOTAL = "total";
    /** Kafka counts each fetch under {@code Fetch} and again under one of these: kept, but not added to the total. */
    private static final Set<String> SUBSETS = Set.of("FetchConsumer", "FetchFollower");

    public BrokerRequests {
        counts = Map.copyOf(counts);
        localMs = Map.copyOf(localMs);
    }

    /** The broker's counters now. */
    public static BrokerRequests read() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Double> local = new TreeMap<>();
        try {
            for (ObjectName n : server.queryNames(
                    new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
                counts.merge(n.getKeyProperty("request"), ((Number) server.getAttribute(n, "Count")).longValue(),
                        Long::sum);
            }
            for (ObjectName n : server.queryNames(
                    new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,*"), null)) {
                double mean = ((Number) server.getAttribute(n, "Mean")).doubleValue();
                long count = ((Number) server.getAttribute(n, "Count")).longValue();
                local.merge(n.getKeyProperty("request"), mean * count, Double::sum);
            }
        } catch (JMException | RuntimeException e) {
            LOG.warn("could not read the broker's request metrics: {}", e.toString());
        }
        return new BrokerRequests(counts, local);
    }

    /**
     * Requests per page between two snapshots: {@code total} and one entry per API that had any.
     *
     * @param pages the denominator (pages fetched); 0 gives an empty map
     */
    public static Map<String, Double> requestsPerPage(BrokerRequests start, BrokerRequests end, long pages) {
        return perPage(start.counts, end.counts, pages);
    }

    /** Request-handler milliseconds per page between two snapshots: {@code total} and one entry per API. */
    public static Map<String, Double> localMsPerPage(BrokerRequests start, BrokerRequests end, long pages) {
        return perPage(start.localMs, end.localMs, pages);
    }

    private static Map<String, Double> perPage(Map<String, ? extends Number> start, Map<String, ? extends Number> end,
                                               long pages) {
        Map<String, Double> out = new TreeMap<>();
        if (pages <= 0) {
            return out;
        }
        double total = 0;
        for (Map.Entry<String, ? extends Number> e : end.entrySet()) {
            Number before = start.get(e.getKey());
            double d = e.getValue().doubleValue() - (before == null ? 0 : before.doubleValue());
            if (d > 0) {
                out.put(e.getKey(), d / pages);
                total += SUBSETS.contains(e.getKey()) ? 0 : d;
            }
        }
        if (!out.isEmpty()) {
            out.put(TOTAL, total / pages);
        }
        return out;
    }
}
