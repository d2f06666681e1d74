package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.scheduler.politeness.FrontierBound;
import io.github.kcrawler.scheduler.politeness.WheelOrder;
import io.github.kcrawler.scheduler.wheel.Pacing;
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
 * @param tickMs           how often the wall-clock punctuator asks the wheel for the steps it may take (shorter
 *                         than T; the per-IP heap, removed in issue 24, also used it as its release look-ahead)
 * @param maxPending       most URLs pending per partition in memory. Order {@code priority}: the whole frontier (pool
 *                         and wheel; default B·H/2 at the default B and H, paper 004's bound), and a URL over it
 *                         waits in the pending store's spill, nothing is dropped ({@link #frontierBound()});
 *                         {@code fifo}: unused (the wheel's B·H/2 bounds it)
 * @param maxPendingPerIp  read and validated but unused: only the per-IP heap ({@code order=per-ip}, removed in
 *                         issue 24) bounded the URLs of one IP; the wheel bounds them by B/2 per residue
 * @param scoreCacheSize   most scores kept (per partition) for URLs that are not pending yet
 * @param threads          Kafka Streams threads
 * @param commitMs         Kafka Streams commit interval (with exactly-once, the latency of every release)
 * @param metricsHost      address of the Prometheus endpoint ({@code 0.0.0.0} in a container)
 * @param metricsPort      port of the Prometheus endpoint, 0 picks a free one
 * @param wheel            the politeness wheel of paper 004 and the order URLs enter it
 * @param revisit          revisiting fetched pages (paper 003's SAT/L queue, adaptive intervals)
 */
public record SchedulerConfig(KafkaSettings kafka, long politenessMs, long tickMs, int maxPending,
                              int maxPendingPerIp, int scoreCacheSize, int threads, long commitMs,
                              String metricsHost, int metricsPort, Wheel wheel, Revisit revisit) {
    /**
     * Settings of revisits (DESIGN §4.4).
     *
     * @param enabled     whether fetched pages are revisited at all
     * @param unitMs      the time unit of the revisit queue; due pages are taken once per unit
     * @param initialMs   interval before the first revisit of a page
     * @param minMs       shortest interval the change-rate estimator may choose
     * @param maxMs       longest interval (a page never seen to change)
     * @param bufferBytes SAT/L write buffers per partition (4 KiB pages from one pool)
     * @param state       where a page's revisit state lives (key {@code revisit-state}): {@code satl} (issue 22, the
     *                    default: in the SAT/L queue itself, a changelog-backed store, and on the REVISIT request and
     *                    its result while the page is being fetched — no per-page random read) or {@code store} (the
     *                    baseline before issue 22: a changelog-backed RocksDB store read and written per result,
     *                    the SAT/L queue a throwaway index rebuilt from it at each task start)
     */
    public record Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes,
                          RevisitStateMode state) {
        public static final long DEFAULT_UNIT_MS = 60_000;
        public static final long DEFAULT_INITIAL_MS = 86_400_000;
        public static final long DEFAULT_MIN_MS = 60_000;
        public static final long DEFAULT_MAX_MS = 400L * 86_400_000;
        public static final long DEFAULT_BUFFER_BYTES = 4L << 20;

        public Revisit {
            if (unitMs < 1) {
                throw new IllegalArgumentException("revisit-unit-ms must be >= 1, was " + unitMs);
            }
            if (minMs < unitMs) {
                throw new IllegalArgumentException("revisit-min-ms must be >= revisit-unit-ms (" + unitMs + "), was "
                        + minMs);
            }
            if (maxMs < minMs) {
                throw new IllegalArgumentException("revisit-max-ms must be >= revisit-min-ms (" + minMs + "), was "
                        + maxMs);
            }
            if (initialMs < minMs || initialMs > maxMs) {
                throw new IllegalArgumentException("revisit-initial-ms must be within [" + minMs + ", " + maxMs
                        + "], was " + initialMs);
            }
            if (bufferBytes < 32 * 1024 || bufferBytes > 1L << 34) {
                throw new IllegalArgumentException("revisit-buffer-bytes must be in 32768..2^34, was " + bufferBytes);
            }
            if (state == null) {
                throw new IllegalArgumentException("revisit-state must be satl or store");
            }
        }

        /** The settings with the default {@code revisit-state} ({@code satl}). */
        public Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes) {
            this(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, RevisitStateMode.SATL);
        }

        public static Revisit defaults() {
            return new Revisit(true, DEFAULT_UNIT_MS, DEFAULT_INITIAL_MS, DEFAULT_MIN_MS, DEFAULT_MAX_MS,
                    DEFAULT_BUFFER_BYTES);
        }

        public Revisit withState(RevisitStateMode newState) {
            return new Revisit(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, newState);
        }
    }

    /** Where a page's revisit state lives (key {@code revisit-state}); see {@link Revisit#state()}. */
    public enum RevisitStateMode {
        /** In the SAT/L queue (a changelog-backed store) and on the work in flight (issue 22, the default). */
        SATL,
        /** The baseline: a per-page changelog-backed RocksDB store, read and written on every result. */
        STORE;

        public static RevisitStateMode parse(String s) {
            for (RevisitStateMode m : values()) {
                if (m.key().equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("revisit-state must be satl or store, was '" + s + "'");
        }

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
    /** How pending URLs are ordered and paced (key {@code order}). */
    public enum Order {
        /** Paper 004's wheel, fed best-score-first from a bounded score-bucketed pool (the default). */
        PRIORITY,
        /** Paper 004's wheel as published: first come, first served; a URL whose residue is full is dropped. */
        FIFO;

        public static Order parse(String s) {
            for (Order o : values()) {
                if (o.key().equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return o;
                }
            }
            throw new IllegalArgumentException("order must be priority or fifo, was '" + s + "'"
                    + ("per-ip".equalsIgnoreCase(s == null ? "" : s.trim())
                    ? " (the foundation's per-IP heap was removed from the scheduler; use priority)" : ""));
        }

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * Settings of the politeness wheel (paper 004).
     *
     * @param order         how admitted URLs enter it
     * @param queues        B: steps planned ahead; a residue holds at most B/2 URLs
     * @param residues      H (even): IPs share a residue modulo H and are paced as one
     * @param stepTimeoutMs a step waits for the fetch results of the step it depends on at most this long
     * @param pacing        {@code pipelined} (ours, the default: steps of ⌈T/2⌉ released ahead with notBefore,
     *                      {@code stepsInFlight} unreported) or {@code paper} (paper 004's Algorithm 1: a step per T
     *                      after every fetch of the previous one was reported); see {@link Pacing}
     * @param stepsInFlight pipelined: steps whose fetches may all still be unreported when a new one is taken
     * @param leadMs        pipelined: how long before its notBefore a step is released (covers commit-ms and the
     *                      fetchers' poll, so requests wait at the fetcher rather than the fetcher for them)
     */
    public record Wheel(Order order, int queues, int residues, long stepTimeoutMs, Pacing.Mode pacing,
                        int stepsInFlight, long leadMs) {
        public static final int DEFAULT_QUEUES = 1024;
        public static final int DEFAULT_RESIDUES = 1024;
        public static final long DEFAULT_STEP_TIMEOUT_MS = 10_000;
        public static final Pacing.Mode DEFAULT_PACING = Pacing.Mode.PIPELINED;
        public static final int DEFAULT_STEPS_IN_FLIGHT = 32;
        public static final long DEFAULT_LEAD_MS = 250;
        public static final long MAX_LEAD_MS = 60_000;

        public Wheel {
            if (order == null) {
                throw new IllegalArgumentException("order must be given (priority or fifo)");
            }
            if (queues < 2 || queues > 1 << 20) {
                throw new IllegalArgumentException("wheel-queues must be in 2..1048576, was " + queues);
            }
            if (residues < 2 || residues > 1 << 24 || residues % 2 != 0) {
                throw new IllegalArgumentException("wheel-residues must be even and in 2..16777216, was " + residues);
            }
            if ((long) queues * residues / 2 > 1L << 28) {
                throw new IllegalArgumentException("wheel-queues × wheel-residues / 2 must be <= 2^28 URLs, was "
                        + (long) queues * residues / 2);
            }
            if (stepTimeoutMs < 1) {
                throw new IllegalArgumentException("step-timeout-ms must be >= 1, was " + stepTimeoutMs);
            }
            if (pacing == null) {
                throw new IllegalArgumentException("pacing must be given (pipelined or paper)");
            }
            if (stepsInFlight < 1 || stepsInFlight > Pacing.MAX_STEPS_IN_FLIGHT) {
                throw new IllegalArgumentException("steps-in-flight must be in 1.." + Pacing.MAX_STEPS_IN_FLIGHT
                        + ", was " + stepsInFlight);
            }
            if (leadMs < 0 || leadMs > MAX_LEAD_MS) {
                throw new IllegalArgumentException("pacing-lead-ms must be in 0.." + MAX_LEAD_MS + ", was " + leadMs);
            }
        }

        /** The default pacing (pipelined) with the given order, bounds and step timeout. */
        public Wheel(Order order, int queues, int residues, long stepTimeoutMs) {
            this(order, queues, residues, stepTimeoutMs, DEFAULT_PACING, DEFAULT_STEPS_IN_FLIGHT, DEFAULT_LEAD_MS);
        }

        public static Wheel defaults() {
            return new Wheel(Order.PRIORITY, DEFAULT_QUEUES, DEFAULT_RESIDUES, DEFAULT_STEP_TIMEOUT_MS);
        }

        public Wheel withOrder(Order newOrder) {
            return new Wheel(newOrder, queues, residues, stepTimeoutMs, pacing, stepsInFlight, leadMs);
        }

        public Wheel withPacing(Pacing.Mode newPacing) {
            return new Wheel(order, queues, residues, stepTimeoutMs, newPacing, stepsInFlight, leadMs);
        }

        /** The step discipline for politeness interval T. */
        public Pacing pacingFor(long politenessMs) {
            return pacing == Pacing.Mode.PAPER ? Pacing.paper(politenessMs, stepTimeoutMs)
                    : Pacing.pipelined(politenessMs, stepsInFlight, leadMs, stepTimeoutMs);
        }
    }
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerConfig.class);

    /** Streams application id, after the topic prefix. */
    public static final String APPLICATION_ID = "scheduler";

    public static final long DEFAULT_POLITENESS_MS = 1000;
    public static final long DEFAULT_TICK_MS = 20;
    /** B·H/2 at the default B and H: the whole PRIORITY frontier holds what paper 004's wheel may hold. */
    public static final int DEFAULT_MAX_PENDING = Wheel.DEFAULT_QUEUES * (Wheel.DEFAULT_RESIDUES / 2);
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
        if (wheel == null) {
            throw new IllegalArgumentException("wheel settings must not be null");
        }
        if (revisit == null) {
            throw new IllegalArgumentException("revisit settings must not be null");
        }
        if (wheel.stepTimeoutMs() < politenessMs) {
            throw new IllegalArgumentException("step-timeout-ms must be >= politeness-ms (" + politenessMs + "), was "
                    + wheel.stepTimeoutMs());
        }
        if (politenessMs < IMPOLITE_BELOW_MS) {
            LOG.warn("*** politeness-ms={} is below {} ms: each server may get {} requests per second from this "
                            + "crawler. Use this only against servers you own. ***", politenessMs, IMPOLITE_BELOW_MS,
                    1000 / politenessMs);
        }
    }

    /**
     * The memory bound of one partition's frontier with these settings (order {@code priority} or {@code fifo}), in
     * URLs and bytes, and which part is paper 004's and which is ours: see {@link FrontierBound}.
     */
    public FrontierBound frontierBound() {
        return FrontierBound.of(wheel.order() == Order.FIFO ? WheelOrder.FIFO : WheelOrder.PRIORITY,
                wheel.queues(), wheel.residues(), maxPending, scoreCacheSize);
    }

    /** Defaults for everything but the Kafka settings. */
    public static SchedulerConfig defaults(KafkaSettings kafka) {
        return new SchedulerConfig(kafka, DEFAULT_POLITENESS_MS, DEFAULT_TICK_MS, DEFAULT_MAX_PENDING,
                DEFAULT_MAX_PENDING_PER_IP, DEFAULT_SCORE_CACHE_SIZE, DEFAULT_THREADS, DEFAULT_COMMIT_MS,
                DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT, Wheel.defaults(), Revisit.defaults());
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
                s.integer("metrics-port", DEFAULT_METRICS_PORT),
                wheel(s, politenessMs),
                new Revisit(s.bool("revisit", true),
                        s.longValue("revisit-unit-ms", Revisit.DEFAULT_UNIT_MS),
                        s.longValue("revisit-initial-ms", Revisit.DEFAULT_INITIAL_MS),
                        s.longValue("revisit-min-ms", Revisit.DEFAULT_MIN_MS),
                        s.longValue("revisit-max-ms", Revisit.DEFAULT_MAX_MS),
                        s.longValue("revisit-buffer-bytes", Revisit.DEFAULT_BUFFER_BYTES),
                        RevisitStateMode.parse(s.string("revisit-state", RevisitStateMode.SATL.key()))));
    }

    private static Wheel wheel(Settings s, long politenessMs) {
        Pacing.Mode pacing = Pacing.Mode.parse(s.string("pacing", Wheel.DEFAULT_PACING.key()));
        if (pacing == Pacing.Mode.PAPER && (s.has("steps-in-flight") || s.has("pacing-lead-ms"))) {
            throw new IllegalArgumentException("pacing=paper takes one step per T after the previous step's fetches "
                    + "were reported: steps-in-flight and pacing-lead-ms apply to pacing=pipelined only");
        }
        return new Wheel(Order.parse(s.string("order", Order.PRIORITY.key())),
                s.integer("wheel-queues", Wheel.DEFAULT_QUEUES),
                s.integer("wheel-residues", Wheel.DEFAULT_RESIDUES),
                s.longValue("step-timeout-ms", Math.max(Wheel.DEFAULT_STEP_TIMEOUT_MS, politenessMs)),
                pacing,
                s.integer("steps-in-flight", Wheel.DEFAULT_STEPS_IN_FLIGHT),
                s.longValue("pacing-lead-ms", Wheel.DEFAULT_LEAD_MS));
    }

    public SchedulerConfig withPoliteness(long newPolitenessMs, long newTickMs) {
        Wheel w = new Wheel(wheel.order(), wheel.queues(), wheel.residues(),
                Math.max(wheel.stepTimeoutMs(), newPolitenessMs), wheel.pacing(), wheel.stepsInFlight(),
                wheel.leadMs());
        return new SchedulerConfig(kafka, newPolitenessMs, newTickMs, maxPending, maxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, w, revisit);
    }

    public SchedulerConfig withWheel(Wheel newWheel) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, maxPending, maxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, newWheel, revisit);
    }

    public SchedulerConfig withBounds(int newMaxPending, int newMaxPendingPerIp) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, newMaxPending, newMaxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, wheel, revisit);
    }

    public SchedulerConfig withRevisit(Revisit newRevisit) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, maxPending, maxPendingPerIp, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, wheel, newRevisit);
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
        d.put("order", Order.PRIORITY.key());
        d.put("wheel-queues", Integer.toString(Wheel.DEFAULT_QUEUES));
        d.put("wheel-residues", Integer.toString(Wheel.DEFAULT_RESIDUES));
        d.put("step-timeout-ms", Long.toString(Wheel.DEFAULT_STEP_TIMEOUT_MS));
        d.put("pacing", Wheel.DEFAULT_PACING.key());
        d.put("steps-in-flight", Integer.toString(Wheel.DEFAULT_STEPS_IN_FLIGHT));
        d.put("pacing-lead-ms", Long.toString(Wheel.DEFAULT_LEAD_MS));
        d.put("revisit", "true");
        d.put("revisit-unit-ms", Long.toString(Revisit.DEFAULT_UNIT_MS));
        d.put("revisit-initial-ms", Long.toString(Revisit.DEFAULT_INITIAL_MS));
        d.put("revisit-min-ms", Long.toString(Revisit.DEFAULT_MIN_MS));
        d.put("revisit-max-ms", Long.toString(Revisit.DEFAULT_MAX_MS));
        d.put("revisit-buffer-bytes", Long.toString(Revisit.DEFAULT_BUFFER_BYTES));
        d.put("revisit-state", RevisitStateMode.SATL.key());
        return Collections.unmodifiableMap(d);
    }

    private static Set<String> keys() {
        Set<String> k = new TreeSet<>(OWN_DEFAULTS.keySet());
        k.addAll(KafkaSettings.KEYS);
        return Set.copyOf(k);
    }
}
