package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.OptimalP;
import io.github.kcrawler.dedup.membership.StableBloomFilter;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight.Decrement;
import io.github.kcrawler.dedup.membership.StableCounterFilter;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Seed 000 Table 1: the time to decrement 2^30 2-bit counters 2×10^9 times with the SBF (random positions from a
 * Mersenne Twister), the SBFL one counter at a time, and the SBFL 32 counters per word (SWAR). Paper: 320.7 s,
 * 9.435 s, 0.9672 s on a 2.66 GHz Xeon — SBFL 34× and SWAR 332× faster than SBF.
 *
 * <p>Main figures, as in the paper: each filter decrements the same number of counters in one long sweep (SBF: one
 * Mersenne Twister draw per decrement; SBFL: the cursor sweeps the array), issued in calls of 2^16 counters so that
 * the loops are compiled as ordinary methods rather than on-stack replaced. Secondary figures run the SBFL the way an
 * insertion does ({@link StableCounterFilter#decayStep()}: p counters per step with the carried fraction, p = 84.73
 * by default — the paper's m = 2^30, k = 8, FPR = 10^-5 example), where the per-step overhead shows. The SBF is not
 * repeated per insertion: its cost is the random draw and the cache miss per decrement either way. Counters start at
 * Max (not timed) so early decrements are not no-ops. One filter is allocated at a time (256 MiB at the defaults);
 * a warm-up on a small filter runs before each group (sweeps, then steps) so the timed runs are compiled with the
 * profile of what they time. Wall-clock, single-threaded, one run each: on a shared machine, repeat and take the
 * best.
 */
public final class SbflDecrementBench {
    /**
     * @param log2Counters m = 2^log2Counters counters (paper: 30)
     * @param decrements   counter decrements per filter (paper: 2×10^9)
     * @param counterBits  bits per counter (paper: 2)
     * @param p            counters per insertion step for the secondary SBFL figures; ≤ 0 skips them
     * @param seed         Mersenne Twister seed of the SBF
     */
    public record Options(int log2Counters, long decrements, int counterBits, double p, long seed) {
        public static final int DEFAULT_LOG2_COUNTERS = 30;
        public static final long DEFAULT_DECREMENTS = 2_000_000_000L;
        public static final int DEFAULT_COUNTER_BITS = 2;
        public static final double DEFAULT_P = OptimalP.of(1L << 30, 8, 1e-5, 3);
        public static final long DEFAULT_SEED = 5489L;

        public Options {
            if (log2Counters < 6 || log2Counters > 32) {
                throw new IllegalArgumentException("log2 counters must be in 6..32, was " + log2Counters);
            }
            if (decrements < 1) {
                throw new IllegalArgumentException("decrements must be >= 1, was " + decrements);
            }
            if (counterBits != 1 && counterBits != 2 && counterBits != 4 && counterBits != 8) {
                throw new IllegalArgumentException("counter bits must be 1, 2, 4 or 8, was " + counterBits);
            }
            if (Double.isNaN(p) || p > (1L << log2Counters)) {
                throw new IllegalArgumentException("p must be <= m (or <= 0 to skip the per-insertion runs), was " + p);
            }
        }

        public static Options defaults() {
            return new Options(DEFAULT_LOG2_COUNTERS, DEFAULT_DECREMENTS, DEFAULT_COUNTER_BITS, DEFAULT_P,
                    DEFAULT_SEED);
        }
    }

    /** Counters per call in the sweep runs: long enough to amortise the call, short enough to JIT-compile normally. */
    static final int SWEEP_CHUNK = 1 << 16;

    private SbflDecrementBench() {
    }

    public static Map<String, Object> run(Options o, PrintStream log) {
        long m = 1L << o.log2Counters();
        double p = o.p() > 0 ? o.p() : 1.0;
        warmUp(o, true, log);
        double sbf = time("SBF (Mersenne Twister)", new StableBloomFilter(m, 8, p, o.counterBits(), o.seed()), o,
                true, log);
        double scalar = time("SBFL scalar", new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SCALAR), o,
                true, log);
        double swar = time("SBFL SWAR", new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SWAR), o,
                true, log);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("counters", m);
        r.put("counterBits", o.counterBits());
        r.put("decrements", o.decrements());
        r.put("sbfSeconds", BenchReport.round(o.decrements() / sbf));
        r.put("sbflSeconds", BenchReport.round(o.decrements() / scalar));
        r.put("sbflSwarSeconds", BenchReport.round(o.decrements() / swar));
        r.put("sbfDecrementsPerSec", BenchReport.round(sbf));
        r.put("sbflDecrementsPerSec", BenchReport.round(scalar));
        r.put("sbflSwarDecrementsPerSec", BenchReport.round(swar));
        r.put("sbflSpeedupOverSbf", BenchReport.round(scalar / sbf));
        r.put("sbflSwarSpeedupOverSbf", BenchReport.round(swar / sbf));
        r.put("paperSbflSpeedupOverSbf", BenchReport.round(320.7 / 9.435));
        r.put("paperSbflSwarSpeedupOverSbf", BenchReport.round(320.7 / 0.9672));
        if (o.p() > 0) {
            warmUp(o, false, log); // after the sweeps: step-sized calls would retrain the JIT's loop profile
            double scalarStep = time("SBFL scalar, p per step", new StableBloomFilterLight(m, 8, p, o.counterBits(),
                    Decrement.SCALAR), o, false, log);
            double swarStep = time("SBFL SWAR, p per step", new StableBloomFilterLight(m, 8, p, o.counterBits(),
                    Decrement.SWAR), o, false, log);
            r.put("decrementsPerInsertion", BenchReport.round(o.p()));
            r.put("sbflPerInsertionDecrementsPerSec", BenchReport.round(scalarStep));
            r.put("sbflSwarPerInsertionDecrementsPerSec", BenchReport.round(swarStep));
        }
        r.put("machine", BenchReport.machine());
        return r;
    }

    private static void warmUp(Options o, boolean bulk, PrintStream log) {
        int log2 = Math.min(o.log2Counters(), 20);
        long m = 1L << log2;
        double p = o.p() > 0 ? Math.min(o.p(), m) : 1.0;
        Options small = new Options(log2, Math.min(o.decrements(), 50_000_000L), o.counterBits(), p, o.seed());
        for (int round = 0; round < 2; round++) {
            if (bulk) {
                run(new StableBloomFilter(m, 8, p, o.counterBits(), o.seed()), small, true);
            }
            run(new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SCALAR), small, bulk);
            run(new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SWAR), small, bulk);
        }
        // (warm-up filters start empty: decrementing zeros runs the same code)
        log.println("warmed up on 2^" + log2 + " counters (" + (bulk ? "sweeps" : "per-insertion steps") + ")");
    }

    /** Decrements per second. */
    private static double time(String name, StableCounterFilter filter, Options o, boolean bulk, PrintStream log) {
        filter.fill(filter.counterMax()); // not timed: 256 MiB of stores would count as decrements
        long start = System.nanoTime();
        long done = run(filter, o, bulk);
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = done / seconds;
        log.printf("%-24s %,d decrements of 2^%d %d-bit counters in %.3f s = %.4g /s%n", name, done,
                o.log2Counters(), o.counterBits(), seconds, rate);
        return rate;
    }

    /** Runs the decrements; returns how many were done (the last step may overshoot by less than p). */
    private static long run(StableCounterFilter filter, Options o, boolean bulk) {
        if (bulk) {
            long left = o.decrements();
            while (left > 0) {
                long step = Math.min(SWEEP_CHUNK, left);
                filter.decrement(step);
                left -= step;
            }
            return o.decrements();
        }
        long done = 0;
        long total = o.decrements();
        while (done < total) {
            done += filter.decayStep();
        }
        return done;
    }
}
