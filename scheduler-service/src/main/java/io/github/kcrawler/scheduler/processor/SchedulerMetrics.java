package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.scheduler.revisit.RevisitPolicy;

import io.github.kcrawler.common.metrics.BadRecordCounters;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.serde.BadRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * The scheduler's meters, registered once when the service is built (never per record): releases, drops by
 * reason, skipped input by topic and {@link BadRecord} reason (every reason registered up front so dashboards see
 * zeros), and the frontier gauges summed over local tasks.
 */
public final class SchedulerMetrics {
    public static final String DROP_FRONTIER_FULL = "frontier-full";
    public static final String DROP_IP_FULL = "ip-full";
    public static final String DROP_DUPLICATE = "duplicate";
    /** URLs deferred to and taken back from the frontier's spill (tag {@code op}). */
    public static final String SPILL = "crawler.scheduler.spill";

    /** Reason of the ForgetUrl sent for a URL refused by either bound (dedup only needs to know it may re-admit). */
    public static final String FORGET_REASON = "frontier-full";

    final Counter released;
    final Counter droppedFrontierFull;
    final Counter droppedIpFull;
    final Counter droppedDuplicate;
    final Counter stepsReported;
    final Counter revisitsDue;
    final Counter revisitsHeldFull;
    final Counter revisitStoreReads;
    final Counter revisitStoreWrites;
    final io.micrometer.core.instrument.DistributionSummary revisitRecordBytes;
    final Counter revisitWithoutState;
    final Counter revisitBucketBytes;
    private final io.micrometer.core.instrument.DistributionSummary revisitEarlyFraction;
    private final java.util.Map<io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit, Counter> revisitBounded =
            new java.util.EnumMap<>(io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit.class);
    private final java.util.Map<RevisitPolicy.Outcome, Counter> revisitOutcomes =
            new java.util.EnumMap<>(RevisitPolicy.Outcome.class);
    final Counter stepsTimedOut;
    /** URLs moved to the frontier's spill (over its memory bound) and taken back from it. */
    final Counter deferred;
    final Counter takenBack;
    private final MeterRegistry registry;
    private final BadRecordCounters bad;

