package io.github.kcrawler.app.status;

import java.util.Map;
import java.util.Objects;

/**
 * One sample in Prometheus form: the exported name ({@code crawler_fetch_total}, {@code
 * crawler_fetch_latency_seconds_bucket}), its labels and its value. Both metrics sources produce these, so the
 * status page computes the same numbers from an in-process registry and from scraped endpoints.
 */
public record MetricSample(String name, Map<String, String> labels, double value) {
    public MetricSample {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
    }

    public String label(String key) {
        return labels.get(key);
    }
}
