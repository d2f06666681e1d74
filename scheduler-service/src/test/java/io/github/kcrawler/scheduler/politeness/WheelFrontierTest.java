package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** Paper 004's wheel as the scheduler's frontier: politeness per IP, step gating, priority entry, lossless restore. */
class WheelFrontierTest {
    private static final long T = 200;

    private static WheelFrontier frontier(ManualClock clock, WheelOrder order, int b, int h, int pool,
                                          List<PendingUrl> evicted) {
        return new WheelFrontier(clock, order, T, 5 * T, b, h, pool, 100, evicted::add);
    }

    private static String ip(int i) {
        return "127.1." + (i / 256) + "." + (i % 256);
    }

    /** Drives the frontier at a 10 ms tick, reporting each release's fetch after {@code latency} ms. */
    private static Map<String, List<Long>> drain(ManualClock clock, Frontier f, long latency, int maxTicks) {
        Map<String, List<Long>> times = new HashMap<>();
        List<long[]> inFlight = new ArrayList<>();
        List<String> inFlightIp = new ArrayList<>();
        for (int tick = 0; tick < maxTicks && (f.size() > 0 || !inFlight.isEmpty()); tick++) {
            clock.advance(10);
            for (int i = inFlight.size() - 1; i >= 0; i--) {
                if (inFlight.get(i)[0] <= clock.millis()) {
                    f.fetched(inFlightIp.get(i), inFlight.get(i)[1]);
                    inFlight.remove(i);
                    inFlightIp.remove(i);
                }
            }
            f.releaseReady((url, notBefore) -> {
                assertThat(notBefore).isEqualTo(clock.millis());
                times.computeIfAbsent(url.ip(), k -> new ArrayList<>()).add(notBefore);
                inFlight.add(new long[] {clock.millis() + latency, clock.millis()});
                inFlightIp.add(url.ip());
            });
        }
        return times;
    }

    @Test
    void everyIp_isReleasedAtLeastTApart_andEveryQueuedUrlExactlyOnce() {
        forAll(60, g -> everyIp_isReleasedAtLeastTApart_andEveryQueuedUrlExactlyOnce(
                g.intIn(1, 40),
                g.intIn(1, 200),
                g.longIn(0, 400),
                g.bool(),
                g.longIn(0, 1000)));
    }

    void everyIp_isReleasedAtLeastTApart_andEveryQueuedUrlExactlyOnce(int ips, int urls, long latency,
            boolean priority, long seed) {
        ManualClock clock = new ManualClock(1_000_000);
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = frontier(clock, priority ? WheelOrder.PRIORITY : WheelOrder.FIFO, 8, 16,
                1000, evicted);
        Random r = new Random(seed);
        Set<Long> queued = new HashSet<>();
        for (int i = 0; i < urls; i++) {
            long fp = r.nextLong();
            f.updateScore(fp, r.nextInt(100));
            if (f.admit(ip(r.nextInt(ips)), fp, i) == Admission.QUEUED) {
                queued.add(fp);
            }
        }
        assertThat(evicted).isEmpty();
        assertThat(f.size()).isEqualTo(queued.size());
        Map<String, List<Long>> times = drain(clock, f, latency, 100_000);
        assertThat(f.size()).isZero();
        assertThat(times.values().stream().mapToInt(List::size).sum()).isEqualTo(queued.size());
        times.forEach((ip, list) -> {
            for (int i = 1; i < list.size(); i++) {
                assertThat(list.get(i) - list.get(i - 1)).as("gap of %s", ip).isGreaterThanOrEqualTo(T);
            }
        });
    }

    @Test
    void nextStep_waitsForThePreviousStepsFetches_untilTheTimeout() {
        ManualClock clock = new ManualClock(0);
        WheelFrontier f = frontier(clock, WheelOrder.FIFO, 8, 16, 10, new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            f.admit(ip(i), 100 + i, i);            // residues of parity 0 and 1: two steps
            f.admit(ip(i), 200 + i, 10 + i);
        }
        List<PendingUrl> out = new ArrayList<>();
        clock.advance(T);
        assertThat(f.releaseReady((u, nb) -> out.add(u))).isPositive();
        int first = out.size();
        assertThat(f.outstanding()).isEqualTo(first);
        clock.advance(2 * T);
        assertThat(f.releaseReady((u, nb) -> out.add(u))).as("fetches not reported yet").isZero();
        for (int i = 0; i < first; i++) {
            f.fetched(out.get(i).ip(), clock.millis());
        }
        assertThat(f.releaseReady((u, nb) -> out.add(u))).isPositive();
        int second = out.size() - first;
        clock.advance(5 * T); // no results at all: the step timeout lets the crawl go on
        assertThat(f.releaseReady((u, nb) -> out.add(u))).isPositive();
        assertThat(out.size()).isGreaterThan(first + second);
    }

