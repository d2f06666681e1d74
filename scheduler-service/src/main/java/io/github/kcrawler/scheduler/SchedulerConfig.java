package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the scheduler service can be told, validated once here so that a bad value fails at start-up with
 * its name and value, never deep inside a punctuator. Every default lives in this class.
 *
 * @param politenessMs     T: minimum time between two fetch requests released for one IP
 * @param tickMs           how often the wall-clock punctuator releases ready IPs; also the release look-ahead,
 *                         so it must be shorter than T
 * @param maxPending       most URLs pending per partition; an admitted URL over the bound is dropped and forgotten
 * @param maxPendingPerIp  most URLs pending for one IP; same treatment over the bound
 * @param scoreCacheSize   most scores kept (per partition) for URLs that are not pending yet
 * @param threads          Kafka Streams threads
 * @param commitMs         Kafka Streams commit interval (with exactly-once, the latency of every release)
 * @param metricsHost      address of the Prometheus endpoint ({@code 0.0.0.0} in a container)
 * @param metricsPort      port of the Prometheus endpoint, 0 picks a free one
 */
public record SchedulerConfig(KafkaSettings kafka, long politenessMs, long tickMs, int maxPending,
                              int maxPendingPerIp, int scoreCacheSize, int threads, long commitMs,
                              String metricsHost, int metricsPort) {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerConfig.class);

    /** Streams application id, after the topic prefix. */
    public static final String APPLICATION_ID = "scheduler";

    public static final long DEFAULT_POLITENESS_MS = 1000;
    public static final long DEFAULT_TICK_MS = 20;
    public static final int DEFAULT_MAX_PENDING = 1_000_000;
    public static final int DEFAULT_MAX_PENDING_PER_IP = 100_000;
    public static final int DEFAULT_SCORE_CACHE_SIZE = 100_000;
    public static final int DEFAULT_THREADS = 1;
    public static final long DEFAULT_COMMIT_MS = 100;
    public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
    public static final int DEFAULT_METRICS_PORT = 0;
    /** Below this interval a crawl hammers servers; allowed (tests, a private websim) but warned about. */
    public static final long IMPOLITE_BELOW_MS = 100;

    /** Keys of this service's own settings, each with its default, in --help order. */
    public static final Map<String, String> OWN_DEFAULTS = ownDefaults();

    /** Every key {@link #from(Settings)} reads, including the Kafka ones. */
    public static final Set<String> KEYS = keys();

    public SchedulerConfig {
        if (kafka == null) {
            throw new IllegalArgumentException("kafka settings must not be null");
        }
        if (politenessMs <= 0) {
            throw new IllegalArgumentException("politeness-ms must be > 0, was " + politenessMs);
        }
        if (tickMs <= 0 || tickMs >= politenessMs) {
            throw new IllegalArgumentException("tick-ms must be > 0 and smaller than politeness-ms (" + politenessMs
                    + "), was " + tickMs);
        }
        if (maxPending <= 0) {
            throw new IllegalArgumentException("max-pending must be > 0, was " + maxPending);
        }
        if (maxPendingPerIp <= 0) {
            throw new IllegalArgumentException("max-pending-per-ip must be > 0, was " + maxPendingPerIp);
        }
        if (scoreCacheSize < 0) {
            throw new IllegalArgumentException("score-cache-size must be >= 0, was " + scoreCacheSize);
        }
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads must be in 1..64, was " + threads);
        }
        if (commitMs < 1) {
            throw new IllegalArgumentException("commit-ms must be >= 1, was " + commitMs);
        }
        if (metricsHost == null || metricsHost.isBlank()) {
            throw new IllegalArgumentException("metrics-host must not be empty, was '" + metricsHost + "'");
        }
        if (metricsPort < 0 || metricsPort > 65_535) {
            throw new IllegalArgumentException("metrics-port must be in 0..65535, was " + metricsPort);
        }
        if (politenessMs < IMPOLITE_BELOW_MS) {
            LOG.warn("*** politeness-ms={} is below {} ms: each server may get {} requests per second from this "
                            + "crawler. Use this only against servers you own. ***", politenessMs, IMPOLITE_BELOW_MS,
                    1000 / politenessMs);
        }
    }

    /** Defaults for everything but the Kafka settings. */
    public static SchedulerConfig defaults(KafkaSettings kafka) {
        return new SchedulerConfig(kafka, DEFAULT_POLITENESS_MS, DEFAULT_TICK_MS, DEFAULT_MAX_PENDING,
                DEFAULT_MAX_PENDING_PER_IP, DEFAULT_SCORE_CACHE_SIZE, DEFAULT_THREADS, DEFAULT_COMMIT_MS,
                DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT);
    }

    /** The tick when none is set: {@link #DEFAULT_TICK_MS}, or T/2 when T is that small, so any T >= 2 ms works. */
    public static long defaultTickMs(long politenessMs) {
        return Math.max(1, Math.min(DEFAULT_TICK_MS, politenessMs / 2));
    }

    public static SchedulerConfig from(Settings s) {
        long politenessMs = s.longValue("politeness-ms", DEFAULT_POLITENESS_MS);
        return new SchedulerConfig(KafkaSettings.from(s),
                politenessMs,
                s.longValue("tick-ms", defaultTickMs(politenessMs)),
                s.integer("max-pending", DEFAULT_MAX_PENDING),
                s.integer("max-pending-per-ip", DEFAULT_MAX_PENDING_PER_IP),
                s.integer("score-cache-size", DEFAULT_SCORE_CACHE_SIZE),
                s.integer("threads", DEFAULT_THREADS),
                s.longValue("commit-ms", DEFAULT_COMMIT_MS),
                s.string("metrics-host", DEFAULT_METRICS_HOST),
                s.integer("metrics-port", DEFAULT_METRICS_PORT));
    }

    public SchedulerConfig withPoliteness(long newPolitenessMs, long newTickMs) {
        return new SchedulerConfig(kafka, newPolitenessMs, newTickMs, maxPending, maxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort);
    }

    public SchedulerConfig withBounds(int newMaxPending, int newMaxPendingPerIp) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, newMaxPending, newMaxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort);
    }

    private static Map<String, String> ownDefaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("politeness-ms", Long.toString(DEFAULT_POLITENESS_MS));
        d.put("tick-ms", Long.toString(DEFAULT_TICK_MS));
        d.put("max-pending", Integer.toString(DEFAULT_MAX_PENDING));
        d.put("max-pending-per-ip", Integer.toString(DEFAULT_MAX_PENDING_PER_IP));
        d.put("score-cache-size", Integer.toString(DEFAULT_SCORE_CACHE_SIZE));
        d.put("threads", Integer.toString(DEFAULT_THREADS));
        d.put("commit-ms", Long.toString(DEFAULT_COMMIT_MS));
        d.put("metrics-host", DEFAULT_METRICS_HOST);
        d.put("metrics-port", Integer.toString(DEFAULT_METRICS_PORT));
        return Collections.unmodifiableMap(d);
    }

    private static Set<String> keys() {
        Set<String> k = new TreeSet<>(OWN_DEFAULTS.keySet());
        k.addAll(KafkaSettings.KEYS);
        return Set.copyOf(k);
    }
}
