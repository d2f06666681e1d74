package io.github.kcrawler.dedup.jmh;

import io.github.kcrawler.dedup.membership.OptimalP;
import io.github.kcrawler.dedup.membership.StableBloomFilter;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight.Decrement;
import io.github.kcrawler.dedup.membership.StableCounterFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * JMH view of seed 000 Table 1: decrement throughput of SBF (Mersenne Twister), SBFL scalar and SBFL SWAR, both as a
 * sweep of 2^16 counters per call (the paper's setting, ops = counters) and as the decay step of one insertion
 * (p = 84.73, the paper's k = 8, FPR = 10^-5 example; ops = insertions). The plain-Java {@code SbflDecrementBench}
 * runs the full 2^30 × 2×10^9 configuration; this one gives steady-state figures with error bars.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SbflDecrementJmh {
    private static final int SWEEP = 1 << 16;

    @Param({"SBF", "SBFL_SCALAR", "SBFL_SWAR"})
    public String variant;

    @Param({"24"})
    public int log2Counters;

    @Param({"2"})
    public int counterBits;

    private StableCounterFilter filter;

    @Setup
    public void setUp() {
        long m = 1L << log2Counters;
        double p = OptimalP.of(1L << 30, 8, 1e-5, 3);
        switch (variant) {
            case "SBF":
                filter = new StableBloomFilter(m, 8, p, counterBits, 5489L);
                break;
            case "SBFL_SCALAR":
                filter = new StableBloomFilterLight(m, 8, p, counterBits, Decrement.SCALAR);
                break;
            default:
                filter = new StableBloomFilterLight(m, 8, p, counterBits, Decrement.SWAR);
        }
        filter.fill(filter.counterMax());
    }

    /** Counters decremented per second in long sweeps. */
    @Benchmark
    @OperationsPerInvocation(SWEEP)
    public void sweep() {
        filter.decrement(SWEEP);
    }

    /** Insertions' decay steps per second (p ≈ 84.73 counters each). */
    @Benchmark
    public long decayStep() {
        return filter.decayStep();
    }
}
