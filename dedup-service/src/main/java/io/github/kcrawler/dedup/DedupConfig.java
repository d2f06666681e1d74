package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of the dedup service, validated once at start-up so that a bad value fails with its name rather than
 * deep inside Kafka Streams. Defaults live in {@link #DEFAULTS} only; {@code --help} prints them from there.
 *
 * @param threads     stream threads in this instance; useful up to the number of partitions it owns
 * @param commitMs    Streams commit interval: with exactly-once it bounds the latency from a discovery to the
 *                    admitted URL becoming visible downstream (read_committed), at the cost of one transaction per
 *                    commit
 * @param metricsHost address of the {@code /metrics} and {@code /health} endpoint
 * @param metricsPort port of that endpoint; 0 picks a free port (logged at start-up)
 * @param urlSeen     sizes of the LRU and SBFL tiers in front of the fingerprint store (paper 000)
 * @param contentExpectedItems distinct page bodies expected per partition; sizes the IMP-CB counting Bloom filter of
 *                    paper 001 (20 four-bit counters per item: 10 bytes per expected body)
 * @param batchLimits where the admitted URLs of one discovered record are cut into several admitted records
 *                    ({@code batch-max-urls}, {@code batch-max-bytes}; {@link UrlBatches})
 */
public record DedupConfig(KafkaSettings kafka, int threads, long commitMs, String metricsHost, int metricsPort,
                          UrlSeenTierConfig urlSeen, long contentExpectedItems, UrlBatches.Limits batchLimits) {
    public static final int DEFAULT_THREADS = 1;
    public static final long DEFAULT_COMMIT_MS = 200;
    public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
    public static final int DEFAULT_METRICS_PORT = 0;
    public static final long DEFAULT_CONTENT_EXPECTED_ITEMS = 250_000;

    /** Every key this service reads, with its default as printed by {@code --help}. */
    public static final Map<String, String> DEFAULTS;
    public static final Set<String> KEYS;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("bootstrap-servers", KafkaSettings.DEFAULT_BOOTSTRAP);
        d.put("topic-prefix", "");
        d.put("partitions", Integer.toString(KafkaSettings.DEFAULT_PARTITIONS));
        d.put("state-dir", KafkaSettings.DEFAULT_STATE_DIR.toString());
        d.put("threads", Integer.toString(DEFAULT_THREADS));
        d.put("commit-ms", Long.toString(DEFAULT_COMMIT_MS));
        d.put("metrics-host", DEFAULT_METRICS_HOST);
        d.put("metrics-port", Integer.toString(DEFAULT_METRICS_PORT));
        d.putAll(UrlSeenTierConfig.DEFAULTS);
        d.put("content-expected-items", Long.toString(DEFAULT_CONTENT_EXPECTED_ITEMS));
        d.putAll(UrlBatches.Limits.DEFAULTS);
        DEFAULTS = Collections.unmodifiableMap(d);
        Set<String> keys = new TreeSet<>(KafkaSettings.KEYS);
        keys.addAll(d.keySet());
        KEYS = Collections.unmodifiableSet(keys);
    }

    public DedupConfig {
        Objects.requireNonNull(kafka, "kafka settings must be given");
        Objects.requireNonNull(urlSeen, "url-seen tier settings must be given");
        Objects.requireNonNull(batchLimits, "batch limits must be given");
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be in 1..256, was " + threads);
        }
        if (commitMs < 1 || commitMs > 600_000) {
            throw new IllegalArgumentException("commit-ms must be in 1..600000, was " + commitMs);
        }
        if (metricsHost == null || metricsHost.isBlank()) {
            throw new IllegalArgumentException("metrics-host must not be empty, was '" + metricsHost + "'");
        }
        if (metricsPort < 0 || metricsPort > 65_535) {
            throw new IllegalArgumentException("metrics-port must be in 0..65535, was " + metricsPort);
        }
        if (contentExpectedItems < 1 || contentExpectedItems > 100_000_000) {
            throw new IllegalArgumentException("content-expected-items must be in 1..100000000, was "
                    + contentExpectedItems);
        }
    }

    /** With the default URL-seen tiers. */
    public DedupConfig(KafkaSettings kafka, int threads, long commitMs, String metricsHost, int metricsPort) {
        this(kafka, threads, commitMs, metricsHost, metricsPort, UrlSeenTierConfig.defaults(),
                DEFAULT_CONTENT_EXPECTED_ITEMS, UrlBatches.DEFAULT_LIMITS);
    }

    /** Defaults for everything but the cluster settings. */
    public static DedupConfig of(KafkaSettings kafka) {
        return new DedupConfig(kafka, DEFAULT_THREADS, DEFAULT_COMMIT_MS, DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT);
    }

    public static DedupConfig from(Settings s) {
        return new DedupConfig(KafkaSettings.from(s), s.integer("threads", DEFAULT_THREADS),
                s.longValue("commit-ms", DEFAULT_COMMIT_MS), s.string("metrics-host", DEFAULT_METRICS_HOST),
                s.integer("metrics-port", DEFAULT_METRICS_PORT), UrlSeenTierConfig.from(s),
                s.longValue("content-expected-items", DEFAULT_CONTENT_EXPECTED_ITEMS), UrlBatches.Limits.from(s));
    }

    public DedupConfig withThreads(int newThreads) {
        return new DedupConfig(kafka, newThreads, commitMs, metricsHost, metricsPort, urlSeen, contentExpectedItems,
                batchLimits);
    }

    public DedupConfig withCommitMs(long newCommitMs) {
        return new DedupConfig(kafka, threads, newCommitMs, metricsHost, metricsPort, urlSeen, contentExpectedItems,
                batchLimits);
    }
}
