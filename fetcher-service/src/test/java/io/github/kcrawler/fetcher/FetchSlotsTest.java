package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.fetcher.guard.FakeScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cap on concurrent network fetches: never exceeded, waiters served in order. */
class FetchSlotsTest {
    private final FakeScheduler scheduler = new FakeScheduler(new ManualClock(0));
    private final FetchSlots slots = new FetchSlots(2, scheduler);
    private final List<Integer> started = new ArrayList<>();

    @Test
    void atMostMaxRunAndWaitersFollowInArrivalOrder() {
        for (int i = 0; i < 5; i++) {
            int n = i;
            slots.acquire(() -> started.add(n));
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(slots.active()).isEqualTo(2);
        assertThat(slots.queued()).isEqualTo(3);
        slots.release();
        assertThat(started).containsExactly(0, 1); // handed over on the scheduler, not on this stack
        scheduler.runDue();
        assertThat(started).containsExactly(0, 1, 2);
        assertThat(slots.active()).isEqualTo(2);
        slots.release();
        slots.release();
        scheduler.runDue();
        assertThat(started).containsExactly(0, 1, 2, 3, 4);
        slots.release();
        slots.release();
        assertThat(slots.active()).isZero();
    }

    @Test
    void releasingMoreThanAcquiredIsABug() {
        assertThatThrownBy(slots::release).isInstanceOf(IllegalStateException.class);
    }
}
