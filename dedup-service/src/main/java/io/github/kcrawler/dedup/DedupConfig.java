package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the dedup service, validated once at start-up so that a bad value fails with its name rather than
 * deep inside Kafka Streams. Each key is declared once ({@link #SETTINGS}); parsing, {@code --help} and
 * docs/CONFIGURATION.md come from those declarations.
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
 * @param journal     when the URL-seen set and the content DB log a snapshot of their journaled changelogs
 */
public record DedupConfig(KafkaSettings kafka, int threads, long commitMs, String metricsHost, int metricsPort,
                          UrlSeenTierConfig urlSeen, long contentExpectedItems, UrlBatches.Limits batchLimits,
                          JournalSnapshots journal) {
    public static final Setting<Integer> THREADS = KafkaSettings.STREAMS_THREADS;
    public static final Setting<Long> COMMIT_MS = KafkaSettings.STREAMS_COMMIT_MS.withDefault(200L);
    public static final Setting<Long> CONTENT_EXPECTED_ITEMS = Setting.longValue("content-expected-items", 250_000L,
            Check.range(1, 100_000_000), "distinct page bodies expected per partition; sizes paper 001's IMP-CB "
                    + "counting Bloom filter (10 bytes per item)");
    /** Every key this service reads, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(KafkaSettings.SETTINGS, THREADS, COMMIT_MS,
            CommonSettings.METRICS, UrlSeenTierConfig.SETTINGS, CONTENT_EXPECTED_ITEMS, UrlBatches.Limits.SETTINGS,
            JournalSnapshots.SETTINGS);

    /** Every key this service reads, with its default as printed by {@code --help}. */
    public static final Map<String, String> DEFAULTS = SETTINGS.defaults();
    public static final Set<String> KEYS = SETTINGS.keys();

    public DedupConfig {
        Objects.requireNonNull(kafka, "kafka settings must be given");
        Objects.requireNonNull(urlSeen, "url-seen tier settings must be given");
        Objects.requireNonNull(batchLimits, "batch limits must be given");
        Objects.requireNonNull(journal, "journal snapshot settings must be given");
        THREADS.check(threads);
        COMMIT_MS.check(commitMs);
        CommonSettings.METRICS_HOST.check(metricsHost);
        CommonSettings.METRICS_PORT.check(metricsPort);
        CONTENT_EXPECTED_ITEMS.check(contentExpectedItems);
    }

    /** With the default journal snapshots. */
    public DedupConfig(KafkaSettings kafka, int threads, long commitMs, String metricsHost, int metricsPort,
                       UrlSeenTierConfig urlSeen, long contentExpectedItems, UrlBatches.Limits batchLimits) {
        this(kafka, threads, commitMs, metricsHost, metricsPort, urlSeen, contentExpectedItems, batchLimits,
                JournalSnapshots.DEFAULTS);
    }

    /** With the default URL-seen tiers. */
    public DedupConfig(KafkaSettings kafka, int threads, long commitMs, String metricsHost, int metricsPort) {
        this(kafka, threads, commitMs, metricsHost, metricsPort, UrlSeenTierConfig.defaults(),
                CONTENT_EXPECTED_ITEMS.defaultValue(), UrlBatches.DEFAULT_LIMITS);
    }

    /** Defaults for everything but the cluster settings. */
    public static DedupConfig of(KafkaSettings kafka) {
        return from(Settings.empty(), kafka);
    }

    public static DedupConfig from(Settings s) {
        return from(s, KafkaSettings.from(s));
    }

    private static DedupConfig from(Settings s, KafkaSettings kafka) {
        return new DedupConfig(kafka, s.get(THREADS), s.get(COMMIT_MS), s.get(CommonSettings.METRICS_HOST),
                s.get(CommonSettings.METRICS_PORT), UrlSeenTierConfig.from(s), s.get(CONTENT_EXPECTED_ITEMS),
                UrlBatches.Limits.from(s), JournalSnapshots.from(s));
    }

    public DedupConfig withThreads(int newThreads) {
        return new DedupConfig(kafka, newThreads, commitMs, metricsHost, metricsPort, urlSeen, contentExpectedItems,
                batchLimits, journal);
    }

    public DedupConfig withCommitMs(long newCommitMs) {
        return new DedupConfig(kafka, threads, newCommitMs, metricsHost, metricsPort, urlSeen, contentExpectedItems,
                batchLimits, journal);
    }
}
