package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import io.github.kcrawler.scheduler.wheel.Pacing;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wheel frontier paced {@code pipelined} (ours) against {@code paper}, on a manual clock with a simulated
 * pipeline behind it: a released request becomes visible to the fetcher only at the scheduler's next commit
 * (exactly-once: every {@value #COMMIT_MS} ms) plus a poll delay; the fetcher starts it at
 * {@code max(notBefore, visible, guard)} where the guard is the fetcher's {@code IpGuard} rule (more than T after the
 * previous access to the IP <em>ended</em>); its result reaches the scheduler {@value #RESULT_MS} ms after the fetch
 * ended. Politeness efficiency of an IP is (requests × T) / (last start − first start), as issue 19 measures it.
 */
class WheelFrontierPacingTest {
    private static final long T = 100;
    private static final long TICK = 10;
    private static final long COMMIT_MS = 100;
    private static final long POLL_MS = 5;
    private static final long FETCH_MS = 2;
    private static final long RESULT_MS = 60;

    private static String ip(int i) {
        return "127.1." + (i / 256) + "." + (i % 256);
    }

    /** The pipeline behind the frontier and what it observed. */
    private static final class Pipeline {
        final ManualClock clock;
        final WheelFrontier frontier;
        final SplittableRandom random;
        final double lostResults;
        final Map<String, List<Long>> notBefore = new HashMap<>();
        final Map<String, List<Long>> starts = new HashMap<>();
        final Map<String, List<Long>> steps = new HashMap<>();
        final Map<String, Long> guardFree = new HashMap<>();
        final Set<Long> released = new HashSet<>();
        final List<Long> duplicates = new ArrayList<>();
        /** Pending results: {time, step, ip index in ipNames}. */
        final PriorityQueue<long[]> results = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        final List<String> ipNames = new ArrayList<>();
        final Map<String, Integer> ipIndex = new HashMap<>();
        long maxInWheel;

        Pipeline(ManualClock clock, WheelFrontier frontier, SplittableRandom random, double lostResults) {
            this.clock = clock;
            this.frontier = frontier;
            this.random = random;
            this.lostResults = lostResults;
        }

        void tick() {
            clock.advance(TICK);
            long now = clock.millis();
            while (!results.isEmpty() && results.peek()[0] <= now) {
                long[] r = results.poll();
                frontier.fetched(ipNames.get((int) r[2]), r[0], r[1]);
            }
            frontier.releaseReady((url, nb) -> {
                long step = frontier.step();
                if (!released.add(url.fingerprint())) {
                    duplicates.add(url.fingerprint());
                }
                notBefore.computeIfAbsent(url.ip(), k -> new ArrayList<>()).add(nb);
                steps.computeIfAbsent(url.ip(), k -> new ArrayList<>()).add(step);
                long visible = (now / COMMIT_MS + 1) * COMMIT_MS + POLL_MS;
                long start = Math.max(Math.max(nb, visible), guardFree.getOrDefault(url.ip(), Long.MIN_VALUE));
                long end = start + FETCH_MS;
                guardFree.put(url.ip(), end + T + 1);
                starts.computeIfAbsent(url.ip(), k -> new ArrayList<>()).add(start);
                if (random.nextDouble() >= lostResults) {
                    int i = ipIndex.computeIfAbsent(url.ip(), k -> {
                        ipNames.add(k);
                        return ipNames.size() - 1;
                    });
                    results.add(new long[] {end + RESULT_MS, step, i});
                }
            });
            maxInWheel = Math.max(maxInWheel, frontier.inWheel());
        }

        void drain(int maxTicks) {
            for (int t = 0; t < maxTicks && (frontier.size() > 0 || !results.isEmpty()); t++) {
                tick();
            }
        }
    }

    private static double efficiency(List<Long> times) {
        List<Long> sorted = new ArrayList<>(times);
        sorted.sort(null);
        return (double) sorted.size() * T / (sorted.get(sorted.size() - 1) - sorted.get(0));
    }

    private static long smallestGap(List<Long> times) {
        List<Long> sorted = new ArrayList<>(times);
        sorted.sort(null);
        long min = Long.MAX_VALUE;
        for (int i = 1; i < sorted.size(); i++) {
            min = Math.min(min, sorted.get(i) - sorted.get(i - 1));
        }
        return min;
    }

    /** One busy IP (300 URLs) among 40 quiet ones (3 URLs each); returns the pipeline after the crawl. */
    private static Pipeline busyIp(Pacing pacing) {
        ManualClock clock = new ManualClock(1_000_000);
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, pacing, 1024, 128, 10_000, 100,
                u -> { });
        long seq = 0;
        for (int i = 0; i < 300; i++) {
            assertThat(f.admit(ip(0), 1_000 + i, seq++)).isEqualTo(Admission.QUEUED);
        }
        for (int j = 1; j <= 40; j++) {
            for (int i = 0; i < 3; i++) {
                assertThat(f.admit(ip(j), 100_000L * j + i, seq++)).isEqualTo(Admission.QUEUED);
            }
        }
        Pipeline p = new Pipeline(clock, f, new SplittableRandom(1), 0);
        p.drain(1_000_000);
        assertThat(f.size()).isZero();
        assertThat(p.released).hasSize(300 + 120);
        assertThat(p.duplicates).isEmpty();
        return p;
    }

    @Test
    void pipelined_servesABusyIpOncePerT_withResultsArrivingLate() {
        Pipeline p = busyIp(Pacing.pipelined(T, 32, 250, 10_000));
        List<Long> nb = p.notBefore.get(ip(0));
        assertThat(smallestGap(nb)).as("the scheduler's own spacing of one IP").isGreaterThanOrEqualTo(T);
        assertThat(efficiency(nb)).as("notBefore: one request per T").isGreaterThan(0.99);
        List<Long> starts = p.starts.get(ip(0));
        assertThat(smallestGap(starts)).isGreaterThan(T);
        double e = efficiency(starts);
        System.out.printf("pipelined: busy IP efficiency %.3f (notBefore %.3f), steps %d, after timeout %d%n", e,
                efficiency(nb), p.frontier.steps(), p.frontier.stepsAfterTimeout());
        assertThat(e).as("at the server: T against T + fetch + 1 ms of the guard").isGreaterThanOrEqualTo(0.95);
        assertThat(p.frontier.stepsAfterTimeout()).isZero();
    }

    @Test
    void paper_servesABusyIpAtMostOncePerTwoStepsOfTPlusTheRoundTrip() {
        Pipeline p = busyIp(Pacing.paper(T, 10_000));
        List<Long> starts = p.starts.get(ip(0));
        assertThat(smallestGap(starts)).isGreaterThan(T);
        double e = efficiency(starts);
        System.out.printf("paper: busy IP efficiency %.3f, steps %d%n", e, p.frontier.steps());
        // a residue every other step of at least T: 1/2 at best (here the round trip fits in T), 0.42 in the demo
        assertThat(e).as("every other step").isLessThanOrEqualTo(0.51);
    }

    /**
     * Random crawls (IPs, URLs admitted while the crawl runs, lost results that only the step timeout gets past),
     * both pacings and both orders: every queued URL is released exactly once, nothing stays behind, one IP's
     * notBefore values are at least T apart, and the wheel never holds more than B·H/2. Rerun a seed with
     * {@code -Dpacing.seed=S}.
     */
    @Test
    void randomCrawls_releaseEveryUrlOnce_politely_withinTheMemoryBound() {
        long base = Long.getLong("pacing.seed", System.nanoTime());
        System.out.println("WheelFrontierPacingTest seed: " + base + " (rerun with -Dpacing.seed=" + base + ")");
        SplittableRandom seeds = new SplittableRandom(base);
        for (int run = 0; run < 24; run++) {
            long seed = seeds.nextLong();
            SplittableRandom r = new SplittableRandom(seed);
            Pacing pacing = r.nextBoolean() ? Pacing.paper(T, 3 * T)
                    : Pacing.pipelined(T, 1 + r.nextInt(16), r.nextInt(400), 3 * T + r.nextInt(500));
            WheelOrder order = r.nextBoolean() ? WheelOrder.PRIORITY : WheelOrder.FIFO;
            int b = 2 + r.nextInt(30);
            int h = 2 * (1 + r.nextInt(16));
            ManualClock clock = new ManualClock(5_000_000);
            Set<Long> evicted = new HashSet<>();
            WheelFrontier f = new WheelFrontier(clock, order, pacing, b, h, 200, 50,
                    u -> evicted.add(u.fingerprint()));
            Pipeline p = new Pipeline(clock, f, r, r.nextDouble() * 0.05);
            Set<Long> queued = new HashSet<>();
            int ips = 1 + r.nextInt(60);
            long seq = 0;
            for (int t = 0; t < 400; t++) {
                int admissions = r.nextInt(4);
                for (int i = 0; i < admissions; i++) {
                    long fp = r.nextLong(1L << 40);
                    f.updateScore(fp, r.nextInt(50));
                    if (f.admit(ip(r.nextInt(ips)), fp, seq++) == Admission.QUEUED) {
                        queued.add(fp);
                    }
                }
                p.tick();
            }
            p.drain(1_000_000);
            String what = "seed " + seed + ", " + pacing + ", " + order + ", B=" + b + ", H=" + h;
            assertThat(f.size()).as(what).isZero();
            assertThat(p.duplicates).as(what).isEmpty();
            assertThat(evicted.stream().filter(p.released::contains)).as(what).isEmpty();
            queued.removeAll(evicted);
            assertThat(p.released).as(what).isEqualTo(queued);
            assertThat(p.maxInWheel).as(what).isLessThanOrEqualTo((long) b * h / 2);
            p.steps.forEach((ip, list) -> {
                for (int i = 1; i < list.size(); i++) {
                    assertThat(list.get(i) - list.get(i - 1)).as("%s: %s never in consecutive steps", what, ip)
                            .isGreaterThanOrEqualTo(2);
                }
            });
            p.notBefore.forEach((ip, times) -> {
                for (int i = 1; i < times.size(); i++) {
                    assertThat(times.get(i) - times.get(i - 1)).as("%s: gap of %s", what, ip)
                            .isGreaterThanOrEqualTo(T);
                }
            });
        }
    }
}
