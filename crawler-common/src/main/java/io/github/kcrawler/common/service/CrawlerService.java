package io.github.kcrawler.common.service;

/**
 * A deployable part of the crawler (dedup, scheduler, ranker, fetcher). The same object runs alone behind its own
 * {@code main} or beside the others inside {@code crawler-app}.
 */
public interface CrawlerService extends AutoCloseable {
    /** Short name for logs and metrics: {@code dedup}, {@code scheduler}, {@code ranker}, {@code fetcher}. */
    String name();

    /** Starts consuming; returns once the service's threads are running. */
    void start();

    /** True while the service is running and has not failed; backs the {@code /health} endpoint. */
    boolean isHealthy();

    /** Stops cleanly: in-flight work is finished or left for a restart to redo; nothing is lost. Idempotent. */
    @Override
    void close();
}
