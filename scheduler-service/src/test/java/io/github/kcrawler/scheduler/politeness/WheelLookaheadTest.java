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
import java.util.Set;
import java.util.SplittableRandom;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The priority frontier's lookahead (ours, {@code wheel-lookahead}): the pool hands the wheel a URL only while fewer
 * than {@code lookahead} URLs are placed in the wheel or released and unreported, and at most two waiting per residue,
 * so a better URL admitted later overtakes worse ones that are still in the pool — without the bound the pool empties
 * into the wheel on admission and the crawl follows admission order — and a busy host cannot hold the window.
 * Politeness and exactly-once release hold as without it.
 */
class WheelLookaheadTest {
    private static final long T = 100;

    private static WheelFrontier frontier(ManualClock clock, int lookahead, List<PendingUrl> evicted) {
        return new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.pipelined(T, 4, 0, 10 * T), 128, 16, 10_000, 100,
                evicted::add, null, lookahead);
    }

    private static String ip(int i) {
        return "127.1." + (i / 250) + "." + (i % 250 + 1);
    }

    @Test
    void placedAndInFlight_neverExceedTheLookahead_norTwoWaitingPerIp_andPolitenessAndExactlyOnceHold() {
        forAll(80, g -> check(g.intIn(1, 40), g.intIn(1, 30), g.intIn(1, 300), g.longIn(0, 350), g.longIn(0, 1 << 20)));
    }

    private void check(int lookahead, int ips, int urls, long latency, long seed) {
        ManualClock clock = new ManualClock(1_000_000);
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = frontier(clock, lookahead, evicted);
        SplittableRandom r = new SplittableRandom(seed);
        Set<Long> queued = new HashSet<>();
        Set<Long> released = new HashSet<>();
        Map<String, Long> lastRelease = new HashMap<>();
        List<long[]> inFlight = new ArrayList<>(); // {due, step, index into inFlightIp}
        List<String> inFlightIp = new ArrayList<>();
        int admittedSoFar = 0;
        for (int tick = 0; tick < 20_000 && (admittedSoFar < urls || f.size() > 0 || !inFlight.isEmpty()); tick++) {
            clock.advance(10);
            // admissions spread over the run, with scores arriving before and after
            for (int k = 0; k < 3 && admittedSoFar < urls; k++, admittedSoFar++) {
                long fp = r.nextLong();
                f.updateScore(fp, r.nextInt(1000));
                if (f.admit(ip(r.nextInt(ips)), fp, admittedSoFar) == Admission.QUEUED) {
                    queued.add(fp);
                }
            }
            for (int i = inFlight.size() - 1; i >= 0; i--) {
                if (inFlight.get(i)[0] <= clock.millis()) {
                    f.fetched(inFlightIp.get(i), inFlight.get(i)[1]);
                    inFlight.remove(i);
                    inFlightIp.remove(i);
                }
            }
            f.releaseReady((url, notBefore) -> {
                assertThat(released.add(url.fingerprint())).as("seed %d: released twice", seed).isTrue();
                Long last = lastRelease.put(url.ip(), notBefore);
                if (last != null) {
                    assertThat(notBefore - last).as("seed %d: %s paced", seed, url.ip()).isGreaterThanOrEqualTo(T);
                }
                inFlight.add(new long[] {clock.millis() + latency, f.step()});
                inFlightIp.add(url.ip());
            });
            assertThat(f.placed() + f.outstanding()).as("seed %d: placed %d + in flight %d within the lookahead %d",
                    seed, f.placed(), f.outstanding(), lookahead).isLessThanOrEqualTo(lookahead);
            for (int i = 0; i < ips; i++) {
                assertThat(f.waitingInWheel(ip(i))).as("seed %d: waiting in the wheel for %s's residue", seed, ip(i))
                        .isLessThanOrEqualTo(WheelFrontier.LOOKAHEAD_PER_RESIDUE);
                assertThat(f.unreportedOf(ip(i))).as("seed %d: released and unreported of %s's residue", seed, ip(i))
                        .isLessThanOrEqualTo(f.flightCap());
            }
        }
        assertThat(f.parked()).as("seed %d: nothing stays parked", seed).isZero();
        assertThat(evicted).isEmpty();
        assertThat(released).as("seed %d: every queued URL released exactly once", seed).isEqualTo(queued);
    }

    /** One busy IP: 40 URLs of score 1 queued, then one of score 1,000. Where is the good one fetched? */
    private static int positionOfTheBetterLateUrl(int lookahead) {
        ManualClock clock = new ManualClock(1_000_000);
        WheelFrontier f = frontier(clock, lookahead, new ArrayList<>());
        for (int i = 0; i < 40; i++) {
            f.updateScore(i, 1);
            assertThat(f.admit(ip(0), i, i)).isEqualTo(Admission.QUEUED);
        }
        List<Long> order = new ArrayList<>();
        List<long[]> toReport = new ArrayList<>();
        for (int tick = 0; tick < 2_000 && order.size() < 41; tick++) {
            clock.advance(10);
            if (tick == 30) { // the first releases are out; a better URL of the same IP arrives
                f.updateScore(999, 1_000);
                assertThat(f.admit(ip(0), 999, 40)).isEqualTo(Admission.QUEUED);
            }
            for (long[] done : toReport) {
                f.fetched(ip(0), done[0]);
            }
            toReport.clear();
            f.releaseReady((url, notBefore) -> {
                order.add(url.fingerprint());
                toReport.add(new long[] {f.step()});
            });
        }
        assertThat(order).hasSize(41);
        return order.indexOf(999L);
    }

    @Test
    void aBetterUrlAdmittedLater_overtakesTheWorseOnesStillInThePool() {
        int bounded = positionOfTheBetterLateUrl(2);
        int unbounded = positionOfTheBetterLateUrl(0);
        assertThat(unbounded).as("without a lookahead the 40 worse URLs were all placed (B/2 = 64) and go first")
                .isEqualTo(40);
        assertThat(bounded).as("with lookahead 2 only the URLs already placed (or released) go first")
                .isBetween(1, 10);
    }

    /**
     * A busy host whose 100 URLs top the pool, and 40 other IPs with one worse URL each, lookahead 8. The busy IP
     * goes out every other step at best, so if it could fill the lookahead the others would wait ~200 steps (before
     * the per-residue share: none of them was served in 400 steps); with two per residue they go out within the first
     * steps, and every URL is still released once.
     */
    @Test
    void aBusyHostTopOfThePool_doesNotHoldTheLookahead_fromOtherIps() {
        ManualClock clock = new ManualClock(1_000_000);
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.pipelined(T, 4, 0, 10 * T), 512, 64,
                10_000, 1_000, u -> { }, null, 8);
        for (int i = 0; i < 100; i++) {
            f.updateScore(i, 1_000);
            assertThat(f.admit(ip(0), i, i)).isEqualTo(Admission.QUEUED);
        }
        for (int i = 1; i <= 40; i++) {
            f.updateScore(1_000 + i, 1);
            assertThat(f.admit(ip(i), 1_000 + i, 100 + i)).isEqualTo(Admission.QUEUED);
        }
        Set<String> others = new HashSet<>();
        Set<Long> released = new HashSet<>();
        long stepsToServeOthers = -1;
        for (int tick = 0; tick < 2_000 && released.size() < 140; tick++) {
            clock.advance(10);
            f.releaseReady((url, notBefore) -> {
                assertThat(released.add(url.fingerprint())).isTrue();
                f.fetched(url.ip(), f.step());
                if (!url.ip().equals(ip(0))) {
                    others.add(url.ip());
                }
            });
            if (stepsToServeOthers < 0 && others.size() == 40) {
                stepsToServeOthers = f.step();
            }
        }
        assertThat(others).as("other IPs served").hasSize(40);
        assertThat(stepsToServeOthers).as("steps until every other IP was served").isBetween(0L, 30L);
        assertThat(released).as("every URL released once").hasSize(140);
        assertThat(f.parked()).isZero();
    }

    /**
     * A server slower than its polite rate: the fetcher's guard spaces its requests T after the previous one
     * <em>ended</em>, so IP 0's results come back one per 1.5 T while the wheel hands it one per T. Four other IPs
     * answer at once. Without the per-residue cap ({@link ResidueFlights}) IP 0's unreported URLs grow by a third of
     * a request per T until they fill the lookahead (32 here, within ~10 s), and from then on the other IPs get a URL
     * only when one of IP 0's results comes back; with it IP 0 holds at most the cap, and the others keep their rate.
     */
    @Test
    void aServerSlowerThanT_holdsAtMostItsCap_andTheOtherIpsKeepTheirPoliteRate() {
        ManualClock clock = new ManualClock(1_000_000);
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.pipelined(T, 256, 0, 100 * T), 1_024,
                64, 10_000, 1_000, u -> { }, null, 32);
        for (int i = 0; i < 5 * 700; i++) {
            f.updateScore(i, i % 5 == 0 ? 1_000 : 1); // IP 0's URLs top the pool
            assertThat(f.admit(ip(i % 5), i, i)).isEqualTo(Admission.QUEUED);
        }
        java.util.ArrayDeque<long[]> slow = new java.util.ArrayDeque<>(); // IP 0's, {step}: one reported per 1.5 T
        int[] releases = new int[5];
        long nextSlowReport = clock.millis();
        int maxSlowUnreported = 0;
        for (int tick = 0; tick < 6_000; tick++) { // 60 s
            clock.advance(10);
            if (!slow.isEmpty() && clock.millis() >= nextSlowReport) {
                f.fetched(ip(0), clock.millis(), slow.poll()[0]);
                nextSlowReport = clock.millis() + 3 * T / 2;
            }
            f.releaseReady((url, notBefore) -> {
                int i = (int) (url.fingerprint() % 5);
                releases[i]++;
                if (i == 0) {
                    slow.add(new long[] {f.step()});
                } else {
                    f.fetched(url.ip(), clock.millis(), f.step());
                }
            });
            maxSlowUnreported = Math.max(maxSlowUnreported, f.unreportedOf(ip(0)));
        }
        assertThat(f.flightCap()).as("min(2 waiting + ⌈(0 + 2,000 ms) / T⌉ = 22, lookahead 32 / 8)").isEqualTo(4);
        assertThat(maxSlowUnreported).as("IP 0's released and unreported URLs").isLessThanOrEqualTo(f.flightCap());
        for (int i = 1; i < 5; i++) {
            assertThat(releases[i]).as("IP %d's releases in 60 s at one per T = 100 ms", i).isGreaterThan(570);
        }
        assertThat(releases[0]).as("IP 0 is served as fast as it answers (one per 1.5 T), plus the cap")
                .isBetween(390, 400 + f.flightCap());
    }

    /**
     * IP 0's results never come back (lost with a fetcher). It holds its cap until the pacer gives up the steps they
     * belonged to (step-timeout-ms); then the counts are cleared and IP 0 is served again, capped again.
     */
    @Test
    void lostResults_holdAResidueOnlyUntilThePacerGivesUpTheirSteps() {
        ManualClock clock = new ManualClock(1_000_000);
        int k = 256; // steps in flight: step s - k is given up when step s is taken (it is older than the timeout)
        WheelFrontier f = new WheelFrontier(clock, WheelOrder.PRIORITY, Pacing.pipelined(T, k, 0, 20 * T), 1_024,
                64, 10_000, 1_000, u -> { }, null, 64);
        for (int i = 0; i < 400; i++) {
            f.updateScore(i, 1);
            assertThat(f.admit(ip(0), i, i)).isEqualTo(Admission.QUEUED);
        }
        List<Long> releaseTimes = new ArrayList<>();
        for (int tick = 0; tick < 3_000; tick++) { // 30 s
            clock.advance(10);
            f.releaseReady((url, notBefore) -> releaseTimes.add(clock.millis()));
            assertThat(f.unreportedOf(ip(0))).isLessThanOrEqualTo(f.flightCap());
        }
        assertThat(f.stepsAfterTimeout()).as("steps given up").isPositive();
        assertThat(releaseTimes.size()).as("released in rounds of the cap, each after the steps were given up")
                .isGreaterThan(2 * f.flightCap());
        long lastOfFirstRound = releaseTimes.get(f.flightCap() - 1);
        long firstOfSecondRound = releaseTimes.get(f.flightCap());
        // the first round's first step is given up k steps (of T/2) after it; the round took flightCap releases of T
        assertThat(firstOfSecondRound - lastOfFirstRound).as("the wait until the first round's steps are given up")
                .isBetween(k * T / 2 - f.flightCap() * T - T, k * T / 2 - f.flightCap() * T + 2 * T);
    }

    @Test
    void theCap_isTheRoundTripsShare_butAtMostAnEighthOfTheLookahead() {
        ManualClock clock = new ManualClock(0);
        java.util.function.BiFunction<Pacing, Integer, Integer> cap = (pacing, lookahead) -> new WheelFrontier(clock,
                WheelOrder.PRIORITY, pacing, 128, 16, 1_000, 10, u -> { }, null, lookahead).flightCap();
        assertThat(cap.apply(Pacing.pipelined(100, 256, 250, 10_000), 1_024)).as("2 + ⌈2,250 / 100⌉").isEqualTo(25);
        assertThat(cap.apply(Pacing.pipelined(100, 256, 250, 10_000), 128)).as("128 / 8").isEqualTo(16);
        assertThat(cap.apply(Pacing.pipelined(20, 256, 250, 10_000), 128)).as("128 / 8, not 115").isEqualTo(16);
        assertThat(cap.apply(Pacing.pipelined(20, 256, 250, 10_000), 8)).as("at least the waiting share + 1")
                .isEqualTo(WheelFrontier.LOOKAHEAD_PER_RESIDUE + 1);
        assertThat(cap.apply(Pacing.pipelined(100, 256, 250, 10_000), 0)).as("no lookahead, no cap").isZero();
    }

    @Test
    void aNegativeLookahead_isRefused() {
        ManualClock clock = new ManualClock(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> frontier(clock, -1, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lookahead");
    }
}
