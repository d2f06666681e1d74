package io.github.kcrawler.app.status;

import io.github.kcrawler.app.runtime.CrawlMonitor;
import io.github.kcrawler.common.model.FetchOutcome;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Turns successive {@link MetricsSnapshot}s into {@link StatusReport}s: totals from the newest snapshot, rates and
 * latency percentiles from the difference to the previous one, and a bounded history of {@link StatusReport.Rates}
 * for the charts. Polled by one thread ({@link StatusService}); read by the HTTP threads.
 */
public final class StatusModel {
    private static final String OTHER = "other";

    private final MetricsSource source;
    private final int historyPoints;
    private final LongSupplier wallClock;
    private volatile ActivityWindow activity;
    private final long startedNanos = System.nanoTime();
    private final ArrayDeque<StatusReport.Rates> history = new ArrayDeque<>();
    private MetricsSnapshot previous;
    private StatusReport latest;

    public StatusModel(MetricsSource source, int historyPoints, LongSupplier wallClock) {
        if (historyPoints < 2) {
            throw new IllegalArgumentException("history points must be >= 2, was " + historyPoints);
        }
        this.source = Objects.requireNonNull(source, "source");
        this.historyPoints = historyPoints;
        this.wallClock = Objects.requireNonNull(wallClock, "wall clock");
    }

    /** Adds the busiest hosts and IPs and the recent errors of {@code window} to every report from now on. */
    public void activityFrom(ActivityWindow window) {
        this.activity = window;
    }

    /** Reads the source once and returns the new report. */
    public StatusReport poll() {
        MetricsSnapshot now = source.read();
        long time = wallClock.getAsLong();
        StatusReport report;
        synchronized (this) {
            report = report(previous, now, time);
            previous = now;
            latest = report;
            history.addLast(report.rates());
            while (history.size() > historyPoints) {
                history.removeFirst();
            }
        }
        return report;
    }

    /** The newest report, polling once if there is none yet. */
    public StatusReport latest() {
        synchronized (this) {
            if (latest != null) {
                return latest;
            }
        }
        return poll();
    }

    /** The chart points, oldest first. */
    public synchronized List<StatusReport.Rates> history() {
        return new ArrayList<>(history);
    }

    public String describeSource() {
        return source.describe();
    }

    private StatusReport report(MetricsSnapshot before, MetricsSnapshot now, long time) {
        Map<String, Double> byOutcome = now.sumBy(PrometheusNames.FETCHES, "outcome");
        Map<String, Long> errors = outcomes(byOutcome, CrawlMonitor.FAILURES, true);
        Map<String, Long> declined = outcomes(byOutcome, CrawlMonitor.DECLINED, false);
        long pages = Math.round(sumOutcomes(now, CrawlMonitor.RESPONSES));
        long failures = errors.values().stream().mapToLong(Long::longValue).sum();
        StatusReport.Rates rates = rates(before, now, time);
        boolean first = before == null;
        return new StatusReport(StatusReport.VERSION, time, (now.takenAtNanos() - startedNanos) / 1e9,
                source.describe(), now.errors(), pages, first ? null : rates.pagesPerSecond(),
                Math.round(now.sum(PrometheusNames.FETCH_BYTES)), first ? null : rates.bytesPerSecond(), failures,
                errors, declined, longs(now.sumBy(PrometheusNames.FETCHES, "status")),
                Math.round(now.sum(PrometheusNames.FRONTIER_SIZE)),
                Math.round(now.sum(PrometheusNames.FETCHES_IN_FLIGHT)),
                Math.round(now.sum(PrometheusNames.SCHEDULER_ACTIVE_IPS)),
                Math.round(now.sum(PrometheusNames.SCHEDULER_RELEASED)),
                longs(now.sumBy(PrometheusNames.SCHEDULER_DROPPED, "reason")),
                Math.round(now.sum(PrometheusNames.LINKS_DISCOVERED)),
                longs(now.sumBy(PrometheusNames.LINKS_REJECTED, "reason")),
                longs(now.sumBy(PrometheusNames.DNS_FAILURES, "reason")),
                Math.round(now.sum(PrometheusNames.WARC_RECORDS)), Math.round(now.sum(PrometheusNames.RANK_UPDATES)),
                Math.round(now.sum(PrometheusNames.BAD_RECORDS)),
                Math.round(now.sum(PrometheusNames.DEADLETTER_RECORDS)), deadLettersBySource(now),
                new StatusReport.UrlSeen(Math.round(now.sum(PrometheusNames.DEDUP_TESTS)),
                        Math.round(now.sum(PrometheusNames.DEDUP_NEW)),
                        Math.round(now.sum(PrometheusNames.DEDUP_LRU_HITS)),
                        Math.round(now.sum(PrometheusNames.DEDUP_SBFL_POSITIVES)),
                        Math.round(now.sum(PrometheusNames.DEDUP_STORAGE_LOOKUPS)),
                        Math.round(now.sum(PrometheusNames.DEDUP_STORAGE_HITS)),
                        Math.round(now.sum(PrometheusNames.DEDUP_FORGOTTEN))),
                rates, activity == null ? null : activity.snapshot(time));
    }