    /**
     * @param sources the input topics and the pending store, whose bad-record counters are registered now
     */
    public SchedulerMetrics(MeterRegistry registry, LocalFrontiers frontiers, Collection<String> sources) {
        this.registry = registry;
        released = Counter.builder(MetricNames.SCHEDULER_RELEASED).description("fetch requests released")
                .register(registry);
        droppedFrontierFull = dropped(DROP_FRONTIER_FULL);
        droppedIpFull = dropped(DROP_IP_FULL);
        droppedDuplicate = dropped(DROP_DUPLICATE);
        deferred = Counter.builder(SPILL).tag("op", "deferred")
                .description("URLs over the frontier's memory bound moved to the pending store's spill")
                .register(registry);
        takenBack = Counter.builder(SPILL).tag("op", "taken-back")
                .description("URLs taken back from the spill into the frontier").register(registry);
        stepsReported = Counter.builder(MetricNames.SCHEDULER_STEPS).tag("trigger", "reported")
                .description("wheel steps taken once the step they wait for (the previous one, or steps-in-flight "
                        + "back) was fully reported")
                .register(registry);
        stepsTimedOut = Counter.builder(MetricNames.SCHEDULER_STEPS).tag("trigger", "timeout")
                .description("wheel steps taken after step-timeout-ms with fetches of the step they wait for "
                        + "unreported")
                .register(registry);
        Gauge.builder(MetricNames.FRONTIER_SIZE, frontiers, LocalFrontiers::size)
                .description("URLs waiting in the scheduler").register(registry);
        Gauge.builder(SPILL + ".size", frontiers, LocalFrontiers::deferred)
                .description("of the URLs waiting in the scheduler, those deferred to the pending store's spill "
                        + "(over the frontier's memory bound)").register(registry);
        Gauge.builder(MetricNames.SCHEDULER_ACTIVE_IPS, frontiers, LocalFrontiers::activeIps)
                .description("IPs with URLs waiting in the scheduler").register(registry);
        revisitStoreReads = Counter.builder(MetricNames.SCHEDULER_REVISIT_STORE_OPS).tag("op", "read")
                .description("revisit-state store reads by key (random reads)").register(registry);
        revisitStoreWrites = Counter.builder(MetricNames.SCHEDULER_REVISIT_STORE_OPS).tag("op", "write")
                .description("revisit-state store puts and deletes (changelog records)").register(registry);
        revisitRecordBytes = io.micrometer.core.instrument.DistributionSummary
                .builder(MetricNames.SCHEDULER_REVISIT_RECORD_BYTES).baseUnit("bytes")
                .description("sizes of the revisit records written").register(registry);
        revisitBucketBytes = Counter.builder(MetricNames.SCHEDULER_REVISIT_BUCKET_BYTES).baseUnit("bytes")
                .description("bytes the SAT/L revisit queue wrote to its bucket files").register(registry);
        revisitEarlyFraction = io.micrometer.core.instrument.DistributionSummary
                .builder(MetricNames.SCHEDULER_REVISIT_EARLY_FRACTION)
                .description("how early each due revisit entered the frontier, as a fraction of its interval "
                        + "(revisit-early-fraction; 0 when on time)").register(registry);
        revisitWithoutState = Counter.builder(MetricNames.SCHEDULER_REVISITS_WITHOUT_STATE)
                .description("revisits whose result or pending entry carried no usable state").register(registry);
        revisitsDue = Counter.builder(MetricNames.SCHEDULER_REVISITS_DUE)
                .description("revisits that came due and entered the frontier").register(registry);
        revisitsHeldFull = Counter.builder(MetricNames.SCHEDULER_REVISITS_HELD_FULL)
                .description("due revisits that waited one more unit: revisit-held-max reached").register(registry);
        for (io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit f
                : io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit.values()) {
            if (f != io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit.AS_IS) {
                revisitBounded.put(f, Counter.builder(MetricNames.SCHEDULER_REVISITS_BOUNDED)
                        .tag("fit", f.name().toLowerCase(java.util.Locale.ROOT))
                        .description("revisit states that did not fit a SAT/L record as they were")
                        .register(registry));
            }
        }
        for (RevisitPolicy.Outcome o : RevisitPolicy.Outcome.values()) {
            revisitOutcomes.put(o, Counter.builder(MetricNames.SCHEDULER_REVISITS)
                    .tag("outcome", o.name().toLowerCase(java.util.Locale.ROOT))
                    .description("fetch results applied to revisit state").register(registry));
        }
        this.bad = new BadRecordCounters(registry, sources);
    }

    private Counter dropped(String reason) {
        return Counter.builder(MetricNames.SCHEDULER_DROPPED).tag("reason", reason)
                .description("URLs dropped by the scheduler").register(registry);
    }

    /** A page's revisit state that had to lose its validators to fit a SAT/L record, or could not be kept. */
    void revisitBounded(io.github.kcrawler.scheduler.revisit.RevisitRecords.Fit fit) {
        Counter c = revisitBounded.get(fit);
        if (c != null) {
            c.increment();
        }
    }

    void revisitOutcome(RevisitPolicy.Outcome outcome) {
        revisitOutcomes.get(outcome).increment();
    }

    /** A due revisit that entered the frontier {@code earlyUnits} before its time (≤ 0: on time or late). */
    void revisitEarly(long earlyUnits, long intervalUnits) {
        revisitEarlyFraction.record(earlyUnits <= 0 || intervalUnits <= 0 ? 0.0
                : Math.min(1.0, (double) earlyUnits / intervalUnits));
    }

    /** Counts one skipped record of {@code topic} (an input topic, or the pending store's name). */
    public void bad(String topic, BadRecord reason) {
        bad.count(topic, reason);
    }

    public double releasedCount() {
        return released.count();
    }
}
