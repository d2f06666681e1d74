package io.github.kcrawler.app.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The samples of one read of a {@link MetricsSource}. Several instances of one service (several endpoints) simply
 * contribute several samples with the same name: the queries sum over them, which is right for counters and for the
 * size gauges the status page reads.
 *
 * @param takenAtNanos {@link System#nanoTime()} when the read finished, for rates
 * @param samples      every sample read
 * @param errors       endpoints that could not be read, with the reason (empty when all answered)
 */
public record MetricsSnapshot(long takenAtNanos, List<MetricSample> samples, List<String> errors) {
    public MetricsSnapshot {
        samples = List.copyOf(samples);
        errors = List.copyOf(errors);
    }

    /** Sum of every finite sample called {@code name}. */
    public double sum(String name) {
        return sum(name, s -> true);
    }

    /** Sum of the finite samples called {@code name} that {@code filter} accepts. */
    public double sum(String name, Predicate<MetricSample> filter) {
        double total = 0;
        for (MetricSample s : samples) {
            if (s.name().equals(name) && Double.isFinite(s.value()) && filter.test(s)) {
                total += s.value();
            }
        }
        return total;
    }

    /** True when at least one sample is called {@code name}. */
    public boolean has(String name) {
        for (MetricSample s : samples) {
            if (s.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Sums of {@code name} grouped by the value of {@code label} (samples without it are grouped under ""). */
    public Map<String, Double> sumBy(String name, String label) {
        Map<String, Double> out = new TreeMap<>();
        for (MetricSample s : samples) {
            if (s.name().equals(name) && Double.isFinite(s.value())) {
                out.merge(s.labels().getOrDefault(label, ""), s.value(), Double::sum);
            }
        }
        return out;
    }

    /**
     * The cumulative histogram {@code name_bucket}: upper bound ({@code le}, +Inf included) → observations at or
     * below it, summed over every label set. Buckets whose bound does not parse are skipped.
     */
    public TreeMap<Double, Double> buckets(String histogram) {
        TreeMap<Double, Double> out = new TreeMap<>();
        String name = histogram + "_bucket";
        for (MetricSample s : samples) {
            if (!s.name().equals(name) || !Double.isFinite(s.value())) {
                continue;
            }
            Double le = parseBound(s.label("le"));
            if (le != null) {
                out.merge(le, s.value(), Double::sum);
            }
        }
        return out;
    }

    private static Double parseBound(String le) {
        if (le == null) {
            return null;
        }
        if (le.equals("+Inf") || le.equals("Inf")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            double v = Double.parseDouble(le);
            return Double.isNaN(v) ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Names of every sample, for diagnostics and the dashboard test. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        for (MetricSample s : samples) {
            if (!out.contains(s.name())) {
                out.add(s.name());
            }
        }
        return out;
    }
}
