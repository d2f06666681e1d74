package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The foundation frontier on fake time: politeness, best-first order, bounds, and ticks that never scan all IPs. */
class PerIpPriorityFrontierTest {
    private static final long T = 1000;
    private static final long TICK = 20;
    private static final long START = 1_700_000_000_000L;

    private final ManualClock clock = new ManualClock(START);
    private final List<Released> released = new ArrayList<>();
    private long seq;

    private record Released(PendingUrl url, long notBefore, long at) {
    }

    private PerIpPriorityFrontier frontier(int maxPending, int maxPerIp, int scoreCache) {
        return new PerIpPriorityFrontier(clock, T, TICK, maxPending, maxPerIp, scoreCache);
    }

    private Admission admit(Frontier f, String ip, long fp) {
        return f.admit(ip, fp, seq++);
    }

    private int tick(Frontier f) {
        long at = clock.millis();
        return f.releaseReady((url, notBefore) -> released.add(new Released(url, notBefore, at)));
    }

    /** Ticks every TICK ms for the given time. */
    private void run(Frontier f, long millis) {
        for (long t = 0; t < millis; t += TICK) {
            tick(f);
            clock.advance(TICK);
        }
    }

    private List<Long> fingerprints() {
        return released.stream().map(r -> r.url().fingerprint()).toList();
    }