    @Test
    void priority_entersTheWheelBestFirst_andAFullPoolEvictsTheWorst() {
        ManualClock clock = new ManualClock(0);
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = frontier(clock, WheelOrder.PRIORITY, 8, 64, 6, evicted);
        for (int i = 0; i < 6; i++) {
            f.updateScore(1000 + i, i * 10.0);       // score 0, 10, ..., 50; each its own IP
            assertThat(f.admit(ip(i), 1000 + i, i)).isEqualTo(Admission.QUEUED);
        }
        f.updateScore(2000, 100.0);
        assertThat(f.admit(ip(7), 2000, 7)).isEqualTo(Admission.QUEUED);
        assertThat(evicted).extracting(PendingUrl::fingerprint).containsExactly(1000L); // score 0 left
        assertThat(f.admit(ip(8), 3000, 8)).as("worse than everything pending").isEqualTo(Admission.FRONTIER_FULL);
        f.updateScore(1001, 500.0); // a pending URL's score rises

        assertThat(f.pending(1001).score()).isEqualTo(500.0);
        assertThat(drain(clock, f, 0, 1000).values().stream().mapToInt(List::size).sum()).isEqualTo(6);

        List<Long> released = new ArrayList<>();
        ManualClock c2 = new ManualClock(0);
        WheelFrontier g = frontier(c2, WheelOrder.PRIORITY, 8, 64, 100, new ArrayList<>());
        // One IP for all: the wheel then hands out one URL per two steps, in pool order.
        for (int i = 0; i < 5; i++) {
            g.updateScore(5000 + i, i);
            g.admit(ip(0), 5000 + i, i);
        }
        for (int tick = 0; tick < 200 && g.size() > 0; tick++) {
            c2.advance(10);
            g.releaseReady((u, nb) -> {
                released.add(u.fingerprint());
                g.fetched(u.ip(), nb);
            });
        }
        assertThat(released).hasSize(5);
        assertThat(released.get(0)).as("the best URL enters the wheel first").isEqualTo(5004L);
    }

    /**
     * An initial score (the link share) is the URL's score unless a larger one arrived before it was admitted; a full
     * pool weighs it like any score; it must be finite and not below zero.
     */
    @Test
    void admit_withAnInitialScore_takesTheLargerOfItAndAnEarlyScore() {
        ManualClock clock = new ManualClock(0);
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = frontier(clock, WheelOrder.PRIORITY, 8, 64, 3, evicted);
        f.updateScore(1, 0.7); // early, larger than the share
        f.updateScore(2, 0.1); // early, smaller than the share
        assertThat(f.admit(ip(1), 1, 1, 0.3)).isEqualTo(Admission.QUEUED);
        assertThat(f.admit(ip(2), 2, 2, 0.3)).isEqualTo(Admission.QUEUED);
        assertThat(f.admit(ip(3), 3, 3, 0.2)).isEqualTo(Admission.QUEUED);
        assertThat(f.pending(1).score()).isEqualTo(0.7);
        assertThat(f.pending(2).score()).isEqualTo(0.3);
        assertThat(f.pending(3).score()).isEqualTo(0.2);
        assertThat(f.admit(ip(4), 4, 4, 0.05)).as("worse than everything pending").isEqualTo(Admission.FRONTIER_FULL);
        assertThat(f.admit(ip(5), 5, 5, 0.5)).isEqualTo(Admission.QUEUED);
        assertThat(evicted).extracting(PendingUrl::fingerprint).containsExactly(3L);
        for (double bad : new double[] {-0.1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> f.admit(ip(6), 6, 6, bad)))
                    .as("initial score " + bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(f.size()).isEqualTo(3);
    }

    @Test
    void admitToWheel_bypassesAPoolFullOfBetterUrls() {
        ManualClock clock = new ManualClock(0);
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = frontier(clock, WheelOrder.PRIORITY, 8, 64, 4, evicted);
        for (int i = 0; i < 4; i++) {
            f.updateScore(100 + i, 1000.0);
            f.admit(ip(i), 100 + i, i);
        }
        assertThat(f.admitToWheel(ip(9), 999, 10)).isEqualTo(Admission.QUEUED);
        assertThat(f.admitToWheel(ip(9), 999, 11)).isEqualTo(Admission.DUPLICATE);
        assertThat(f.inWheel()).isEqualTo(1);
        // The pool's capacity bounds every pending URL, those placed in the wheel too: the revisit takes the place
        // of the worst waiting URL (equal scores: the newest), which is evicted for a forget.
        assertThat(evicted).extracting(PendingUrl::fingerprint).containsExactly(103L);
        assertThat(f.size()).isEqualTo(4);
        List<Long> first = new ArrayList<>();
        for (int step = 0; step < 2; step++) { // the residue of 127.1.0.9 has its parity's step among the next two
            clock.advance(T);
            f.releaseReady((u, nb) -> {
                first.add(u.fingerprint());
                f.fetched(u.ip(), nb);
            });
        }
        assertThat(first).contains(999L);
    }

    @Test
    void restore_keepsEveryUrl_evenWhenTheWheelIsFull() {
        ManualClock clock = new ManualClock(0);
        WheelFrontier f = frontier(clock, WheelOrder.FIFO, 4, 2, 10, new ArrayList<>());
        List<PendingUrl> kept = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (f.admit(ip(0), 7000 + i, i) == Admission.QUEUED) {
                kept.add(f.pending(7000 + i));
            }
        }
        assertThat(kept).hasSizeLessThan(20); // the wheel dropped the rest: at most B/2 per residue
        // A restart restores more than the fresh wheel takes (e.g. smaller B now): nothing is dropped.
        WheelFrontier g = new WheelFrontier(clock, WheelOrder.FIFO, T, 5 * T, 2, 2, 10, 10, u -> { });
        for (PendingUrl u : kept) {
            assertThat(g.restore(u)).isTrue();
        }
        assertThat(g.size()).isEqualTo(kept.size());
        Map<String, List<Long>> times = drain(clock, g, 0, 10_000);
        assertThat(times.get(ip(0))).hasSize(kept.size());
    }
}
