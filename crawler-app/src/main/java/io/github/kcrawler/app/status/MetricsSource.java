package io.github.kcrawler.app.status;

/**
 * Where the status page reads the crawler's metrics: the Micrometer registry the embedded services report to
 * ({@link RegistryMetricsSource}) or the Prometheus endpoints of services running elsewhere
 * ({@link PrometheusScrapeSource}). Both yield samples under the names Prometheus exports, so one computation
 * serves both.
 */
public interface MetricsSource {
    /**
     * Reads every metric now. Never throws for a source that cannot be reached: the snapshot then carries the
     * reason in {@link MetricsSnapshot#errors()} and the samples that could be read.
     */
    MetricsSnapshot read();

    /** What this source reads, for the page's header ({@code "in-process registry"}, endpoint URLs). */
    String describe();
}