    @Test
    void shouldNeverReleaseOneIpTwiceWithinT() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        for (long fp = 1; fp <= 5; fp++) {
            admit(f, "10.0.0.1", fp);
        }
        admit(f, "10.0.0.2", 99);
        run(f, 6 * T);
        assertThat(released).hasSize(6);
        List<Long> times = released.stream().filter(r -> r.url().ip().equals("10.0.0.1"))
                .map(Released::notBefore).toList();
        assertThat(times).hasSize(5);
        for (int i = 1; i < times.size(); i++) {
            assertThat(times.get(i) - times.get(i - 1)).as("gap %d", i).isEqualTo(T);
        }
        assertThat(released).allSatisfy(r -> assertThat(r.notBefore()).isGreaterThanOrEqualTo(r.at()));
        f.checkInvariants();
    }

    @Test
    void shouldHoldBackAnIpReadmittedWhileItsIntervalRuns() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        admit(f, "10.0.0.1", 1);
        assertThat(tick(f)).isEqualTo(1);
        clock.advance(10);
        admit(f, "10.0.0.1", 2);
        run(f, T - 3 * TICK);
        assertThat(released).hasSize(1);
        run(f, 3 * TICK);
        assertThat(released).hasSize(2);
        assertThat(released.get(1).notBefore() - released.get(0).notBefore()).isEqualTo(T);
    }

    @Test
    void shouldReleaseBestScoreFirstAndBreakTiesFifo() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        admit(f, "ip", 1);
        admit(f, "ip", 2);
        admit(f, "ip", 3);
        admit(f, "ip", 4);
        f.updateScore(3, 0.5);
        f.updateScore(2, -0.1);
        run(f, 4 * T);
        assertThat(fingerprints()).containsExactly(3L, 1L, 4L, 2L);
    }

    @Test
    void shouldRepositionPendingUrlWhenItsScoreChanges() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        admit(f, "ip", 1);
        admit(f, "ip", 2);
        admit(f, "ip", 3);
        f.updateScore(1, 0.9);
        f.updateScore(3, 0.5);
        PendingUrl moved = f.updateScore(1, 0.1);
        assertThat(moved).isEqualTo(new PendingUrl("ip", 1, 0, 0.1));
        assertThat(f.pending(1)).isEqualTo(moved);
        f.checkInvariants();
        run(f, 3 * T);
        assertThat(fingerprints()).containsExactly(3L, 1L, 2L);
    }

    @Test
    void shouldTreatNegativeZeroScoreAsTiedWithZero() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        admit(f, "ip", 1);
        admit(f, "ip", 2);
        f.updateScore(1, -0.0);
        run(f, 2 * T);
        assertThat(fingerprints()).containsExactly(1L, 2L);
    }

    @Test
    void shouldApplyScoreThatArrivedBeforeTheUrl() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        assertThat(f.updateScore(2, 0.7)).isNull();
        assertThat(f.cachedScores()).isEqualTo(1);
        admit(f, "ip", 1);
        admit(f, "ip", 2);
        assertThat(f.pending(2).score()).isEqualTo(0.7);
        assertThat(f.cachedScores()).isZero();
        run(f, 2 * T);
        assertThat(fingerprints()).containsExactly(2L, 1L);
    }

    @Test
    void shouldEvictOldestEarlyScoreWhenTheCacheIsFull() {
        PerIpPriorityFrontier f = frontier(100, 100, 2);
        f.updateScore(1, 0.1);
        f.updateScore(2, 0.2);
        f.updateScore(3, 0.3);
        assertThat(f.cachedScores()).isEqualTo(2);
        admit(f, "ip", 1);
        admit(f, "ip", 3);
        assertThat(f.pending(1).score()).isZero();
        assertThat(f.pending(3).score()).isEqualTo(0.3);
        f.checkInvariants();
    }

    @Test
    void shouldRefuseUrlsOverEitherBound() {
        PerIpPriorityFrontier f = frontier(3, 2, 10);
        assertThat(admit(f, "a", 1)).isEqualTo(Admission.QUEUED);
        assertThat(admit(f, "a", 2)).isEqualTo(Admission.QUEUED);
        assertThat(admit(f, "a", 3)).isEqualTo(Admission.IP_FULL);
        assertThat(admit(f, "b", 4)).isEqualTo(Admission.QUEUED);
        assertThat(admit(f, "c", 5)).isEqualTo(Admission.FRONTIER_FULL);
        assertThat(admit(f, "b", 4)).isEqualTo(Admission.DUPLICATE);
        assertThat(f.size()).isEqualTo(3);
        assertThat(f.activeIps()).isEqualTo(2);
        assertThat(tick(f)).isEqualTo(2);
        assertThat(admit(f, "c", 5)).isEqualTo(Admission.QUEUED);
        f.checkInvariants();
    }

    @Test
    void shouldRestoreWithoutBoundsButRejectDuplicates() {
        PerIpPriorityFrontier f = frontier(1, 1, 10);
        assertThat(f.restore(new PendingUrl("a", 1, 7, 0.0))).isTrue();
        assertThat(f.restore(new PendingUrl("a", 2, 3, 0.0))).isTrue();
        assertThat(f.restore(new PendingUrl("b", 2, 9, 0.0))).isFalse();
        assertThat(f.size()).isEqualTo(2);
        run(f, 2 * T);
        assertThat(fingerprints()).containsExactly(2L, 1L);
    }

    @Test
    void shouldDelayAnIpWhoseFetchRanLate() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        admit(f, "ip", 1);
        admit(f, "ip", 2);
        tick(f);
        clock.advance(400);
        f.fetched("ip", clock.millis()); // the fetcher sent it 400 ms after notBefore
        run(f, T - 100); // without the fetch result it would have been released at START + T
        assertThat(released).hasSize(1);
        run(f, 200);
        assertThat(released).hasSize(2);
        assertThat(released.get(1).notBefore()).isEqualTo(START + 400 + T);
        f.checkInvariants();
    }

    @Test
    void shouldTakeFetchTimesInTheFutureAsNow() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        f.fetched("ip", Long.MAX_VALUE - 1);
        admit(f, "ip", 1);
        run(f, T + TICK);
        assertThat(released).hasSize(1);
        assertThat(released.get(0).notBefore()).isEqualTo(START + T);
    }

    @Test
    void shouldRememberAFetchForAnUnknownIpUntilItsIntervalEnds() {
        PerIpPriorityFrontier f = frontier(100, 100, 10);
        f.fetched("ip", START - 100);
        f.fetched("old", START - 2 * T);
        assertThat(f.trackedIps()).isEqualTo(1);
        admit(f, "ip", 1);
        run(f, T);
        assertThat(released).singleElement().satisfies(r -> assertThat(r.notBefore()).isEqualTo(START - 100 + T));
    }

    @Test
    void shouldForgetIdleIpsOnceTheirIntervalHasPassed() {
        PerIpPriorityFrontier f = frontier(10_000, 10, 10);
        for (int i = 0; i < 1000; i++) {
            admit(f, "10.0." + (i / 250) + "." + (i % 250), i);
        }
        tick(f);
        assertThat(f.size()).isZero();
        assertThat(f.trackedIps()).isEqualTo(1000);
        run(f, T + TICK);
        assertThat(f.trackedIps()).isZero();
        f.checkInvariants();
    }

    @Test
    void shouldReleaseOnlyReadyIpsWithoutScanningAllOfThem() {
        int ips = 100_000;
        PerIpPriorityFrontier f = frontier(1_000_000, 10, 10);
        for (int i = 0; i < ips / 2; i++) {
            admit(f, "a" + i, i);
            admit(f, "a" + i, 1_000_000L + i);
        }
        assertThat(tick(f)).isEqualTo(ips / 2);
        clock.advance(T / 2);
        for (int i = 0; i < ips / 2; i++) {
            admit(f, "b" + i, 2_000_000L + i);
            admit(f, "b" + i, 3_000_000L + i);
        }
        released.clear();
        assertThat(tick(f)).as("only the IPs seen for the first time").isEqualTo(ips / 2);
        assertThat(released).allSatisfy(r -> assertThat(r.url().ip()).startsWith("b"));
        assertThat(f.examinedInLastRelease()).isEqualTo(ips / 2 + 1);

        clock.advance(TICK);
        assertThat(tick(f)).as("nobody is ready").isZero();
        assertThat(f.examinedInLastRelease()).isEqualTo(1);

        clock.advance(T / 2 - 2 * TICK); // the first half's time falls inside the look-ahead
        released.clear();
        assertThat(tick(f)).isEqualTo(ips / 2);
        assertThat(released).allSatisfy(r -> {
            assertThat(r.url().ip()).startsWith("a");
            assertThat(r.notBefore()).isEqualTo(START + T);
        });
        assertThat(f.examinedInLastRelease()).isEqualTo(ips / 2 + 1);
        assertThat(f.size()).isEqualTo(ips / 2);
        f.checkInvariants();
    }

    @Test
    void shouldRejectImpossibleParametersNamingTheValue() {
        assertThatThrownBy(() -> new PerIpPriorityFrontier(clock, 0, 0, 1, 1, 0))
                .hasMessageContaining("politeness interval must be > 0, was 0");
        assertThatThrownBy(() -> new PerIpPriorityFrontier(clock, 100, 100, 1, 1, 0))
                .hasMessageContaining("look-ahead must be in [0, 100), was 100");
        assertThatThrownBy(() -> new PerIpPriorityFrontier(clock, 100, 10, 0, 1, 0))
                .hasMessageContaining("max pending must be > 0, was 0");
        assertThatThrownBy(() -> new PerIpPriorityFrontier(clock, 100, 10, 1, -3, 0))
                .hasMessageContaining("max pending per IP must be > 0, was -3");
        assertThatThrownBy(() -> frontier(1, 1, 1).updateScore(1, Double.NaN))
                .hasMessageContaining("score must be finite, was NaN");
    }

    @Test
    void shouldReleaseEveryIpAtItsOwnPace() {
        PerIpPriorityFrontier f = frontier(1000, 100, 10);
        Map<String, Integer> perIp = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            admit(f, "ip" + (i % 3), i);
        }
        run(f, 10 * T);
        released.forEach(r -> perIp.merge(r.url().ip(), 1, Integer::sum));
        assertThat(perIp).containsOnly(Map.entry("ip0", 10), Map.entry("ip1", 10), Map.entry("ip2", 10));
        assertThat(f.size()).isZero();
    }
}
