package io.github.kcrawler.ranker;

import io.github.kcrawler.ranker.pagerank.IprParams;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.streams.JournalSnapshots;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the ranker service, validated once at start-up so a bad value fails with its name rather than deep
 * inside Kafka Streams. Each key is declared once ({@link #SETTINGS}); parsing, {@code --help} and
 * docs/CONFIGURATION.md come from those declarations.
 *
 * @param threads     stream threads in this instance; useful up to the number of partitions it owns
 * @param commitMs    Streams commit interval (one exactly-once transaction per commit)
 * @param flushMs     a URL's score is published at most once per this interval, with its latest value, in one
 *                    {@code crawl.rank.scores} record per partition; 0 publishes the changes of every input record at
 *                    the end of it (more traffic on {@code crawl.rank.scores}, lower latency)
 * @param metricsHost address of the {@code /metrics} and {@code /health} endpoint
 * @param metricsPort port of that endpoint; 0 picks a free port (logged at start-up)
 * @param ranking     how scores are computed: incremental PageRank of paper 002 with the DL1, VR or AR cut-off,
 *                    or ours, {@code ipr-dl1-frontier} (the default): DL1's crawl order, scores kept for unfetched
 *                    URLs only
 * @param journal     when the page store logs a snapshot of its journaled changelog
 */
public record RankerConfig(KafkaSettings kafka, int threads, long commitMs, long flushMs, String metricsHost,
                           int metricsPort, Ranking ranking, JournalSnapshots journal) {
    /** The score computations the service offers (key {@code ranking}). */
    public enum Ranking {
        /** Paper 002's DL1 exactly: every URL's score, fetched or not, equals {@code IncrementalPageRank}'s. */
        IPR_DL1("ipr-dl1"),
        /**
         * Ours (issue 19): DL1 with receipts for already-fetched pages dropped. Under DL1 nothing reads a fetched
         * page's score (the scheduler orders unfetched URLs; a revisit does not vote again), so the published scores
         * and the crawl order are DL1's exactly, while a fetched page's stored score stays what it was at its fetch.
         * It saves the page-store write, and its changelog record, of every such receipt.
         */
        IPR_DL1_FRONTIER("ipr-dl1-frontier"),
        IPR_VR("ipr-vr"), IPR_AR("ipr-ar");

        private final String key;

        Ranking(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        /** The incremental-PageRank cut-off. */
        public IprParams.CutOff cutOff() {
            return switch (this) {
                case IPR_DL1, IPR_DL1_FRONTIER -> IprParams.CutOff.DL1;
                case IPR_VR -> IprParams.CutOff.VR;
                case IPR_AR -> IprParams.CutOff.AR;
            };
        }

        /** Whether receipts still change a fetched page's stored score (all but {@link #IPR_DL1_FRONTIER}). */
        public boolean fetchedScoresKept() {
            return this != IPR_DL1_FRONTIER;
        }

        /** The rankings the {@code ranking} setting offers ({@code backlinks} is no longer one, issue 24). */
        static final Ranking[] SETTABLE = {IPR_DL1_FRONTIER, IPR_DL1, IPR_VR, IPR_AR};

        public static Ranking parse(String s) {
            for (Ranking r : SETTABLE) {
                if (r.key.equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return r;
                }
            }
            throw new IllegalArgumentException("ranking must be one of ipr-dl1-frontier, ipr-dl1, ipr-vr, ipr-ar, was '"
                    + s + "' (IPR's PL cut-off needs a breadth-first budget across partitions and is simulator-only; "
                    + "the back-link count baseline, backlinks, was removed: it runs in the simulator as BLC)");
        }
    }

    public static final Setting<Integer> THREADS = KafkaSettings.STREAMS_THREADS;
    public static final Setting<Long> COMMIT_MS = KafkaSettings.STREAMS_COMMIT_MS.withDefault(1_000L);
    public static final Setting<Long> FLUSH_MS = Setting.longValue("flush-ms", 1_000L, Check.range(0, 3_600_000),
            "a URL's score is published at most once per this interval, with its latest value; 0 after every record");
    public static final Setting<Ranking> RANKING = Setting.choice("ranking", Ranking.IPR_DL1_FRONTIER,
            Ranking::key, Ranking::parse, "incremental PageRank (paper 002) with the DL1, VR or AR cut-off; "
                    + "ipr-dl1-frontier (ours): DL1's scores and order, fetched pages' scores no longer updated",
            Ranking.SETTABLE);
    /** Every key this service reads, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(KafkaSettings.SETTINGS, THREADS, COMMIT_MS, FLUSH_MS,
            CommonSettings.METRICS, RANKING, JournalSnapshots.SETTINGS);

    /** Every key this service reads, with its default as printed by {@code --help}. */
    public static final Map<String, String> DEFAULTS = SETTINGS.defaults();
    public static final Set<String> KEYS = SETTINGS.keys();

    public RankerConfig {
        Objects.requireNonNull(kafka, "kafka settings must be given");
        THREADS.check(threads);
        COMMIT_MS.check(commitMs);
        FLUSH_MS.check(flushMs);
        CommonSettings.METRICS_HOST.check(metricsHost);
        CommonSettings.METRICS_PORT.check(metricsPort);
        Objects.requireNonNull(ranking, "ranking must be given");
        Objects.requireNonNull(journal, "journal snapshot settings must be given");
    }

    /** With the default journal snapshots. */
    public RankerConfig(KafkaSettings kafka, int threads, long commitMs, long flushMs, String metricsHost,
                        int metricsPort, Ranking ranking) {
        this(kafka, threads, commitMs, flushMs, metricsHost, metricsPort, ranking, JournalSnapshots.DEFAULTS);
    }

    /** Defaults for everything but the cluster settings. */
    public static RankerConfig of(KafkaSettings kafka) {
        return from(Settings.empty(), kafka);
    }

    public static RankerConfig from(Settings s) {
        return from(s, KafkaSettings.from(s));
    }

    private static RankerConfig from(Settings s, KafkaSettings kafka) {
        return new RankerConfig(kafka, s.get(THREADS), s.get(COMMIT_MS), s.get(FLUSH_MS),
                s.get(CommonSettings.METRICS_HOST), s.get(CommonSettings.METRICS_PORT), s.get(RANKING),
                JournalSnapshots.from(s));
    }

    public RankerConfig withCommitMs(long newCommitMs) {
        return new RankerConfig(kafka, threads, newCommitMs, flushMs, metricsHost, metricsPort, ranking, journal);
    }

    public RankerConfig withFlushMs(long newFlushMs) {
        return new RankerConfig(kafka, threads, commitMs, newFlushMs, metricsHost, metricsPort, ranking, journal);
    }

    public RankerConfig withRanking(Ranking newRanking) {
        return new RankerConfig(kafka, threads, commitMs, flushMs, metricsHost, metricsPort, newRanking, journal);
    }
}
