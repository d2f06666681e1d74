package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.scheduler.politeness.FrontierBound;
import io.github.kcrawler.scheduler.politeness.WheelOrder;
import io.github.kcrawler.scheduler.revisit.BucketStoreOptions;
import io.github.kcrawler.scheduler.revisit.FlushOrder;
import io.github.kcrawler.scheduler.revisit.SatlBuckets;
import io.github.kcrawler.scheduler.wheel.Pacing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;

/**
 * Everything the scheduler service can be told, validated once here so that a bad value fails at start-up with
 * its name and value, never deep inside a punctuator. Each key is declared once, as a {@link Setting} (key, type,
 * default or its formula, rule, description): the top-level ones here, the wheel's in {@link Wheel}, the revisits' in
 * {@link Revisit}; {@link #SETTINGS} lists them all, and parsing, {@code --help} and docs/CONFIGURATION.md come from
 * there.
 *
 * @param politenessMs     T: minimum time between two fetch requests released for one IP
 * @param tickMs           how often the wall-clock punctuator asks the wheel for the steps it may take (shorter
 *                         than T; the per-IP heap, removed in issue 24, also used it as its release look-ahead)
 * @param maxPending       most URLs pending per partition in memory. Order {@code priority}: the whole frontier (pool
 *                         and wheel; default B·H/2 at the default B and H, paper 004's bound), and a URL over it
 *                         waits in the pending store's spill, nothing is dropped ({@link #frontierBound()});
 *                         {@code fifo}: unused (the wheel's B·H/2 bounds it)
 * @param scoreCacheSize   most scores kept (per partition) for URLs that are not pending yet
 * @param threads          Kafka Streams threads
 * @param commitMs         Kafka Streams commit interval (with exactly-once, the latency of every release)
 * @param metricsHost      address of the Prometheus endpoint ({@code 0.0.0.0} in a container)
 * @param metricsPort      port of the Prometheus endpoint, 0 picks a free one
 * @param wheel            the politeness wheel of paper 004 and the order URLs enter it
 * @param revisit          revisiting fetched pages (paper 003's SAT/L queue, adaptive intervals)
 * @param journal          when the pending store logs a snapshot of its journaled changelog
 */
