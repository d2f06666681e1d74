package io.github.kcrawler.fetcher;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link OwnershipGate} on a hand-driven clock: when fetches may go out, and what opens the gate again. */
class OwnershipGateTest {
    private static final long SESSION_MS = 6_000;
    private long now = 1_000_000_000L;
    private final FetchMetrics metrics = new FetchMetrics(new SimpleMeterRegistry(), "req", () -> 0);
    private final OwnershipGate gate = new OwnershipGate(metrics, SESSION_MS, () -> now);

    private void advanceMs(long ms) {
        now += TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** One healthy turn of the consumer loop: a turn, a poll that returns after {@code pollMs}. */
    private void turn(long pollMs) {
        gate.loopTurn();
        advanceMs(pollMs);
        gate.polled();
    }

    @Test
    void aLoopThatKeepsTurningKeepsTheGateOpen() {
        for (int i = 0; i < 100; i++) {
            turn(100);
            assertThat(gate.open(true)).isTrue();
        }
        assertThat(gate.open(false)).as("a stopping fetcher sends nothing").isFalse();
    }

    @Test
    void aConsumerThreadHeldLongerThanTheStallBoundHoldsFetchesAndReleasesThemWhenItMoves() {
        turn(50);
        gate.loopTurn();
        advanceMs(TimeUnit.NANOSECONDS.toMillis(OwnershipGate.STALLED_LOOP_NANOS)); // inside poll: a callback waits
        assertThat(gate.open(true)).as("exactly at the bound").isTrue();
        advanceMs(1);
        assertThat(gate.open(true)).as("past the bound: nothing fetched now could be committed").isFalse();
        advanceMs(1_000);
        assertThat(gate.open(true)).isFalse();
        gate.polled(); // 1.5 s: less than half the session timeout, membership is not in doubt
        assertThat(gate.confirming()).isFalse();
        assertThat(gate.open(true)).as("the thread moved: open again without a round trip").isTrue();
    }

    @Test
    void aTransactionRoundCountsAsProgressUntilItStalls() {
        turn(100);
        advanceMs(400);
        gate.roundStarted(); // 400 ms after the poll: a step
        advanceMs(200);
        assertThat(gate.open(true)).as("600 ms since the poll, 200 ms into the round").isTrue();
        advanceMs(51);
        assertThat(gate.open(true)).as("the round is stalled (the broker is away)").isFalse();
        gate.roundEnded();
        assertThat(gate.open(true)).isTrue();
        advanceMs(TimeUnit.NANOSECONDS.toMillis(OwnershipGate.STALLED_LOOP_NANOS) + 1);
        assertThat(gate.open(true)).as("the end of a round is the last step").isFalse();
    }

    @Test
    void aPauseOfHalfTheSessionTimeoutNeedsAConfirmingRoundTrip() {
        turn(100);
        advanceMs(SESSION_MS / 2 + 1); // SIGSTOP
        gate.loopTurn();
        assertThat(gate.confirming()).isTrue();
        assertThat(gate.open(true)).as("the loop moves, but the group may have moved the partitions").isFalse();
        turn(100);
        assertThat(gate.open(true)).isFalse();
        gate.confirmed(gate.closedLinks());
        assertThat(gate.open(true)).isTrue();
    }

    @Test
    void anAbortedTransactionHoldsFetchesUntilACommitOrABoundedHoldAfterARebalance() {
        turn(100);
        gate.commitFailed();
        assertThat(gate.open(true)).isFalse();
        assertThat(metrics.commitFailures.count()).isEqualTo(1.0);
        gate.assigned(); // the rebalance said what this member owns; nothing since the abort is saved
        long holdMs = TimeUnit.NANOSECONDS.toMillis(OwnershipGate.ASSIGNED_HOLD_NANOS);
        for (long t = 0; t + 100 < holdMs; t += 100) {
            turn(100);
            gate.releaseExpiredHold();
            assertThat(gate.open(true)).as("%d ms into the hold", t + 100).isFalse();
        }
        turn(100);
        gate.releaseExpiredHold();
        assertThat(gate.open(true)).isTrue();
        assertThat(metrics.assignedHoldsExpired.count()).isEqualTo(1.0);
    }

    @Test
    void aRebalanceWithoutAFailureOpensTheGateAtOnce() {
        turn(100);
        advanceMs(SESSION_MS); // the consumer was put out of its group
        gate.polled();
        assertThat(gate.open(true)).isFalse();
        gate.assigned();
        assertThat(gate.open(true)).isTrue();
    }
}
