package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.OptimalP;
import io.github.kcrawler.dedup.membership.StableBloomFilter;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight.Decrement;
import io.github.kcrawler.dedup.membership.StableCounterFilter;

import java.io.PrintStream;

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
 *
 * <p>Every timed SBFL run is checked afterwards: its counters, read back, must hold exactly what its decrements leave
 * (see {@link CounterSum}), so a rate is only printed for work that was done and a loop the JIT dropped fails the
 * bench. The SWAR sweep is bandwidth-bound; the result gives the bytes of the counter array it read and wrote per
 * second beside {@code System.arraycopy}'s over an array of the same size in the same run, and how many decrements
 * lowered a counter. What this explains (issue 24): the 1.0×10^11 SWAR decrements/s in BENCHMARKS.md, read in the
 * issue as a rate over 256 MiB, came from the check run {@code --log2-counters 24 --decrements 100000000}: a 4 MiB
 * array, which stays in this machine's 32 MiB L3 across the six sweeps of 10^8 decrements — a cache bandwidth, on
 * which the sweep's bytes touched per second are of the order of an arraycopy over the same 4 MiB — and from the
 * fourth sweep on every counter was already at zero, so half of the counted decrements lowered nothing. The run
 * over 2^30 counters (256 MiB, 1.9 sweeps, every decrement lowering a counter) is bounded by memory bandwidth and
 * gave half that rate.
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

    public static SbflDecrementResult run(Options o, PrintStream log) {
        long m = 1L << o.log2Counters();
        double p = o.p() > 0 ? o.p() : 1.0;
        long max = (1L << o.counterBits()) - 1;
        if (o.decrements() > max * m) {
            log.printf("note: %,d decrements are more than Max × m = %,d: the sweeps past the %d-th meet counters "
                    + "already at zero (countersLowered says how many lowered one)%n", o.decrements(), max * m, max);
        }
        warmUp(o, true, log);
        double sbf = time("SBF (Mersenne Twister)", new StableBloomFilter(m, 8, p, o.counterBits(), o.seed()), o,
                true, log).rate();
        double scalar = time("SBFL scalar", new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SCALAR), o,
                true, log).rate();
        Timed swar = time("SBFL SWAR", new StableBloomFilterLight(m, 8, p, o.counterBits(), Decrement.SWAR), o,
                true, log);
        Double perInsertion = null;
        Double scalarStep = null;
        Double swarStep = null;
        if (o.p() > 0) {
            warmUp(o, false, log); // after the sweeps: step-sized calls would retrain the JIT's loop profile
            scalarStep = BenchReport.round(time("SBFL scalar, p per step", new StableBloomFilterLight(m, 8, p,
                    o.counterBits(), Decrement.SCALAR), o, false, log).rate());
            swarStep = BenchReport.round(time("SBFL SWAR, p per step", new StableBloomFilterLight(m, 8, p,
                    o.counterBits(), Decrement.SWAR), o, false, log).rate());
            perInsertion = BenchReport.round(o.p());
        }
        long arrayBytes = m * o.counterBits() / 8;
        // the sweep reads and writes each decremented counter's bits once: 2 × bits / 8 bytes a decrement
        double touched = swar.rate() * o.counterBits() / 8.0 * 2;
        double copy = arrayCopyBytesPerSecond(arrayBytes, (long) Math.min(Long.MAX_VALUE / 2,
                (double) o.decrements() * o.counterBits() / 8.0 * 2));
        log.printf("SBFL SWAR touched %.4g bytes/s of its %,d-byte array; System.arraycopy over as many bytes: "
                + "%.4g bytes/s%n", touched, arrayBytes, copy);
        return new SbflDecrementResult(m, o.counterBits(), o.decrements(),
                BenchReport.round(o.decrements() / sbf), BenchReport.round(o.decrements() / scalar),
                BenchReport.round(o.decrements() / swar.rate()), BenchReport.round(sbf), BenchReport.round(scalar),
                BenchReport.round(swar.rate()), BenchReport.round(scalar / sbf), BenchReport.round(swar.rate() / sbf),
                BenchReport.round(SbflDecrementResult.PAPER_SBF_SECONDS / SbflDecrementResult.PAPER_SBFL_SECONDS),
                BenchReport.round(SbflDecrementResult.PAPER_SBF_SECONDS
                        / SbflDecrementResult.PAPER_SBFL_SWAR_SECONDS),
                perInsertion, scalarStep, swarStep, arrayBytes, swar.countersLowered(), BenchReport.round(touched),
                BenchReport.round(copy), BenchReport.machine());
    }

    /**
     * {@code System.arraycopy} bandwidth over one {@code long[]} of {@code arrayBytes}: its first half copied onto its
     * second and back, at least twice and until about {@code targetBytes} were read plus written; bytes read plus
     * written per second. The array is written before the timed copies, so its pages are mapped; an element of it is
     * read afterwards, so the copies have an observer.
     */
    static double arrayCopyBytesPerSecond(long arrayBytes, long targetBytes) {
        int words = (int) Math.max(2, Math.min(Integer.MAX_VALUE - 8, arrayBytes / 8));
        int half = words / 2;
        long[] a = new long[words];
        java.util.Arrays.fill(a, 0x5555_5555_5555_5555L);
        a[0] = 1;
        System.arraycopy(a, 0, a, half, half); // warm-up, untimed
        long perCopy = 16L * half; // read plus written
        long copies = Math.max(2, (targetBytes + perCopy - 1) / perCopy);
        long start = System.nanoTime();
        for (long i = 0; i < copies; i++) {
            if ((i & 1) == 0) {
                System.arraycopy(a, 0, a, half, half);
            } else {
                System.arraycopy(a, half, a, 0, half);
            }
            a[(int) (i % half)] += i; // each copy carries a different first half: nothing to hoist
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        sink ^= a[(int) (copies % words)];
        return copies * perCopy / seconds;
    }

    /** Written by the array copy so that its result is observed (never read). */
    @SuppressWarnings("unused")
    private static volatile long sink;

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

    /** One timed run: its decrements per second and, for an SBFL, how many of them lowered a counter. */
    record Timed(double rate, long countersLowered) {
    }

    /**
     * Decrements per second, then the check that the run did what it counts: the counters read back from the filter
     * must hold exactly what {@code done} decrements from Max leave (SBFL: the cursor sweeps, so each counter's
     * decrements are known; SBF: random positions, so the sum must have fallen by at most {@code done}, and by
     * something). A loop the JIT dropped or shortened fails the bench instead of printing a rate.
     */
    private static Timed time(String name, StableCounterFilter filter, Options o, boolean bulk, PrintStream log) {
        filter.fill(filter.counterMax()); // not timed: 256 MiB of stores would count as decrements
        long start = System.nanoTime();
        long done = run(filter, o, bulk);
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = done / seconds;
        log.printf("%-24s %,d decrements of 2^%d %d-bit counters in %.3f s = %.4g /s%n", name, done,
                o.log2Counters(), o.counterBits(), seconds, rate);
        long full = filter.counters() * filter.counterMax();
        long lowered = full - CounterSum.of(filter);
        if (filter instanceof StableBloomFilterLight) {
            long expected = full - CounterSum.afterSweep(filter.counters(), filter.counterMax(), done);
            if (lowered != expected) {
                throw new IllegalStateException(String.format("%s: %,d counters lowered after %,d decrements, "
                        + "expected %,d: the timed loop did not do the work it counts", name, lowered, done, expected));
            }
        } else if (lowered > done || lowered <= 0) {
            throw new IllegalStateException(String.format("%s: %,d counters lowered after %,d decrements: the "
                    + "timed loop did not do the work it counts", name, lowered, done));
        }
        return new Timed(rate, lowered);
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
