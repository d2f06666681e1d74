package io.github.kcrawler.app.runtime;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 20: a crawl is never idle while records are unconsumed, a thread is being replaced or a service is down. */
class IdleRuleTest {
    @Test
    void idleOnlyWhenEverySignalSaysSo() {
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 0, 0, true, true))).isTrue();
    }

    @Test
    void notIdleWhileRecordsAreUnconsumed() {
        // the run: frontier empty, nothing in flight, 5 records stuck in a partition
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 0, 5, true, true))).isFalse();
    }

    @Test
    void notIdleWhenTheLagIsUnknown() {
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 0, -1, true, true))).isFalse();
        assertThat(IdleRule.mayBeIdle(0, 0, true, true)).isTrue();
    }

    @Test
    void notIdleWhileAStreamThreadIsBeingReplaced() {
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 0, 0, false, true))).isFalse();
        assertThat(IdleRule.mayBeIdle(0, 0, false, true)).isFalse();
    }

    @Test
    void notIdleWhileAServiceIsUnhealthy() {
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 0, 0, true, false))).isFalse();
        assertThat(IdleRule.mayBeIdle(0, 0, true, false)).isFalse();
    }

    @Test
    void notIdleWithWorkPendingOrInFlight() {
        assertThat(IdleRule.idle(new IdleRule.Signals(1, 0, 0, true, true))).isFalse();
        assertThat(IdleRule.idle(new IdleRule.Signals(0, 3, 0, true, true))).isFalse();
        assertThat(IdleRule.mayBeIdle(1, 0, true, true)).isFalse();
    }

    /** Against the rule stated as a model: idle iff all five signals are at rest. */
    @Test
    void matchesTheModelOnArbitrarySignals() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("IdleRuleTest seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 10_000; i++) {
            long frontier = r.nextInt(3) - (r.nextInt(10) == 0 ? 1 : 0);
            long inFlight = r.nextInt(3);
            long lag = r.nextInt(4) - 1;
            boolean settled = r.nextBoolean();
            boolean healthy = r.nextBoolean();
            boolean model = frontier == 0 && inFlight == 0 && lag == 0 && settled && healthy;
            assertThat(IdleRule.idle(new IdleRule.Signals(frontier, inFlight, lag, settled, healthy)))
                    .as("seed %d: %d %d %d %s %s", seed, frontier, inFlight, lag, settled, healthy).isEqualTo(model);
        }
    }
}
