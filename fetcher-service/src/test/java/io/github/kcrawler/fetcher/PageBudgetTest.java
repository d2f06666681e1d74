package io.github.kcrawler.fetcher;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageBudgetTest {
    @Test
    void theInstanceBudgetRefusesOnceUsedAndAPageGivenBackCanBeTakenAgain() {
        PageBudget b = new PageBudget(2, 0, 10);
        assertThat(b.spent()).isFalse();
        assertThat(b.reserve()).isTrue();
        assertThat(b.reserve()).isTrue();
        assertThat(b.reserve()).isFalse();
        assertThat(b.spent()).isTrue();
        b.unreserve(); // a request without a response
        assertThat(b.spent()).isFalse();
        assertThat(b.reserve()).isTrue();
        assertThat(b.pages()).isEqualTo(2);
    }

    @Test
    void zeroMeansNoLimitButPagesAreStillCounted() {
        PageBudget b = new PageBudget(0, 0, 10);
        for (int i = 0; i < 1000; i++) {
            assertThat(b.reserve()).isTrue();
            b.countHostPage("a.example");
        }
        assertThat(b.spent()).isFalse();
        assertThat(b.hostSpent("a.example")).isFalse();
        assertThat(b.pages()).isEqualTo(1000);
    }

    @Test
    void aHostIsSpentAfterItsPagesAndOtherHostsAreNot() {
        PageBudget b = new PageBudget(0, 3, 10);
        for (int i = 0; i < 3; i++) {
            assertThat(b.hostSpent("trap.example")).isFalse();
            b.countHostPage("trap.example");
        }
        assertThat(b.hostSpent("trap.example")).isTrue();
        assertThat(b.hostSpent("other.example")).isFalse();
    }

    @Test
    void theLeastRecentlyFetchedHostIsForgottenBeyondTheCapacityAndCountsAgain() {
        PageBudget b = new PageBudget(0, 2, 2);
        b.countHostPage("old.example");
        b.countHostPage("old.example");
        b.countHostPage("busy.example");
        b.countHostPage("busy.example");
        assertThat(b.hostSpent("busy.example")).isTrue(); // touched: busy is now the most recent
        b.countHostPage("new.example"); // third host: the least recently touched (old) goes
        assertThat(b.hostSpent("busy.example")).isTrue();
        assertThat(b.hostSpent("old.example")).as("forgotten, counting again").isFalse();
    }

    @Test
    void concurrentReservationsNeverExceedTheBudget() throws Exception {
        PageBudget b = new PageBudget(1000, 0, 10);
        AtomicInteger granted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            pool.execute(() -> {
                for (int i = 0; i < 1000; i++) {
                    if (b.reserve()) {
                        granted.incrementAndGet();
                    }
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(granted.get()).isEqualTo(1000);
        assertThat(b.pages()).isEqualTo(1000);
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> new PageBudget(-1, 0, 10)).hasMessageContaining("-1");
        assertThatThrownBy(() -> new PageBudget(0, 0, 0)).hasMessageContaining("host capacity");
    }
}