    /** Dead letters by "service topic", only those that occurred. */
    private static Map<String, Long> deadLettersBySource(MetricsSnapshot now) {
        Map<String, Double> sums = new java.util.TreeMap<>();
        for (MetricSample s : now.samples()) {
            if (s.name().equals(PrometheusNames.DEADLETTER_RECORDS) && Double.isFinite(s.value()) && s.value() > 0) {
                sums.merge(s.labels().getOrDefault("service", "") + " " + s.labels().getOrDefault("topic", ""),
                        s.value(), Double::sum);
            }
        }
        Map<String, Long> out = new java.util.TreeMap<>();
        sums.forEach((k, v) -> out.put(k, Math.round(v)));
        return out;
    }

    private StatusReport.Rates rates(MetricsSnapshot before, MetricsSnapshot now, long time) {
        double seconds = before == null ? 0 : (now.takenAtNanos() - before.takenAtNanos()) / 1e9;
        Delta d = new Delta(before, now, seconds);
        double tests = d.of(PrometheusNames.DEDUP_TESTS);
        Map<String, Double> errorRates = new LinkedHashMap<>();
        Map<String, Double> nowByOutcome = now.sumBy(PrometheusNames.FETCHES, "outcome");
        Map<String, Double> beforeByOutcome = before == null ? Map.of()
                : before.sumBy(PrometheusNames.FETCHES, "outcome");
        double errorTotal = 0;
        for (FetchOutcome o : CrawlMonitor.FAILURES) {
            double delta = increase(beforeByOutcome.getOrDefault(o.name(), 0.0), nowByOutcome.getOrDefault(o.name(), 0.0));
            errorRates.put(o.name().toLowerCase(Locale.ROOT), d.perSecond(delta));
            errorTotal += delta;
        }
        double pages = before == null ? 0 : increase(sumOutcomes(before, CrawlMonitor.RESPONSES),
                sumOutcomes(now, CrawlMonitor.RESPONSES));
        NavigableMap<Double, Double> latency = d.buckets(PrometheusNames.FETCH_LATENCY);
        NavigableMap<Double, Double> wait = d.buckets(PrometheusNames.POLITENESS_WAIT);
        return new StatusReport.Rates(time, seconds, d.perSecond(pages), d.perSecond(d.of(PrometheusNames.FETCH_BYTES)),
                d.perSecond(errorTotal), millis(quantile(latency, 0.5)), millis(quantile(latency, 0.9)),
                millis(quantile(latency, 0.99)), Math.round(now.sum(PrometheusNames.FRONTIER_SIZE)),
                Math.round(now.sum(PrometheusNames.FETCHES_IN_FLIGHT)),
                Math.round(now.sum(PrometheusNames.SCHEDULER_ACTIVE_IPS)),
                d.perSecond(d.of(PrometheusNames.SCHEDULER_RELEASED)), d.perSecond(tests),
                share(d.of(PrometheusNames.DEDUP_LRU_HITS), tests), share(d.of(PrometheusNames.DEDUP_SBFL_POSITIVES), tests),
                share(d.of(PrometheusNames.DEDUP_STORAGE_HITS), tests), share(d.of(PrometheusNames.DEDUP_NEW), tests),
                d.perSecond(d.of(PrometheusNames.POLITENESS_WAIT + "_count")), millis(quantile(wait, 0.5)),
                millis(quantile(wait, 0.99)), errorRates);
    }

