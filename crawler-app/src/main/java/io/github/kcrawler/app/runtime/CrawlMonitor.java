package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.topic.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.github.kcrawler.common.config.KafkaSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches a running crawl through the metrics the services publish in this process and the consumer lag of every
 * service: it produces the progress line (pages/s, fetched, frontier, errors) and decides when the crawl is
 * finished — {@link IdleRule}: every group caught up on every topic it reads, nothing pending in the scheduler,
 * nothing in flight at the fetcher, every service settled and healthy, for {@code quietChecks} consecutive checks.
 */
public final class CrawlMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlMonitor.class);
    /** Outcomes that mean a response came back from the server (the page was fetched). */
    public static final Set<FetchOutcome> RESPONSES = Collections.unmodifiableSet(EnumSet.of(FetchOutcome.OK,
            FetchOutcome.NOT_MODIFIED, FetchOutcome.REDIRECT, FetchOutcome.HTTP_ERROR, FetchOutcome.TOO_LARGE,
            FetchOutcome.THROTTLED, FetchOutcome.REDIRECT_LIMIT, FetchOutcome.REDIRECT_LOOP,
            FetchOutcome.INFLATED_TOO_LARGE));
    /** Outcomes that are the crawler's policy, not failures: not counted as errors. */
    public static final Set<FetchOutcome> DECLINED = Collections.unmodifiableSet(EnumSet.of(
            FetchOutcome.ROBOTS_DENIED, FetchOutcome.OUT_OF_SCOPE, FetchOutcome.BUDGET_EXHAUSTED,
            FetchOutcome.HOST_BUDGET_EXHAUSTED));
    /** Outcomes that are failures: neither a response nor the crawler's own policy. */
    public static final Set<FetchOutcome> FAILURES;

    static {
        Set<FetchOutcome> failures = EnumSet.complementOf(EnumSet.copyOf(RESPONSES));
        failures.removeAll(DECLINED);
        FAILURES = Collections.unmodifiableSet(failures);
    }

    private final MeterRegistry registry;
    private final ConsumerLag lag;
    private final Map<String, List<TopicPartition>> groups = new LinkedHashMap<>();
    private final int quietChecks;
    private volatile java.util.function.BooleanSupplier settled = () -> true;
    private volatile java.util.function.BooleanSupplier healthy = () -> true;
    private int quiet;
    private long lastFetched;
    private long lastNanos = System.nanoTime();
    private final long startNanos = System.nanoTime();
    private long lastChangeNanos = startNanos;

    /** A progress snapshot. */
    public record Progress(long fetched, long errors, long frontier, long inFlight, long lag, double pagesPerSecond,
                           boolean settled) {
        public Progress(long fetched, long errors, long frontier, long inFlight, long lag, double pagesPerSecond) {
            this(fetched, errors, frontier, inFlight, lag, pagesPerSecond, true);
        }

        public String line() {
            return String.format("%,8.0f pages/s | fetched %,d | frontier %,d | in flight %,d | errors %,d%s%s",
                    pagesPerSecond, fetched, frontier, inFlight, errors, lag > 0 ? " | unconsumed " + lag : "",
                    settled ? "" : " | rebalancing");
        }
    }

    public CrawlMonitor(MeterRegistry registry, Admin admin, KafkaSettings kafka, Topics topics, int partitions,
                        int quietChecks) {
        this.registry = registry;
        this.lag = new ConsumerLag(admin, kafka);
        this.quietChecks = quietChecks;
        String p = topics.prefix();
        groups.put(p + "dedup", partitions(partitions, topics.discovered.name(), topics.forget.name(),
                topics.fetchResults.name()));
        groups.put(p + "scheduler", partitions(partitions, topics.admitted.name(), topics.rankScores.name(),
                topics.fetchResults.name()));
        groups.put(p + "ranker", partitions(partitions, topics.fetchResults.name(), topics.links.name(),
                topics.rankDeltas.name()));
        groups.put(p + "fetcher", partitions(partitions, topics.fetchRequests.name()));
    }

    /**
     * Watches {@code group}'s lag on exactly {@code topics} (a Streams service's source topics, from its topology),
     * replacing the default list of that group.
     */
    public void watch(String group, java.util.Collection<String> topics, int partitions) {
        groups.put(group, partitions(partitions, topics.toArray(String[]::new)));
    }

    /** The groups and topics whose lag must be zero for the crawl to be idle. */
    public Map<String, List<TopicPartition>> watched() {
        return Collections.unmodifiableMap(groups);
    }

    /** Makes the idle rule also require {@code settled} (no stream thread being replaced) and {@code healthy}. */
    public void require(java.util.function.BooleanSupplier settled, java.util.function.BooleanSupplier healthy) {
        this.settled = settled;
        this.healthy = healthy;
    }

    private static List<TopicPartition> partitions(int n, String... topics) {
        List<TopicPartition> out = new ArrayList<>();
        for (String t : topics) {
            for (int i = 0; i < n; i++) {
                out.add(new TopicPartition(t, i));
            }
        }
        return out;
    }

    /** Requests that got a response from the server. */
    public long fetched() {
        return sumFetches(RESPONSES);
    }

    /** Requests that failed: DNS, connection, timeout, protocol, malformed URL. */
    public long errors() {
        return sumFetches(FAILURES);
    }

    /** Fetches of each of {@code outcomes} that happened at least once, by lower-case outcome, largest first. */
    public Map<String, Long> countsOf(Set<FetchOutcome> outcomes) {
        Map<String, Long> counts = new java.util.HashMap<>();
        for (Counter c : registry.find(MetricNames.FETCHES).counters()) {
            String outcome = c.getId().getTag("outcome");
            if (outcome != null && outcomes.contains(FetchOutcome.valueOf(outcome)) && c.count() > 0) {
                counts.merge(outcome.toLowerCase(java.util.Locale.ROOT), Math.round(c.count()), Long::sum);
            }
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * Server-controlled values the fetcher dropped or truncated ({@code crawler.fetch.values.bounded}), by
     * {@code "<field> <action>"}, only those that occurred, largest first.
     */
    public Map<String, Long> boundedValues() {
        Map<String, Long> counts = new java.util.HashMap<>();
        for (Counter c : registry.find(MetricNames.FETCH_VALUES_BOUNDED).counters()) {
            if (c.count() > 0) {
                counts.merge(c.getId().getTag("field") + " " + c.getId().getTag("action"), Math.round(c.count()),
                        Long::sum);
            }
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private long sumFetches(Set<FetchOutcome> outcomes) {
        double sum = 0;
        for (Counter c : registry.find(MetricNames.FETCHES).counters()) {
            String outcome = c.getId().getTag("outcome");
            if (outcome != null && outcomes.contains(FetchOutcome.valueOf(outcome))) {
                sum += c.count();
            }
        }
        return (long) sum;
    }

    private long gauge(String name) {
        double sum = 0;
        for (Gauge g : registry.find(name).gauges()) {
            double v = g.value();
            if (!Double.isNaN(v)) {
                sum += v;
            }
        }
        return (long) sum;
    }

    /** Takes a snapshot and updates the quiet counter; call about once a second. */
    public Progress check() {
        long fetched = fetched();
        long now = System.nanoTime();
        double rate = (fetched - lastFetched) / Math.max(1e-9, (now - lastNanos) / 1e9);
        if (fetched != lastFetched) {
            lastChangeNanos = now;
        }
        lastFetched = fetched;
        lastNanos = now;
        long frontier = gauge(MetricNames.FRONTIER_SIZE);
        long inFlight = gauge(MetricNames.FETCHES_IN_FLIGHT);
        boolean isSettled = settled.getAsBoolean();
        boolean isHealthy = healthy.getAsBoolean();
        long totalLag = IdleRule.mayBeIdle(frontier, inFlight, isSettled, isHealthy) ? totalLag() : -1;
        // settled and healthy again after the lag was read: a thread replaced meanwhile must not pass as idle
        boolean idle = IdleRule.idle(new IdleRule.Signals(frontier, inFlight, totalLag,
                isSettled && settled.getAsBoolean(), isHealthy && healthy.getAsBoolean()));
        quiet = idle ? quiet + 1 : 0;
        return new Progress(fetched, errors(), frontier, inFlight, totalLag, rate, isSettled);
    }

    /** Seconds from the monitor's creation to the last check that saw the fetched count grow. */
    public double activeSeconds() {
        return (lastChangeNanos - startNanos) / 1e9;
    }

    /** True once the crawl has been quiet for the configured number of consecutive checks. */
    public boolean finished() {
        return quiet >= quietChecks;
    }

    @Override
    public void close() {
        lag.close();
    }

    private long totalLag() {
        long total = 0;
        for (Map.Entry<String, List<TopicPartition>> e : groups.entrySet()) {
            try {
                total += lag.lag(e.getKey(), e.getValue());
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return Long.MAX_VALUE;
            } catch (Exception ex) {
                LOG.debug("Consumer lag of {} unavailable: {}", e.getKey(), ex.toString());
                return Long.MAX_VALUE / 4;
            }
        }
        return total;
    }
}
