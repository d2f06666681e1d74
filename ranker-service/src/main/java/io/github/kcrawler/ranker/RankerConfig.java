package io.github.kcrawler.ranker;

import io.github.kcrawler.ranker.pagerank.IprParams;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of the ranker service, validated once at start-up so a bad value fails with its name rather than deep
 * inside Kafka Streams. Defaults live in {@link #DEFAULTS} only; {@code --help} prints them from there.
 *
 * @param threads     stream threads in this instance; useful up to the number of partitions it owns
 * @param commitMs    Streams commit interval (one exactly-once transaction per commit)
 * @param flushMs     a URL's score is published at most once per this interval, with its latest value, in one
 *                    {@code crawl.rank.scores} record per partition; 0 publishes the changes of every input record at
 *                    the end of it (more traffic on {@code crawl.rank.scores}, lower latency)
 * @param metricsHost address of the {@code /metrics} and {@code /health} endpoint
 * @param metricsPort port of that endpoint; 0 picks a free port (logged at start-up)
 * @param ranking     how scores are computed: incremental PageRank of paper 002 with the DL1 (default), VR or AR
 *                    cut-off
 */
public record RankerConfig(KafkaSettings kafka, int threads, long commitMs, long flushMs, String metricsHost,
                           int metricsPort, Ranking ranking) {
    /** The score computations the service offers (key {@code ranking}). */
    public enum Ranking {
        IPR_DL1("ipr-dl1"), IPR_VR("ipr-vr"), IPR_AR("ipr-ar");

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
                case IPR_DL1 -> IprParams.CutOff.DL1;
                case IPR_VR -> IprParams.CutOff.VR;
                case IPR_AR -> IprParams.CutOff.AR;
            };
        }

        public static Ranking parse(String s) {
            for (Ranking r : values()) {
                if (r.key.equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return r;
                }
            }
            throw new IllegalArgumentException("ranking must be one of ipr-dl1, ipr-vr, ipr-ar, was '" + s
                    + "' (IPR's PL cut-off needs a breadth-first budget across partitions and is simulator-only; "
                    + "the back-link count baseline, backlinks, was removed: it runs in the simulator as BLC)");
        }
    }

    public static final int DEFAULT_THREADS = 1;
    public static final long DEFAULT_COMMIT_MS = 1_000;
    public static final long DEFAULT_FLUSH_MS = 1_000;
    public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
    public static final int DEFAULT_METRICS_PORT = 0;
    public static final Ranking DEFAULT_RANKING = Ranking.IPR_DL1;

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
        d.put("flush-ms", Long.toString(DEFAULT_FLUSH_MS));
        d.put("metrics-host", DEFAULT_METRICS_HOST);
        d.put("metrics-port", Integer.toString(DEFAULT_METRICS_PORT));
        d.put("ranking", DEFAULT_RANKING.key());
        DEFAULTS = Collections.unmodifiableMap(d);
        Set<String> keys = new TreeSet<>(KafkaSettings.KEYS);
        keys.addAll(d.keySet());
        KEYS = Collections.unmodifiableSet(keys);
    }

    public RankerConfig {
        Objects.requireNonNull(kafka, "kafka settings must be given");
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be in 1..256, was " + threads);
        }
        if (commitMs < 1 || commitMs > 600_000) {
            throw new IllegalArgumentException("commit-ms must be in 1..600000, was " + commitMs);
        }
        if (flushMs < 0 || flushMs > 3_600_000) {
            throw new IllegalArgumentException("flush-ms must be in 0..3600000, was " + flushMs);
        }
        if (metricsHost == null || metricsHost.isBlank()) {
            throw new IllegalArgumentException("metrics-host must not be empty, was '" + metricsHost + "'");
        }
        if (metricsPort < 0 || metricsPort > 65_535) {
            throw new IllegalArgumentException("metrics-port must be in 0..65535, was " + metricsPort);
        }
        Objects.requireNonNull(ranking, "ranking must be given");
    }

    /** Defaults for everything but the cluster settings. */
    public static RankerConfig of(KafkaSettings kafka) {
        return new RankerConfig(kafka, DEFAULT_THREADS, DEFAULT_COMMIT_MS, DEFAULT_FLUSH_MS, DEFAULT_METRICS_HOST,
                DEFAULT_METRICS_PORT, DEFAULT_RANKING);
    }

    public static RankerConfig from(Settings s) {
        return new RankerConfig(KafkaSettings.from(s), s.integer("threads", DEFAULT_THREADS),
                s.longValue("commit-ms", DEFAULT_COMMIT_MS), s.longValue("flush-ms", DEFAULT_FLUSH_MS),
                s.string("metrics-host", DEFAULT_METRICS_HOST), s.integer("metrics-port", DEFAULT_METRICS_PORT),
                Ranking.parse(s.string("ranking", DEFAULT_RANKING.key())));
    }

    public RankerConfig withCommitMs(long newCommitMs) {
        return new RankerConfig(kafka, threads, newCommitMs, flushMs, metricsHost, metricsPort, ranking);
    }

    public RankerConfig withFlushMs(long newFlushMs) {
        return new RankerConfig(kafka, threads, commitMs, newFlushMs, metricsHost, metricsPort, ranking);
    }

    public RankerConfig withRanking(Ranking newRanking) {
        return new RankerConfig(kafka, threads, commitMs, flushMs, metricsHost, metricsPort, newRanking);
    }
}
