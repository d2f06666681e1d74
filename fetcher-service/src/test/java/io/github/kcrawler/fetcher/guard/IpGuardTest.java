package io.github.kcrawler.fetcher.guard;

import io.github.kcrawler.common.time.ManualClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-IP guard on fake time: one access in flight per IP, intervals kept, no waiting without cause. */
class IpGuardTest {
    private static final long T = 1000;

    private ManualClock clock;
    private FakeScheduler scheduler;
    private Timer waits;
    private IpGuard guard;

    @BeforeEach
    void setUp() {
        clock = new ManualClock(1_000_000);
        scheduler = new FakeScheduler(clock);
        waits = Timer.builder("wait").register(new SimpleMeterRegistry());
        guard = new IpGuard(clock, scheduler, 30_000, waits);
    }

    @Test
    void firstAccessIsGrantedWithoutWaiting() {
        List<Long> granted = new ArrayList<>();
        guard.acquire("10.0.0.1", T, () -> granted.add(clock.millis()));
        scheduler.runDue();
        assertThat(granted).containsExactly(1_000_000L);
        assertThat(waits.count()).isEqualTo(1);
    }

    @Test
    void secondAccessWaitsUntilMoreThanTAfterTheFirstEnded() {
        List<Long> granted = new ArrayList<>();
        guard.acquire("10.0.0.1", T, () -> granted.add(clock.millis()));
        scheduler.runDue();
        clock.advance(40); // the first request takes 40 ms
        guard.release("10.0.0.1");
        guard.acquire("10.0.0.1", T, () -> granted.add(clock.millis()));
        scheduler.runDue();
        assertThat(granted).hasSize(1);
        while (granted.size() < 2 && scheduler.step()) {
            // advance fake time to the wake-up
        }
        assertThat(granted.get(1) - (granted.get(0) + 40)).isGreaterThan(T);
        assertThat(granted.get(1)).isEqualTo(1_000_000L + 40 + T + 1);
    }

    @Test
    void atMostOneRequestInFlightPerIpEvenWithoutInterval() {
        List<Integer> granted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            guard.acquire("10.0.0.1", 0, () -> granted.add(n));
        }
        scheduler.runDue();
        clock.advance(5_000);
        scheduler.runDue();
        assertThat(granted).containsExactly(0);
        assertThat(guard.waiting()).isEqualTo(2);
        guard.release("10.0.0.1");
        clock.advance(1);
        scheduler.runDue();
        assertThat(granted).containsExactly(0, 1);
        guard.release("10.0.0.1");
        clock.advance(1);
        scheduler.runDue();
        assertThat(granted).containsExactly(0, 1, 2);
    }

    @Test
    void differentIpsDoNotWaitForEachOther() {
        List<String> granted = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String ip = "10.0.1." + i;
            guard.acquire(ip, T, () -> granted.add(ip));
        }
        scheduler.runDue();
        assertThat(granted).hasSize(100);
    }

    @Test
    void waitersAreServedInArrivalOrderWithTheirOwnInterval() {
        List<String> order = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        guard.acquire("10.0.0.1", T, () -> {
            order.add("a");
            at.add(clock.millis());
        });
        scheduler.runDue();
        guard.acquire("10.0.0.1", 5_000, () -> {
            order.add("b");
            at.add(clock.millis());
        }); // a host with Crawl-delay 5 s
        guard.acquire("10.0.0.1", T, () -> {
            order.add("c");
            at.add(clock.millis());
        });
        guard.release("10.0.0.1");
        while (order.size() < 2 && scheduler.step()) {
            // run
        }
        guard.release("10.0.0.1");
        while (order.size() < 3 && scheduler.step()) {
            // run
        }
        assertThat(order).containsExactly("a", "b", "c");
        assertThat(at.get(1) - at.get(0)).isGreaterThan(5_000);
        assertThat(at.get(2) - at.get(1)).isGreaterThan(T);
    }

    @Test
    void releaseWithoutGrantIsACallerBug() {
        assertThatThrownBy(() -> guard.release("10.9.9.9")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void idleIpsAreEvicted() {
        for (int i = 0; i < 50; i++) {
            String ip = "10.0.2." + i;
            guard.acquire(ip, T, () -> guard.release(ip));
        }
        scheduler.runDue();
        assertThat(guard.trackedIps()).isEqualTo(50);
        clock.advance(31_000 + IpGuard.SWEEP_EVERY_MS);
        guard.acquire("10.0.3.1", T, () -> { });
        assertThat(guard.trackedIps()).isEqualTo(1);
    }

    @Test
    void randomScheduleNeverViolatesPoliteness() {
        Random rnd = new Random(7);
        Map<String, Long> lastEnd = new HashMap<>();
        Map<String, Boolean> busy = new HashMap<>();
        List<String> violations = new ArrayList<>();
        int[] grants = {0};
        for (int step = 0; step < 3_000; step++) {
            String ip = "10.1.0." + rnd.nextInt(8);
            long interval = rnd.nextBoolean() ? T : 2 * T;
            guard.acquire(ip, interval, () -> {
                grants[0]++;
                if (Boolean.TRUE.equals(busy.get(ip))) {
                    violations.add("concurrent access to " + ip);
                }
                Long end = lastEnd.get(ip);
                if (end != null && clock.millis() - end <= interval) {
                    violations.add(ip + " accessed " + (clock.millis() - end) + " ms after the previous access");
                }
                busy.put(ip, true);
                long duration = rnd.nextInt(50);
                scheduler.schedule(() -> {
                    busy.put(ip, false);
                    lastEnd.put(ip, clock.millis());
                    guard.release(ip);
                }, duration);
            });
            clock.advance(rnd.nextInt(20));
            scheduler.runDue();
        }
        while (scheduler.step()) {
            // drain
        }
        assertThat(violations).isEmpty();
        assertThat(grants[0]).isEqualTo(3_000);
        assertThat(guard.waiting()).isZero();
    }
}