public record SchedulerConfig(KafkaSettings kafka, long politenessMs, long tickMs, int maxPending,
                              int scoreCacheSize, int threads, long commitMs,
                              String metricsHost, int metricsPort, Wheel wheel, Revisit revisit,
                              JournalSnapshots journal) {
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
     * @param heldMax     {@code satl} only: most due pages one partition holds in memory while they wait in the
     *                    politeness wheel (their durable record stays in SAT/L's changelog until release); a due page
     *                    beyond it waits in SAT/L one more unit
     * @param flushOrder  which SAT/L write buffers go to disk first when the buffers are full: {@code farthest-first}
     *                    (ours, the default: the buckets due last, so that records re-queued into near buckets stay
     *                    in memory) or {@code time-order} (paper 003 §2.2 as written: the nearest first)
     * @param earlyFraction ours: a page may be revisited up to this fraction of its interval early when that saves
     *                    SAT/L re-queueing it into finer buckets ({@link BucketStoreOptions#earlyFraction()}); the
     *                    default is the paper's s = 1/12, the resolution SAT/L already keeps far-future times to;
     *                    0 = paper 003's strict timing
     */
    public record Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes,
                          RevisitStateMode state, int heldMax, FlushOrder flushOrder, double earlyFraction) {
        public static final Setting<Boolean> ENABLED = Setting.bool("revisit", true,
                "revisit fetched pages (paper 003's SAT/L queue, adaptive intervals)");
        public static final Setting<Long> UNIT_MS = Setting.longValue("revisit-unit-ms", 60_000L, Check.atLeast(1),
                "time unit of the revisit queue; due pages are taken once per unit");
        public static final Setting<Long> INITIAL_MS = Setting.longValue("revisit-initial-ms", 86_400_000L,
                Check.any(), "interval before a page's first revisit (within [revisit-min-ms, revisit-max-ms])");
        public static final Setting<Long> MIN_MS = Setting.longValue("revisit-min-ms", 60_000L, Check.any(),
                "shortest revisit interval the change-rate estimator may choose (>= revisit-unit-ms)");
        public static final Setting<Long> MAX_MS = Setting.longValue("revisit-max-ms", 400L * 86_400_000, Check.any(),
                "longest revisit interval, for a page never seen to change (>= revisit-min-ms)");
        public static final Setting<Long> BUFFER_BYTES = Setting.longValue("revisit-buffer-bytes", 4L << 20,
                Check.range(32 * 1024, 1L << 34, "32768..2^34"), "SAT/L write buffers per partition (4 KiB pages)");
        public static final Setting<RevisitStateMode> STATE = Setting.choice("revisit-state", RevisitStateMode.SATL,
                RevisitStateMode::key, RevisitStateMode::parse,
                "where a page's revisit state lives: in the SAT/L queue (satl) or a per-page store (store)",
                RevisitStateMode.values());
        public static final Setting<Integer> HELD_MAX = Setting.integer("revisit-held-max", 16_384,
                Check.range(1, 1 << 24), "satl: most due pages a partition holds in memory while they wait in the "
                        + "politeness wheel (~0.5 KB each); more wait in SAT/L one more unit");
        public static final Setting<FlushOrder> FLUSH_ORDER = Setting.choice("revisit-flush-order",
                FlushOrder.FARTHEST_FIRST, Revisit::flushOrderKey, Revisit::parseFlushOrder,
                "which SAT/L write buffers go to disk first when they are full: farthest-first (ours: the buckets "
                        + "due last) or time-order (paper 003 2.2: the nearest first)", FlushOrder.values());
        public static final Setting<Double> EARLY_FRACTION = Setting.decimal("revisit-early-fraction",
                SatlBuckets.S, Check.of(f -> f >= 0 && f < 1, "[0, 1)"), "ours: a page may be revisited up to this "
                        + "fraction of its interval early when that saves SAT/L a re-queue into finer buckets (default "
                        + "paper 003's s = 1/12); 0 = the paper's strict timing");
        /** The revisit keys, in --help order. */
        public static final SettingSet SETTINGS = SettingSet.of(ENABLED, UNIT_MS, INITIAL_MS, MIN_MS, MAX_MS,
                BUFFER_BYTES, STATE, HELD_MAX, FLUSH_ORDER, EARLY_FRACTION);

        public static final long DEFAULT_UNIT_MS = UNIT_MS.defaultValue();
        public static final long DEFAULT_INITIAL_MS = INITIAL_MS.defaultValue();
        public static final long DEFAULT_MIN_MS = MIN_MS.defaultValue();
        public static final long DEFAULT_MAX_MS = MAX_MS.defaultValue();
        public static final long DEFAULT_BUFFER_BYTES = BUFFER_BYTES.defaultValue();

        public Revisit {
            UNIT_MS.check(unitMs);
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
            BUFFER_BYTES.check(bufferBytes);
            if (state == null) {
                throw new IllegalArgumentException("revisit-state must be satl or store");
            }
            HELD_MAX.check(heldMax);
            if (flushOrder == null) {
                throw new IllegalArgumentException("revisit-flush-order must be farthest-first or time-order");
            }
            EARLY_FRACTION.check(earlyFraction);
        }

        /** The settings with the default {@code revisit-early-fraction}. */
        public Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes,
                       RevisitStateMode state, int heldMax, FlushOrder flushOrder) {
            this(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, state, heldMax, flushOrder,
                    EARLY_FRACTION.defaultValue());
        }

        /** The settings with the default {@code revisit-flush-order}. */
        public Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes,
                       RevisitStateMode state, int heldMax) {
            this(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, state, heldMax, FLUSH_ORDER.defaultValue());
        }

        /** The settings with the default {@code revisit-state} ({@code satl}) and {@code revisit-held-max}. */
        public Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes) {
            this(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, RevisitStateMode.SATL);
        }

        /** The settings with the default {@code revisit-held-max}. */
        public Revisit(boolean enabled, long unitMs, long initialMs, long minMs, long maxMs, long bufferBytes,
                       RevisitStateMode state) {
            this(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, state, HELD_MAX.defaultValue());
        }

        public static Revisit defaults() {
            return from(Settings.empty());
        }

        /** Reads the revisit keys (defaults where unset). */
        public static Revisit from(Settings s) {
            return new Revisit(s.get(ENABLED), s.get(UNIT_MS), s.get(INITIAL_MS), s.get(MIN_MS), s.get(MAX_MS),
                    s.get(BUFFER_BYTES), s.get(STATE), s.get(HELD_MAX), s.get(FLUSH_ORDER), s.get(EARLY_FRACTION));
        }

        public Revisit withState(RevisitStateMode newState) {
            return new Revisit(enabled, unitMs, initialMs, minMs, maxMs, bufferBytes, newState, heldMax, flushOrder,
                    earlyFraction);
        }

        /**
         * The bucket stores' options for these settings: no absolute tolerance (paper 003's e = 0), the early
         * fraction, buffered I/O.
         */
        public BucketStoreOptions bucketOptions() {
            return new BucketStoreOptions(bufferBytes, 0, false, flushOrder, earlyFraction);
        }

        static String flushOrderKey(FlushOrder order) {
            return order.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        static FlushOrder parseFlushOrder(String s) {
            for (FlushOrder o : FlushOrder.values()) {
                if (flushOrderKey(o).equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return o;
                }
            }
            throw new IllegalArgumentException("revisit-flush-order must be farthest-first or time-order, was '" + s
                    + "'");
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

        /** The orders the {@code order} setting offers. */
        static final Order[] SETTABLE = {PRIORITY, FIFO};

        /** {@code priority} or {@code fifo}; {@code per-ip} is no longer a setting (issue 24). */
        public static Order parse(String s) {
            for (Order o : SETTABLE) {
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
     * @param lookahead     priority order (ours): most URLs of a partition placed in the wheel or released and not
     *                      yet reported, at most two waiting per IP; the pool hands the wheel no more (0: only the
     *                      wheel's own B·H/2 bound).
     *                      Once a URL is in the wheel its place is fixed, so this is how far ahead the crawl commits
     *                      to an order before newer scores can change it ({@link
     *                      io.github.kcrawler.scheduler.politeness.WheelFrontier})
     */
    public record Wheel(Order order, int queues, int residues, long stepTimeoutMs, Pacing.Mode pacing,
                        int stepsInFlight, long leadMs, int lookahead) {
        /** The lower bound of {@code step-timeout-ms}'s default: max(this, politeness-ms). */
        public static final long DEFAULT_STEP_TIMEOUT_MS = 10_000;
        public static final long MAX_LEAD_MS = 60_000;

        public static final Setting<Order> ORDER = Setting.choice("order", Order.PRIORITY, Order::key, Order::parse,
                "how admitted URLs enter the wheel: best score first from a bounded pool (priority) or as they come",
                Order.SETTABLE);
        public static final Setting<Integer> QUEUES = Setting.integer("wheel-queues", 1024, Check.range(2, 1 << 20),
                "B: steps the politeness wheel plans ahead; a residue holds at most B/2 URLs");
        public static final Setting<Integer> RESIDUES = Setting.integer("wheel-residues", 1024,
                Check.of(h -> h >= 2 && h <= 1 << 24 && h % 2 == 0, "must be even and in 2..16777216"),
                "H: IPs share a residue modulo H and are paced as one");
        public static final Setting<Long> STEP_TIMEOUT_MS = Setting.longValue("step-timeout-ms",
                Setting.derived("max(" + DEFAULT_STEP_TIMEOUT_MS + ", politeness-ms)",
                        s -> Math.max(DEFAULT_STEP_TIMEOUT_MS, s.get(POLITENESS_MS))), Check.atLeast(1),
                "a step waits at most this long for the fetch results of the step it depends on (>= politeness-ms)");
        public static final Setting<Pacing.Mode> PACING = Setting.choice("pacing", Pacing.Mode.PIPELINED,
                Pacing.Mode::key, Pacing.Mode::parse,
                "pipelined: steps of T/2 released ahead; paper: paper 004's one step per T after the last was reported",
                Pacing.Mode.PIPELINED, Pacing.Mode.PAPER);
        /*
         * 256 (12.8 s of steps at T = 100 ms, 2.6 s at T = 20 ms): the bound a step's lost results hold the crawl by
         * (with step-timeout-ms), not a window the pipeline runs into. With 32, the requests that the fetcher's per-IP
         * guard holds back (T after the previous request ended, so T + a response time per request) left old steps
         * unreported and stopped the whole partition for 0.2-1.4 s at a time (issue 19's demo, BENCHMARKS.md,
         * twenty-fourth session). In priority order the lookahead and its per-IP cap (ResidueFlights) bound what is
         * in flight.
         */
        public static final Setting<Integer> STEPS_IN_FLIGHT = Setting.integer("steps-in-flight", 256,
                Check.range(1, Pacing.MAX_STEPS_IN_FLIGHT),
                "pipelined: steps whose fetches may all be unreported when a new one is taken");
        public static final Setting<Long> LEAD_MS = Setting.longValue("pacing-lead-ms", 250L,
                Check.range(0, MAX_LEAD_MS), "pipelined: how long before its notBefore a step is released");
        /*
         * 128 per partition is what bench order measured best on cnr-2000 (100 SCC seeds, 4 partitions): criterion B
         * 0.476 / 0.767 / 0.941 at 20 / 50 / 90 % against 0.363 / 0.635 / 0.939 with 512 and a breadth-first
         * 0.313 / 0.607 / 0.913 with 1,024 or none (BENCHMARKS.md). Released and unreported URLs count: when only
         * the waiting ones did, a quiet machine released far ahead of its fetches and the order fell back to
         * breadth-first (0.263 / 0.319 at 10 / 20 %, against 0.311 / 0.448 counting them; fourteenth session). At
         * most two URLs per IP wait in the wheel, so a busy host whose URLs top the pool cannot hold the window
         * while it drains at its polite rate (WheelFrontier). 0 = the paper's wheel alone.
         */
        public static final Setting<Integer> LOOKAHEAD = Setting.integer("wheel-lookahead", 128,
                Check.range(0, 1 << 28), "priority: most URLs per partition waiting in the wheel or in flight, two "
                        + "per IP at most (how far ahead the crawl order is fixed; 128 measured best); 0 = only the "
                        + "wheel's B·H/2");
        /** The wheel's keys, in --help order. */
        public static final SettingSet SETTINGS = SettingSet.of(ORDER, QUEUES, RESIDUES, STEP_TIMEOUT_MS, PACING,
                STEPS_IN_FLIGHT, LEAD_MS, LOOKAHEAD);

        public static final int DEFAULT_QUEUES = QUEUES.defaultValue();
        public static final int DEFAULT_RESIDUES = RESIDUES.defaultValue();
        public static final Pacing.Mode DEFAULT_PACING = PACING.defaultValue();
        public static final int DEFAULT_STEPS_IN_FLIGHT = STEPS_IN_FLIGHT.defaultValue();
        public static final long DEFAULT_LEAD_MS = LEAD_MS.defaultValue();
        public static final int DEFAULT_LOOKAHEAD = LOOKAHEAD.defaultValue();

        public Wheel {
            if (order == null) {
                throw new IllegalArgumentException("order must be given (priority or fifo)");
            }
            QUEUES.check(queues);
            RESIDUES.check(residues);
            if ((long) queues * residues / 2 > 1L << 28) {
                throw new IllegalArgumentException("wheel-queues × wheel-residues / 2 must be <= 2^28 URLs, was "
                        + (long) queues * residues / 2);
            }
            STEP_TIMEOUT_MS.check(stepTimeoutMs);
            if (pacing == null) {
                throw new IllegalArgumentException("pacing must be given (pipelined or paper)");
            }
            STEPS_IN_FLIGHT.check(stepsInFlight);
            LEAD_MS.check(leadMs);
            LOOKAHEAD.check(lookahead);
        }

        /** The default pacing (pipelined) with the given order, bounds and step timeout. */
        public Wheel(Order order, int queues, int residues, long stepTimeoutMs) {
            this(order, queues, residues, stepTimeoutMs, DEFAULT_PACING, DEFAULT_STEPS_IN_FLIGHT, DEFAULT_LEAD_MS,
                    DEFAULT_LOOKAHEAD);
        }

        /** The defaults at the default politeness-ms. */
        public static Wheel defaults() {
            return from(Settings.empty());
        }

        /** Reads the wheel's keys; {@code step-timeout-ms} defaults to max(10000, politeness-ms). */
        public static Wheel from(Settings s) {
            Pacing.Mode pacing = s.get(PACING);
            if (pacing == Pacing.Mode.PAPER && (s.has(STEPS_IN_FLIGHT.key()) || s.has(LEAD_MS.key()))) {
                throw new IllegalArgumentException("pacing=paper takes one step per T after the previous step's "
                        + "fetches were reported: steps-in-flight and pacing-lead-ms apply to pacing=pipelined only");
            }
            return new Wheel(s.get(ORDER), s.get(QUEUES), s.get(RESIDUES), s.get(STEP_TIMEOUT_MS), pacing,
                    s.get(STEPS_IN_FLIGHT), s.get(LEAD_MS), s.get(LOOKAHEAD));
        }

        public Wheel withOrder(Order newOrder) {
            return new Wheel(newOrder, queues, residues, stepTimeoutMs, pacing, stepsInFlight, leadMs, lookahead);
        }

        public Wheel withPacing(Pacing.Mode newPacing) {
            return new Wheel(order, queues, residues, stepTimeoutMs, newPacing, stepsInFlight, leadMs, lookahead);
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
    /** Below this interval a crawl hammers servers; allowed (tests, a private websim) but warned about. */
    public static final long IMPOLITE_BELOW_MS = 100;
    /** The upper bound of {@code tick-ms}'s default: min(this, politeness-ms / 2). */
    public static final long DEFAULT_TICK_MS = 20;

    /** T (the shared declaration); the wheel needs T &gt; 0, where the fetcher accepts 0. */
    public static final Setting<Long> POLITENESS_MS = CommonSettings.POLITENESS_MS.withCheck(Check.positive());
    public static final Setting<Long> TICK_MS = Setting.longValue("tick-ms",
            Setting.derived("max(1, min(" + DEFAULT_TICK_MS + ", politeness-ms / 2))",
                    s -> defaultTickMs(s.get(POLITENESS_MS))),
            Check.of(t -> t > 0, "must be > 0 and smaller than politeness-ms"),
            "how often ready IPs are released; also the release look-ahead");
    public static final Setting<Integer> MAX_PENDING = Setting.integer("max-pending",
            Wheel.QUEUES.defaultValue() * (Wheel.RESIDUES.defaultValue() / 2),
            Check.positive(), "URLs pending per partition in memory (B·H/2 at the default B, H); more wait in the "
                    + "pending store's spill");
    public static final Setting<Integer> SCORE_CACHE_SIZE = Setting.integer("score-cache-size", 100_000,
            Check.atLeast(0), "scores kept per partition for URLs that are not pending yet");
    public static final Setting<Integer> THREADS = KafkaSettings.STREAMS_THREADS.withCheck(Check.range(1, 64));
    public static final Setting<Long> COMMIT_MS = KafkaSettings.STREAMS_COMMIT_MS.withDefault(100L)
            .withCheck(Check.atLeast(1));
    /** This service's own keys, in --help order. */
    public static final SettingSet OWN_SETTINGS = SettingSet.of(POLITENESS_MS, TICK_MS, MAX_PENDING,
            SCORE_CACHE_SIZE, THREADS, COMMIT_MS, CommonSettings.METRICS, Wheel.SETTINGS,
            Revisit.SETTINGS, JournalSnapshots.SETTINGS);
    /** Every key {@link #from(Settings)} reads: its own, then the Kafka ones. */
    public static final SettingSet SETTINGS = SettingSet.of(OWN_SETTINGS, KafkaSettings.SETTINGS);

    public static final long DEFAULT_POLITENESS_MS = POLITENESS_MS.defaultValue();
    public static final int DEFAULT_MAX_PENDING = MAX_PENDING.defaultValue();

    /** Keys of this service's own settings, each with its default, in --help order. */
    public static final Map<String, String> OWN_DEFAULTS = OWN_SETTINGS.defaults();

    /** Every key {@link #from(Settings)} reads, including the Kafka ones. */
    public static final Set<String> KEYS = SETTINGS.keys();

    public SchedulerConfig {
        if (kafka == null) {
            throw new IllegalArgumentException("kafka settings must not be null");
        }
        POLITENESS_MS.check(politenessMs);
        if (!TICK_MS.accepts(tickMs) || tickMs >= politenessMs) { // the rule names T, so it is checked here
            throw new IllegalArgumentException(TICK_MS.key() + " " + TICK_MS.rule() + " (" + politenessMs + "), was "
                    + tickMs);
        }
        MAX_PENDING.check(maxPending);
        SCORE_CACHE_SIZE.check(scoreCacheSize);
        THREADS.check(threads);
        COMMIT_MS.check(commitMs);
        CommonSettings.METRICS_HOST.check(metricsHost);
        CommonSettings.METRICS_PORT.check(metricsPort);
        if (wheel == null) {
            throw new IllegalArgumentException("wheel settings must not be null");
        }
        if (revisit == null) {
            throw new IllegalArgumentException("revisit settings must not be null");
        }
        if (journal == null) {
            throw new IllegalArgumentException("journal snapshot settings must not be null");
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

    /** With the default journal snapshots. */
    public SchedulerConfig(KafkaSettings kafka, long politenessMs, long tickMs, int maxPending, int scoreCacheSize,
                           int threads, long commitMs, String metricsHost, int metricsPort, Wheel wheel,
                           Revisit revisit) {
        this(kafka, politenessMs, tickMs, maxPending, scoreCacheSize, threads, commitMs, metricsHost, metricsPort,
                wheel, revisit, JournalSnapshots.DEFAULTS);
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
        return from(Settings.empty(), kafka);
    }

    /** The tick when none is set: {@link #DEFAULT_TICK_MS}, or T/2 when T is that small, so any T >= 2 ms works. */
    public static long defaultTickMs(long politenessMs) {
        return Math.max(1, Math.min(DEFAULT_TICK_MS, politenessMs / 2));
    }

    public static SchedulerConfig from(Settings s) {
        return from(s, KafkaSettings.from(s));
    }

    private static SchedulerConfig from(Settings s, KafkaSettings kafka) {
        return new SchedulerConfig(kafka, s.get(POLITENESS_MS), s.get(TICK_MS), s.get(MAX_PENDING),
                s.get(SCORE_CACHE_SIZE), s.get(THREADS), s.get(COMMIT_MS),
                s.get(CommonSettings.METRICS_HOST), s.get(CommonSettings.METRICS_PORT), Wheel.from(s),
                Revisit.from(s), JournalSnapshots.from(s));
    }

    public SchedulerConfig withPoliteness(long newPolitenessMs, long newTickMs) {
        Wheel w = new Wheel(wheel.order(), wheel.queues(), wheel.residues(),
                Math.max(wheel.stepTimeoutMs(), newPolitenessMs), wheel.pacing(), wheel.stepsInFlight(),
                wheel.leadMs(), wheel.lookahead());
        return new SchedulerConfig(kafka, newPolitenessMs, newTickMs, maxPending, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, w, revisit, journal);
    }

    public SchedulerConfig withWheel(Wheel newWheel) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, maxPending, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, newWheel, revisit, journal);
    }

    public SchedulerConfig withRevisit(Revisit newRevisit) {
        return new SchedulerConfig(kafka, politenessMs, tickMs, maxPending, scoreCacheSize,
                threads, commitMs, metricsHost, metricsPort, wheel, newRevisit, journal);
    }
}
