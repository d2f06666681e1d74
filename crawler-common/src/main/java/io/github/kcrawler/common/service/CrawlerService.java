package io.github.kcrawler.common.service;

import java.util.Optional;

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

    /**
     * True while the service runs as configured and is not recovering from a failure: for a Streams service, RUNNING
     * (not rebalancing) with every stream thread running, none being replaced. A crawl is never called idle unless
     * every service is settled.
     */
    default boolean settled() {
        return isHealthy();
    }

    /** Why the service is unhealthy for good (it died or gave up), in a sentence; null while it is not. */
    default String problem() {
        return isHealthy() ? null : name() + " is unhealthy; see the log";
    }

    /** The records this service sent to the dead-letter topic (Streams services), or empty. */
    default Optional<DeadLetters> deadLetters() {
        return Optional.empty();
    }

    /** Stops cleanly: in-flight work is finished or left for a restart to redo; nothing is lost. Idempotent. */
    @Override
    void close();
}
