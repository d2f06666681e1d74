package io.github.kcrawler.app.status;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Reads the Micrometer registry the embedded services report to, and names every sample the way the Prometheus
 * endpoint exports it (dots → underscores, counters {@code _total}, timers in seconds with {@code _count},
 * {@code _sum}, {@code _max} and, when a histogram is published, cumulative {@code _bucket{le}}). Only meters whose
 * name starts with {@code prefix} are read (the JVM's own meters are of no use to the status page).
 */
public final class RegistryMetricsSource implements MetricsSource {
    private static final PrometheusNamingConvention NAMING = new PrometheusNamingConvention();

    private final MeterRegistry registry;
    private final String prefix;

    public RegistryMetricsSource(MeterRegistry registry, String prefix) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** Reads the crawler's meters ({@code crawler.*}). */
    public RegistryMetricsSource(MeterRegistry registry) {
        this(registry, "crawler.");
    }

    @Override
    public MetricsSnapshot read() {
        List<MetricSample> out = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Meter meter : Search.in(registry).name(n -> n.startsWith(prefix)).meters()) {
            try {
                add(meter, out);
            } catch (RuntimeException e) { // a gauge whose function throws must not hide the others
                errors.add(meter.getId().getName() + ": " + e);
            }
        }
        return new MetricsSnapshot(System.nanoTime(), out, errors);
    }

    private static void add(Meter meter, List<MetricSample> out) {
        Meter.Id id = meter.getId();
        String base = NAMING.name(id.getName(), id.getType(), id.getBaseUnit());
        Map<String, String> labels = new LinkedHashMap<>();
        for (Tag t : id.getTagsAsIterable()) {
            labels.put(NAMING.tagKey(t.getKey()), t.getValue());
        }
        if (meter instanceof Counter c) {
            out.add(new MetricSample(total(base), labels, c.count()));
        } else if (meter instanceof FunctionCounter c) {
            out.add(new MetricSample(total(base), labels, c.count()));
        } else if (meter instanceof TimeGauge g) {
            out.add(new MetricSample(base, labels, g.value(TimeUnit.SECONDS)));
        } else if (meter instanceof Gauge g) {
            out.add(new MetricSample(base, labels, g.value()));
        } else if (meter instanceof Timer t) {
            HistogramSnapshot h = t.takeSnapshot();
            distribution(base, labels, h.count(), h.total(TimeUnit.SECONDS), h.max(TimeUnit.SECONDS),
                    h.histogramCounts(), true, out);
        } else if (meter instanceof DistributionSummary s) {
            HistogramSnapshot h = s.takeSnapshot();
            distribution(base, labels, h.count(), h.total(), h.max(), h.histogramCounts(), false, out);
        }
        // long task timers and custom meters are not read by the status page
    }

    private static void distribution(String base, Map<String, String> labels, long count, double sum, double max,
                                     CountAtBucket[] buckets, boolean seconds, List<MetricSample> out) {
        out.add(new MetricSample(base + "_count", labels, count));
        out.add(new MetricSample(base + "_sum", labels, sum));
        out.add(new MetricSample(base + "_max", labels, max));
        if (buckets.length == 0) {
            return;
        }
        for (CountAtBucket b : buckets) {
            double le = seconds ? b.bucket(TimeUnit.SECONDS) : b.bucket();
            if (Double.isInfinite(le)) {
                continue;
            }
            Map<String, String> withLe = new LinkedHashMap<>(labels);
            withLe.put("le", Double.toString(le));
            out.add(new MetricSample(base + "_bucket", withLe, b.count()));
        }
        Map<String, String> inf = new LinkedHashMap<>(labels);
        inf.put("le", "+Inf");
        out.add(new MetricSample(base + "_bucket", inf, count));
    }

    private static String total(String name) {
        return name.endsWith("_total") ? name : name + "_total";
    }

    @Override
    public String describe() {
        return "in-process registry";
    }
}
