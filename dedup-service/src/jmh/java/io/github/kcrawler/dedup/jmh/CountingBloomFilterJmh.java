package io.github.kcrawler.dedup.jmh;

import io.github.kcrawler.dedup.content.CountingBloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001's counting Bloom filter operations per second (ops = fingerprints): the k = 8 positions of a 128-bit
 * fingerprint, the all-non-zero test that decides whether IMP-CB reads its DB, and a reference added then released
 * (k increments, k decrements). m = 2^20 fits in cache; m = 4×10^7 is the paper's m/N = 20 at 2M items (20 MB, so
 * each position is a cache miss). The filter is filled to N = m/20 items first, as in the benchmark.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CountingBloomFilterJmh {
    private static final int KEYS = 1 << 16;

    @Param({"1048576", "40000000"})
    public int counters;

    private CountingBloomFilter filter;
    private final long[] hi = new long[KEYS];
    private final long[] lo = new long[KEYS];
    private final int[] pos = new int[CountingBloomFilter.DEFAULT_HASHES];
    private int next;

    @Setup
    public void setUp() {
        filter = new CountingBloomFilter(counters, CountingBloomFilter.DEFAULT_HASHES);
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < counters / CountingBloomFilter.DEFAULT_COUNTERS_PER_ITEM; i++) {
            filter.positions(r.nextLong(), r.nextLong(), pos);
            for (int p : pos) {
                filter.increment(p);
            }
        }
        for (int i = 0; i < KEYS; i++) {
            hi[i] = r.nextLong();
            lo[i] = r.nextLong();
        }
    }

    /** The k positions of a fingerprint (double hashing, two unsigned remainders). */
    @Benchmark
    public int positions() {
        int i = next++ & (KEYS - 1);
        filter.positions(hi[i], lo[i], pos);
        return pos[0] ^ pos[7];
    }

    /** IMP-CB's read-or-not decision for a new fingerprint (mostly stops at the first zero counter). */
    @Benchmark
    public boolean mightContain() {
        int i = next++ & (KEYS - 1);
        return filter.mightContain(hi[i], lo[i]);
    }

    /** One reference stored and released: k saturating increments, then k decrements. */
    @Benchmark
    public int incrementThenDecrement() {
        int i = next++ & (KEYS - 1);
        filter.positions(hi[i], lo[i], pos);
        int s = 0;
        for (int p : pos) {
            s += filter.increment(p);
        }
        for (int p : pos) {
            s += filter.decrement(p);
        }
        return s;
    }
}
