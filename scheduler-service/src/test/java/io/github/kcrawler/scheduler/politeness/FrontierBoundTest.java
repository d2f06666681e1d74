package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import io.github.kcrawler.scheduler.wheel.Pacing;
import io.github.kcrawler.testing.Gen;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole frontier's memory bound ({@link FrontierBound}) holds at 10× its URL count: ten times as many URLs as the
 * bound allows go through a PRIORITY {@link WheelFrontier} with a {@link Spill}, and after every operation the URLs
 * it holds never exceed {@link FrontierBound#urls()} and the bytes its arrays hold ({@link WheelFrontier#memoryBytes()},
 * counted from their capacities) never exceed {@link FrontierBound#bytes()}; nothing is lost (every URL is released
 * exactly once, some of them after a stay in the spill); politeness holds (one IP's releases are T apart in
 * {@code notBefore}; one residue is never in two consecutive steps).
 */
class FrontierBoundTest {
    private static final long T = 100;

    /** The durable place, as a sorted map in the spill's key order (the scheduler uses its RocksDB pending store). */
    static final class MapSpill implements Spill {
        final TreeMap<String, PendingUrl> urls = new TreeMap<>();
        long deferred;
        long discarded;

        @Override
        public void defer(PendingUrl url) {
            assertThat(urls.put(Spill.key(url.score(), url.seq()), url)).as("spill key of %s is taken", url).isNull();
            deferred++;
        }

        @Override
        public int takeBack(int max, Sink sink) {
            int taken = 0;
            while (taken < max && !urls.isEmpty()) {
                if (sink.accept(urls.pollFirstEntry().getValue())) {
                    taken++;
                } else {
                    discarded++;
                }
            }
            return taken;
        }

        @Override
        public long size() {
            return urls.size();
        }
    }

    /** What one run saw. */
    record Run(long admitted, long released, long deferred, long takenBack, int peakSize, long peakBytes,
               double bytesPerUrlAtPeak) {
    }

    @Test
    void tenTimesTheBound_neverHeldBeyondIt_nothingLost_politenessHolds() {
        forAll(25, g -> {
            int b = g.ofInts(4, 8, 16, 32);
            int h = g.ofInts(4, 8, 16, 32);
            int pool = g.bool() ? b * (h / 2) : g.intIn(1, 2 * b * (h / 2)); // the default: B·H/2; else any
            Run run = pushTenTimesTheBound(b, h, pool, g.intIn(0, 64), g.intIn(1, 3 * h), g.longIn(0, 3 * T), g);
            assertThat(run.deferred()).as("the spill was used").isPositive();
        });
    }

    /** A larger frontier once, with the heap per URL printed (counted from array capacities, not timed). */
    @Test
    void atScale_theCountedHeapStaysWithinTheStatedBytes() {
        Gen g = new Gen(21);
        Run run = pushTenTimesTheBound(128, 128, 128 * 64, 10_000, 600, 40, g);
        FrontierBound bound = FrontierBound.of(WheelOrder.PRIORITY, 128, 128, 128 * 64, 10_000);
        System.out.printf(Locale.ROOT, "B = H = 128, max-pending = %,d: %,d URLs through, %,d deferred and taken back;"
                        + " peak %,d URLs in memory, %,d bytes counted (%.1f bytes per URL) against the bound %,d "
                        + "URLs, %,d bytes (%.1f per URL)%n", bound.urls() - 1, run.admitted(), run.takenBack(),
                run.peakSize(), run.peakBytes(), run.bytesPerUrlAtPeak(), bound.urls(), bound.bytes(),
                bound.bytesPerUrl());
        assertThat(run.peakSize()).isEqualTo(128 * 64); // the pool was full: the bound was reached, not just obeyed
        assertThat(run.takenBack()).isPositive();
    }

    /**
     * Pushes {@code 10 × bound.urls()} URLs over {@code ips} IPs (half of them to four busy IPs, so residues fill and
     * URLs wait), with score updates for pending, deferred and unseen URLs, stepping the clock 10 ms between bursts
     * and reporting each fetch {@code latency} ms after its notBefore; then drains. Checks the bound after every
     * operation and, at the end, conservation and politeness.
     */
    private static Run pushTenTimesTheBound(int b, int h, int poolCapacity, int scoreCache, int ips, long latency,
                                            Gen g) {
        SplittableRandom r = g.random();
        ManualClock clock = new ManualClock(1_000_000);
        MapSpill spill = new MapSpill();
        List<PendingUrl> evicted = new ArrayList<>();
        Pacing pacing = g.bool() ? Pacing.paper(T, 5 * T) : Pacing.pipelined(T, 4, 2 * T, 5 * T);
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, pacing, b, h, poolCapacity,
                scoreCache, evicted::add, spill);
        FrontierBound bound = f.bound();
        assertThat(bound).isEqualTo(FrontierBound.of(WheelOrder.PRIORITY, b, h, poolCapacity, scoreCache));
        assertThat(bound.urls()).isEqualTo(poolCapacity + 1L);
        assertThat(bound.wheelUrls()).isEqualTo((long) b * (h / 2));
        long total = 10 * bound.urls();