    /** Counter increase between two reads; a counter that went down was reset (a restarted service). */
    static double increase(double before, double now) {
        return now >= before ? now - before : now;
    }

    private static double sumOutcomes(MetricsSnapshot s, Set<FetchOutcome> outcomes) {
        return s.sum(PrometheusNames.FETCHES, m -> {
            FetchOutcome o = outcome(m.label("outcome"));
            return o != null && outcomes.contains(o);
        });
    }

    private static FetchOutcome outcome(String label) {
        if (label == null) {
            return null;
        }
        try {
            return FetchOutcome.valueOf(label);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Counts of {@code outcomes}, lower case, zeros included; when {@code withUnknown}, outcomes this build does not
     * know (a newer fetcher) are added under {@code other} rather than dropped.
     */
    private static Map<String, Long> outcomes(Map<String, Double> byOutcome, Set<FetchOutcome> outcomes,
                                              boolean withUnknown) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (FetchOutcome o : outcomes) {
            out.put(o.name().toLowerCase(Locale.ROOT), Math.round(byOutcome.getOrDefault(o.name(), 0.0)));
        }
        if (withUnknown) {
            byOutcome.forEach((k, v) -> {
                if (outcome(k) == null) {
                    out.merge(OTHER, Math.round(v), Long::sum);
                }
            });
        }
        return out;
    }

    private static Map<String, Long> longs(Map<String, Double> in) {
        Map<String, Long> out = new TreeMap<>();
        in.forEach((k, v) -> out.put(k, Math.round(v)));
        return out;
    }

    private static Double share(double part, double whole) {
        return whole > 0 ? Math.min(1.0, part / whole) : null;
    }

    private static Double millis(Double seconds) {
        return seconds == null ? null : seconds * 1000;
    }

    /**
     * The {@code q}-quantile of observations in a cumulative histogram (upper bound → count at or below), by linear
     * interpolation inside the bucket that holds it, as Prometheus' {@code histogram_quantile} does; null when the
     * histogram holds no observation. A quantile in the +Inf bucket is reported as the highest finite bound.
     */
    static Double quantile(NavigableMap<Double, Double> cumulative, double q) {
        if (cumulative.isEmpty()) {
            return null;
        }
        double total = cumulative.lastEntry().getValue();
        if (!(total > 0)) {
            return null;
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            double bound = e.getKey();
            double count = e.getValue();
            if (count >= rank) {
                if (Double.isInfinite(bound)) {
                    return lowerBound;
                }
                double inBucket = count - lowerCount;
                return inBucket <= 0 ? bound : lowerBound + (bound - lowerBound) * (rank - lowerCount) / inBucket;
            }
            lowerBound = bound;
            lowerCount = count;
        }
        return lowerBound;
    }

    /** Increases between two snapshots. */
    private record Delta(MetricsSnapshot before, MetricsSnapshot now, double seconds) {
        double of(String name) {
            return before == null ? 0 : increase(before.sum(name), now.sum(name));
        }

        double perSecond(double amount) {
            return seconds > 0 ? amount / seconds : 0;
        }

        /** The histogram of the observations made between the two reads. */
        NavigableMap<Double, Double> buckets(String histogram) {
            TreeMap<Double, Double> out = new TreeMap<>();
            if (before == null) {
                return out;
            }
            TreeMap<Double, Double> old = before.buckets(histogram);
            double running = 0;
            for (Map.Entry<Double, Double> e : now.buckets(histogram).entrySet()) {
                // cumulative counts must not decrease along the bounds, even if an instance reset in between
                running = Math.max(running, increase(old.getOrDefault(e.getKey(), 0.0), e.getValue()));
                out.put(e.getKey(), running);
            }
            return out;
        }
    }
}
