package io.github.kcrawler.lab.scheduler.revisit.bench;

import io.github.kcrawler.scheduler.revisit.SatlBuckets;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Paper 003's Table 1, computed rather than measured: how many buffers SAT and SAT/L keep for revisit intervals
 * 1…T (SAT one per time unit, T; SAT/L one per distinct bucket of {@link SatlBuckets}, logarithmic in T). The
 * counts are exact and take milliseconds: within one resolution level (τ fixed) the buckets are all multiples of τ
 * between two extremes, so no pair (now, distance) is enumerated ({@code SatlBenchTest} checks that against brute
 * force). {@link SatlBench} reports it beside its measured run.
 */
public final class SatlTable1 {
    private SatlTable1() {
    }

    /**
     * Buffers of SAT and SAT/L for intervals min…max (paper Table 1: 1 day, 1 hour and 1 minute to 400 days, each in
     * its own unit so T = 400, 9,600, 576,000). SAT needs T. For SAT/L two counts:
     * <ul>
     *   <li>{@code satlInstant}: distinct buckets b(t, t+d) for d = 1…T at one time t (averaged, with min and max,
     *       over 64 values of t spread over one period of the largest τ);</li>
     *   <li>{@code satlSteady}: buffers alive at time t when records have been scheduled at every t0 ∈ (t − T, t]
     *       with every d: the buckets b &gt; t of all of them. For one resolution level (d with ⌈ln d⌉ = k, τ_k
     *       fixed) and t0 running over an interval, the buckets are all multiples of τ_k between the extremes, so the
     *       count is exact without enumerating T² pairs.</li>
     * </ul>
     */
    /**
     * One row of Table 1: buffers of SAT (= T) and of SAT/L for a maximum interval of T units, with the paper's.
     *
     * @param satlInstantMean mean over 64 instants of one instant's distinct buckets, to 0.1
     */
    public record Row(long maxIntervalUnits, long sat, double satlInstantMean, long satlInstantMin, long satlInstantMax,
                      long satlSteady, long paperSat, long paperSatl) {
    }

    public static Map<String, Row> table1() {
        Map<String, Row> out = new LinkedHashMap<>();
        long[] maxIntervals = {400, 9_600, 576_000};
        String[] names = {"1d", "1h", "1m"};
        long[] paperSat = {400, 9_600, 57_600}; // the paper prints 57,600 for 1 minute … 400 days (576,000)
        long[] paperSatl = {90, 173, 275};
        for (int r = 0; r < maxIntervals.length; r++) {
            long t = maxIntervals[r];
            long tauMax = SatlBuckets.tau(t);
            long base = 10 * t;
            long min = Long.MAX_VALUE;
            long max = 0;
            double sum = 0;
            int samples = 64;
            for (int k = 0; k < samples; k++) {
                long now = base + k * Math.max(1, tauMax / samples);
                long c = instantCount(now, t);
                min = Math.min(min, c);
                max = Math.max(max, c);
                sum += c;
            }
            out.put(names[r], new Row(t, t, Math.round(sum / samples * 10) / 10.0, min, max, steadyCount(base, t),
                    paperSat[r], paperSatl[r]));
        }
        return out;
    }

    /**
     * Distinct buckets b(now, now + d) for d = 1…T. Within one resolution level (τ fixed) the buckets are all the
     * multiples of τ between the extremes, so each level is counted without visiting every d (T = 576,000 × 64
     * samples took seconds that way; a test checks both agree).
     */
    static long instantCount(long now, long maxInterval) {
        LongOpenHashSet set = new LongOpenHashSet();
        forEachLevel(maxInterval, (dlo, dhi, tau) -> {
            for (long m = Math.floorDiv(now + dlo, tau); m <= Math.floorDiv(now + dhi, tau); m++) {
                set.add(m * tau);
            }
        });
        return set.size();
    }

    /** One resolution level: distances dlo…dhi share τ. */
    @FunctionalInterface
    interface Level {
        void accept(long dlo, long dhi, long tau);
    }

    /** Calls {@code level} for each run of distances 1…maxInterval with the same τ, in order. */
    static void forEachLevel(long maxInterval, Level level) {
        long dlo = 1;
        while (dlo <= maxInterval) {
            long tau = SatlBuckets.tau(dlo);
            long dhi = dlo;
            // extend to the end of this resolution level (τ does not decrease with the distance)
            long step = 1;
            while (dhi + step <= maxInterval && SatlBuckets.tau(dhi + step) == tau) {
                dhi += step;
                step *= 2;
            }
            while (step > 0) {
                if (dhi + step <= maxInterval && SatlBuckets.tau(dhi + step) == tau) {
                    dhi += step;
                }
                step /= 2;
            }
            level.accept(dlo, dhi, tau);
            dlo = dhi + 1;
        }
    }

    static long steadyCount(long now, long maxInterval) {
        LongOpenHashSet set = new LongOpenHashSet();
        forEachLevel(maxInterval, (dlo, dhi, tau) -> {
            // t0 ∈ (now − T, now], d ∈ [dlo, dhi]: buckets are all multiples of τ in
            // [⌊(now − T + 1 + dlo)/τ⌋τ, ⌊(now + dhi)/τ⌋τ]; alive if > now
            long lo = Math.floorDiv(now - maxInterval + 1 + dlo, tau);
            long hi = Math.floorDiv(now + dhi, tau);
            for (long m = Math.max(lo, Math.floorDiv(now, tau) + 1); m <= hi; m++) {
                set.add(m * tau);
            }
        });
        return set.size();
    }
}