        Map<Long, String> admitted = new HashMap<>();
        Set<Long> released = new HashSet<>();
        Map<String, Long> lastNotBefore = new HashMap<>();
        Map<Integer, Long> lastStepOfResidue = new HashMap<>();
        ArrayDeque<long[]> inFlight = new ArrayDeque<>(); // {due, step}
        List<Long> fps = new ArrayList<>();
        long[] peak = new long[3]; // size, bytes, bytes at the peak size
        long seq = 0;
        int ticks = 0;
        while (released.size() < total) {
            assertThat(ticks++).as("drained within a bounded number of ticks").isLessThan(200_000);
            int burst = seq < total ? r.nextInt(3 * h) : 0;
            for (int i = 0; i < burst && seq < total; i++) {
                long fp = r.nextLong();
                if (fp == Long.MIN_VALUE || admitted.containsKey(fp)) {
                    continue;
                }
                if (r.nextInt(4) == 0) {
                    f.updateScore(fp, r.nextInt(1000)); // a score before the URL is admitted
                }
                int ipIndex = r.nextBoolean() ? r.nextInt(4) : r.nextInt(ips);
                String ip = "127.3." + (ipIndex >> 8) + "." + (ipIndex & 255);
                Admission a = f.admit(ip, fp, seq);
                assertThat(a).as("with a spill nothing is refused").isIn(Admission.QUEUED, Admission.DEFERRED);
                if (a == Admission.DEFERRED) {
                    spill.defer(new PendingUrl(ip, fp, seq, f.deferredScore())); // as the processor stores it
                }
                admitted.put(fp, ip);
                fps.add(fp);
                seq++;
                check(f, bound, peak);
                if (r.nextInt(3) == 0) { // a new score for some URL admitted earlier: pending, deferred or gone
                    f.updateScore(fps.get(r.nextInt(fps.size())), r.nextInt(1000) / 7.0);
                    check(f, bound, peak);
                }
            }
            clock.advance(10);
            while (!inFlight.isEmpty() && inFlight.peekFirst()[0] <= clock.millis()) {
                long[] done = inFlight.pollFirst();
                f.fetched("?", done[0] - latency, done[1]);
            }
            f.releaseReady((url, notBefore) -> {
                assertThat(released.add(url.fingerprint())).as("released once: %s", url).isTrue();
                assertThat(admitted.get(url.fingerprint())).as("released as admitted").isEqualTo(url.ip());
                Long last = lastNotBefore.put(url.ip(), notBefore);
                if (last != null) {
                    assertThat(notBefore - last).as("one IP's requests T apart").isGreaterThanOrEqualTo(T);
                }
                int residue = (int) Math.floorMod(WheelFrontier.ipKey(url.ip()), (long) h);
                Long lastStep = lastStepOfResidue.put(residue, f.step());
                if (lastStep != null) {
                    assertThat(f.step() - lastStep).as("a residue never in two consecutive steps")
                            .isGreaterThanOrEqualTo(2);
                }
                inFlight.addLast(new long[] {notBefore + latency, f.step()});
            });
            check(f, bound, peak);
            assertThat(f.size() + spill.size() + released.size()).as("conservation: each admitted URL is in memory, "
                    + "in the spill or released").isEqualTo(admitted.size());
        }
        assertThat(evicted).as("with a spill nothing is evicted and forgotten").isEmpty();
        assertThat(released).isEqualTo(admitted.keySet());
        assertThat(f.size()).isZero();
        assertThat(spill.size()).isZero();
        assertThat(spill.discarded).isZero();
        assertThat(f.takenBack()).isEqualTo(spill.deferred);
        return new Run(admitted.size(), released.size(), spill.deferred, f.takenBack(), (int) peak[0], peak[1],
                peak[2] / (double) Math.max(1, peak[0]));
    }

    private static void check(WheelFrontier f, FrontierBound bound, long[] peak) {
        int size = f.size();
        long bytes = f.memoryBytes();
        assertThat((long) size).as("URLs held").isLessThanOrEqualTo(bound.urls());
        assertThat(bytes).as("bytes held (counted from capacities)").isLessThanOrEqualTo(bound.bytes());
        if (size >= peak[0]) {
            peak[0] = size;
            peak[2] = bytes;
        }
        peak[1] = Math.max(peak[1], bytes);
    }

    /**
     * FIFO order, the paper's scheduler: the wheel is the frontier, B·H/2 URLs; at 10× that count the excess is refused
     * ({@link Admission#IP_FULL}: the paper's drop, which the scheduler turns into a forget) and the bound holds.
     */
    @Test
    void fifo_theWheelIsTheBound() {
        forAll(10, g -> {
            int b = g.ofInts(2, 4, 8, 16);
            int h = g.ofInts(2, 4, 8, 16);
            ManualClock clock = new ManualClock(1_000_000);
            WheelFrontier f = new WheelFrontier(clock, WheelOrder.FIFO, Pacing.paper(T, 5 * T), b, h, 1,
                    16, u -> { }, null);
            FrontierBound bound = f.bound();
            assertThat(bound.urls()).isEqualTo((long) b * (h / 2));
            SplittableRandom r = g.random();
            long queued = 0;
            long released = 0;
            for (long seq = 0; seq < 10 * bound.urls(); seq++) {
                Admission a = f.admit("127.6.0." + r.nextInt(2 * h), r.nextLong() | 1, seq);
                assertThat(a).isIn(Admission.QUEUED, Admission.IP_FULL);
                queued += a == Admission.QUEUED ? 1 : 0;
                assertThat((long) f.size()).isLessThanOrEqualTo(bound.urls());
                assertThat(f.memoryBytes()).isLessThanOrEqualTo(bound.bytes());
                if (r.nextInt(8) == 0) {
                    clock.advance(T);
                    released += f.releaseReady((url, notBefore) -> { });
                    f.fetched("?", clock.millis());
                }
            }
            assertThat(queued - released).isEqualTo(f.size());
        });
    }

    /** URLs restored beyond a lowered bound go to the spill and come back: none is held beyond it, none lost. */
    @Test
    void restoreBeyondALoweredBound_defersTheRest() {
        ManualClock clock = new ManualClock(1_000_000);
        MapSpill spill = new MapSpill();
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.paper(T, 5 * T), 4, 8, 10,
                16, evicted::add, spill);
        for (int i = 0; i < 100; i++) {
            assertThat(f.restore(new PendingUrl("127.4.0." + (i % 7), 1000 + i, i, i % 5))).isTrue();
            assertThat(f.size()).isLessThanOrEqualTo((int) f.bound().urls());
        }
        assertThat(f.size()).isEqualTo(10);
        assertThat(spill.size()).isEqualTo(90);
        Set<Long> released = new HashSet<>();
        for (int tick = 0; tick < 10_000 && released.size() < 100; tick++) {
            clock.advance(T);
            f.releaseReady((url, notBefore) -> assertThat(released.add(url.fingerprint())).isTrue());
            assertThat(f.size()).isLessThanOrEqualTo((int) f.bound().urls());
            assertThat(f.memoryBytes()).isLessThanOrEqualTo(f.bound().bytes());
        }
        assertThat(released).hasSize(100);
        assertThat(evicted).isEmpty();
    }

    /** A revisit entering a full pool moves the pool's worst waiting URL to the spill, not to a forget. */
    @Test
    void revisitIntoAFullPool_defersTheWorstWaitingUrl() {
        ManualClock clock = new ManualClock(1_000_000);
        MapSpill spill = new MapSpill();
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.paper(T, 5 * T), 4, 8, 3,
                16, evicted::add, spill);
        for (int i = 0; i < 3; i++) {
            f.updateScore(10 + i, 5 + i);
            assertThat(f.admit("127.5.0." + i, 10 + i, i)).isEqualTo(Admission.QUEUED);
        }
        f.updateScore(20, 1.0);
        assertThat(f.admit("127.5.0.9", 20, 3)).isEqualTo(Admission.DEFERRED); // not better than the worst waiting
        assertThat(f.deferredScore()).isEqualTo(1.0);
        assertThat(f.admitToWheel("127.5.1.1", 30, 4)).isEqualTo(Admission.QUEUED);
        assertThat(spill.urls.values()).extracting(PendingUrl::fingerprint).containsExactly(10L); // the worst: score 5
        assertThat(f.size()).isEqualTo(3);
        assertThat(evicted).isEmpty();
    }

    /** The bound of the defaults, stated: the whole frontier holds what paper 004's wheel may hold (plus one). */
    @Test
    void defaultBound_isThePapersBH2() {
        FrontierBound d = FrontierBound.of(WheelOrder.PRIORITY, 1024, 1024, 524_288, 100_000);
        System.out.println(d.describe());
        assertThat(d.wheelUrls()).isEqualTo(524_288);
        assertThat(d.urls()).isEqualTo(524_289);
        assertThat(d.bytes()).isEqualTo(d.wheelBytes() + d.indexBytes() + d.ipBytes() + d.scoreCacheBytes());
        FrontierBound fifo = FrontierBound.of(WheelOrder.FIFO, 1024, 1024, 524_288, 100_000);
        assertThat(fifo.urls()).isEqualTo(524_288);
    }
}
