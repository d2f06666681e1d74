package io.github.kcrawler.scheduler.jmh;

import io.github.kcrawler.scheduler.wheel.PolitenessWheel;
import io.github.kcrawler.scheduler.politeness.PriorityFront;
import org.openjdk.jmh.annotations.AuxCounters;
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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of paper 004's wheel and of the priority front in steady state (goal: ≥ 2·10^7 operations per second).
 * {@code wheel}: a round of {@code enqueuesPerStep} enqueues of random IP keys and one Next, i.e. a crawl where as
 * many URLs are discovered per step as a step can hand out (H/2 by default); ops = enqueues + Nexts. The wheel stays
 * near its B·H/2 capacity, so both branches (accept and drop) run. {@code wheelNextOnly}: Next with the batch
 * copied out, then the handed-out items enqueued again under their own handle as IP key; the secondary counters
 * {@code handedOut} and {@code enqueued} give items per second. {@code pool}: one offer (evicting when full) plus
 * one pollBest per two ops, scores log-uniform over six decades, at {@code poolCapacity} entries (a small pool stays
 * in cache, 2^21 = B·H/2 does not).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PolitenessWheelJmh {
    private static final int KEYS = 1 << 16;
    private static final int ROUND = 1024;

    @Param({"2048"})
    public int queues;

    @Param({"2048"})
    public int residues;

    @Param({"65536", "2097152"})
    public int poolCapacity;

    /** Items moved by {@link #wheelNextOnly}, reported per second by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Items {
        public long handedOut;
        public long enqueued;
    }

    private PolitenessWheel wheel;
    private PriorityFront pool;
    private long[] ips;
    private double[] scores;
    private long[] out;
    private int cursor;
    private long handle;

    @Setup
    public void setUp() {
        wheel = new PolitenessWheel(queues, residues);
        pool = new PriorityFront(poolCapacity);
        SplittableRandom rnd = new SplittableRandom(42);
        ips = new long[KEYS];
        scores = new double[KEYS];
        for (int i = 0; i < KEYS; i++) {
            ips[i] = rnd.nextLong() & 0xFFFF_FFFFL; // IPv4 addresses
            scores[i] = Math.pow(10, rnd.nextDouble() * 6 - 3);
        }
        out = new long[wheel.maxBatch()];
        for (int i = 0; i < 4 * queues; i++) { // fill to steady state
            round();
        }
        for (int i = 0; i < pool.capacity(); i++) {
            pool.offer(i, scores[i & (KEYS - 1)]);
        }
        handle = pool.capacity();
    }

    private int round() {
        int c = cursor;
        long h = handle;
        int accepted = 0;
        for (int i = 0; i < ROUND; i++) {
            accepted += wheel.enqueue(ips[(c + i) & (KEYS - 1)], h + i) ? 1 : 0;
        }
        cursor = (c + ROUND) & (KEYS - 1);
        handle = h + ROUND;
        return accepted + wheel.next(out);
    }

    @Benchmark
    @OperationsPerInvocation(ROUND + 1)
    public int wheel() {
        return round();
    }

    @Benchmark
    public int wheelNextOnly(Items items) {
        int n = wheel.next(out);
        int accepted = 0;
        // refill so that later Nexts have work again
        for (int i = 0; i < n; i++) {
            accepted += wheel.enqueue(out[i], out[i]) ? 1 : 0;
        }
        items.handedOut += n;
        items.enqueued += accepted;
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(2 * ROUND)
    public long pool() {
        long acc = 0;
        int c = cursor;
        long h = handle;
        for (int i = 0; i < ROUND; i++) {
            acc += pool.offer(h + i, scores[(c + i) & (KEYS - 1)]);
            acc += pool.pollBest();
        }
        cursor = (c + ROUND) & (KEYS - 1);
        handle = h + ROUND;
        return acc;
    }
}
