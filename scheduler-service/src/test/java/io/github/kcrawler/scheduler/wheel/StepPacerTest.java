package io.github.kcrawler.scheduler.wheel;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The step discipline on its own: paper mode as Algorithm 1, pipelined steps on a grid with k in flight. */
class StepPacerTest {
    private static final long T = 100;

    @Test
    void paper_stepsEveryT_onlyOnceThePreviousStepWasReported_orTimedOut() {
        StepPacer p = new StepPacer(Pacing.paper(T, 1000), 0);
        assertThat(p.mayStep(T - 1, 1)).isFalse();
        assertThat(p.stepped(T + 7, 1, 2)).as("notBefore is the step time").isEqualTo(T + 7);
        assertThat(p.mayStep(2 * T + 7, 2)).as("two fetches of step 1 unreported").isFalse();
        assertThat(p.reported(1)).isTrue();
        assertThat(p.reported(99)).as("not a step in flight").isFalse();
        assertThat(p.mayStep(2 * T + 7, 2)).isFalse();
        assertThat(p.reported(1)).isTrue();
        assertThat(p.reported(1)).as("nothing left to report").isFalse();
        assertThat(p.mayStep(2 * T + 6, 2)).as("T since the previous step").isFalse();
        assertThat(p.stepped(2 * T + 7, 2, 1)).isEqualTo(2 * T + 7);
        assertThat(p.mayStep(T + 7 + 1000 + 99, 3)).as("unreported, before the timeout").isFalse();
        assertThat(p.stepped(2 * T + 7 + 1000, 3, 0)).isEqualTo(2 * T + 7 + 1000);
        assertThat(p.stepsAfterTimeout()).isEqualTo(1);
        assertThat(p.outstanding()).isZero();
        assertThat(p.reported(2)).as("a given-up step's late result changes nothing").isFalse();
    }

    @Test
    void pipelined_releasesAheadOnAFixedGrid_withKStepsUnreported() {
        long lead = 120;
        StepPacer p = new StepPacer(Pacing.pipelined(T, 4, lead, 1000), 1_000);
        long step = T / 2;
        // At the start the steps within the lead go at once, each with its grid notBefore.
        long now = 1_000;
        assertThat(p.stepped(now, 1, 1)).isEqualTo(1_000 + step);
        assertThat(p.stepped(now, 2, 1)).isEqualTo(1_000 + 2 * step);
        assertThat(p.mayStep(now, 3)).as("third step's notBefore is beyond the lead").isFalse();
        now += 31; // 1,031: step 3's notBefore 1,150 is within the lead of 120
        assertThat(p.stepped(now, 3, 1)).isEqualTo(1_000 + 3 * step);
        now = 1_000 + 4 * step - lead;
        assertThat(p.stepped(now, 4, 1)).isEqualTo(1_000 + 4 * step);
        now = 1_000 + 5 * step - lead;
        assertThat(p.mayStep(now, 5)).as("k = 4 steps unreported: step 1 must be reported first").isFalse();
        p.reported(1);
        assertThat(p.outstanding()).isEqualTo(3);
        assertThat(p.stepped(now + 3, 5, 0)).as("late by 3 ms: the grid holds").isEqualTo(1_000 + 5 * step);
        assertThat(p.stepsAfterTimeout()).isZero();
    }

    @Test
    void pipelined_afterAStall_restartsTheGridAtNow_withoutABurst() {
        StepPacer p = new StepPacer(Pacing.pipelined(T, 1, 0, 10_000), 0);
        assertThat(p.stepped(50, 1, 1)).isEqualTo(50);
        assertThat(p.mayStep(5_000, 2)).isFalse();
        p.reported(1);
        assertThat(p.stepped(5_000, 2, 0)).isEqualTo(5_000);
        assertThat(p.mayStep(5_000, 3)).as("next one a step later, not at once").isFalse();
        assertThat(p.stepped(5_050, 3, 0)).isEqualTo(5_050);
    }

    @Test
    void consecutiveNotBefores_areAtLeastHalfTApart_forOddT() {
        StepPacer p = new StepPacer(Pacing.pipelined(101, 8, 500, 10_000), 0);
        long last = 0;
        long step = 0;
        for (long now = 0; now < 20_000; now += 7) {
            while (p.mayStep(now, step + 1)) {
                long nb = p.stepped(now, ++step, 0);
                assertThat(nb - last).isGreaterThanOrEqualTo(51);
                assertThat(nb - now).as("released at most the lead ahead").isLessThanOrEqualTo(500);
                last = nb;
            }
        }
        assertThat(step).as("one step per 51 ms on average").isBetween(20_000L / 51 - 1, 20_000L / 51 + 10);
    }

    @Test
    void rejectsSteppingEarly_andBadParameters() {
        StepPacer p = new StepPacer(Pacing.paper(T, 1000), 0);
        assertThatThrownBy(() -> p.stepped(T - 1, 1, 0)).isInstanceOf(IllegalStateException.class);
        p.stepped(T, 1, 0);
        assertThatThrownBy(() -> p.stepped(5 * T, 1, 0)).hasMessageContaining("after step 1");
        assertThatThrownBy(() -> Pacing.pipelined(T, 0, 0, 1000)).hasMessageContaining("steps in flight");
        assertThatThrownBy(() -> new Pacing(Pacing.Mode.PIPELINED, 100, 49, 1, 0, 1000))
                .hasMessageContaining("[50, 100]");
        assertThatThrownBy(() -> Pacing.paper(T, T - 1)).hasMessageContaining("step timeout");
        assertThat(Pacing.Mode.parse(" Paper ")).isEqualTo(Pacing.Mode.PAPER);
        assertThatThrownBy(() -> Pacing.Mode.parse("fast")).hasMessageContaining("'fast'");
    }
}
