package io.github.kcrawler.scheduler.wheel;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolitenessWheelTest {

    @Test
    void constructor_rejectsOddOrTooSmallParameters_namingTheValue() {
        assertThatThrownBy(() -> new PolitenessWheel(2, 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("H").hasMessageContaining("7");
        assertThatThrownBy(() -> new PolitenessWheel(2, 0)).hasMessageContaining("0");
        assertThatThrownBy(() -> new PolitenessWheel(1, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("B").hasMessageContaining("1");
        assertThatThrownBy(() -> PolitenessWheel.startingAt(4, 4, -3)).hasMessageContaining("-3");
    }

    @Test
    void firstSteps_followThePapersParityTable() {
        PolitenessWheel w = new PolitenessWheel(8, 4);
        // t = 0: odd residues start at N = 1 (step 1), even ones reset to t + 2 = 2
        assertThat(w.schedule(1, 100)).isEqualTo(1);
        assertThat(w.schedule(2, 200)).isEqualTo(2);
        assertThat(w.schedule(1, 101)).isEqualTo(3);
        assertThat(w.schedule(5, 102)).isEqualTo(5); // residue 1 again (5 mod 4)
        long[] out = new long[w.maxBatch()];
        assertThat(w.next(out)).isEqualTo(1);
        assertThat(out[0]).isEqualTo(100);
        // t = 1 (odd): a fresh even residue goes to t + 1 = 2, a fresh odd one to t + 2 = 3
        assertThat(w.schedule(0, 300)).isEqualTo(2);
        assertThat(w.schedule(3, 301)).isEqualTo(3);
        assertThat(w.next(out)).isEqualTo(2);
        assertThat(new long[] {out[0], out[1]}).containsExactly(200, 300);
        assertThat(w.next(out)).isEqualTo(2);
        assertThat(new long[] {out[0], out[1]}).containsExactly(101, 301);
        assertThat(w.step()).isEqualTo(3);
        assertThat(w.size()).isEqualTo(1);
    }

    @Test
    void shouldDropWhenResidueQueuesFull() {
        PolitenessWheel w = new PolitenessWheel(6, 2);
        // residue 0 at t = 0 can take steps 2 and 4; step 6 = t + B is refused
        assertThat(w.enqueue(0, 1)).isTrue();
        assertThat(w.enqueue(0, 2)).isTrue();
        assertThat(w.enqueue(0, 3)).isFalse();
        assertThat(w.dropped()).isEqualTo(1);
        // residue 1: steps 1, 3, 5
        assertThat(w.enqueue(1, 4)).isTrue();
        assertThat(w.enqueue(1, 5)).isTrue();
        assertThat(w.enqueue(1, 6)).isTrue();
        assertThat(w.enqueue(1, 7)).isFalse();
        assertThat(w.size()).isEqualTo(5);
        assertThat(w.size()).isLessThanOrEqualTo((int) w.capacity());
        w.next(new long[1]); // t = 1 hands out 4; residue 1 would need step 7 = t + B: still full
        assertThat(w.enqueue(1, 8)).isFalse();
        w.next(new long[1]); // t = 2: 7 < 8
        assertThat(w.enqueue(1, 9)).isTrue();
    }

    @Test
    void next_withTooSmallOut_changesNothing() {
        PolitenessWheel w = new PolitenessWheel(4, 8);
        w.enqueue(1, 1);
        w.enqueue(3, 2);
        assertThatThrownBy(() -> w.next(new long[1])).hasMessageContaining("2");
        assertThat(w.step()).isZero();
        assertThat(w.nextBatchSize()).isEqualTo(2);
        List<Long> got = new ArrayList<>();
        assertThat(w.next(got::add)).isEqualTo(2);
        assertThat(got).containsExactly(1L, 2L);
    }

    @Test
    void negativeIpKeys_mapToResidueByFloorMod() {
        PolitenessWheel w = new PolitenessWheel(4, 8);
        assertThat(w.residueOf(-1)).isEqualTo(7);
        assertThat(w.schedule(-1, 5)).isEqualTo(1);
    }

    @Test
    void work_isIndependentOfBAndH() {
        // a wheel with a million residues and 65,536 queues does the same work per operation as a tiny one
        for (int[] bh : new int[][] {{2, 2}, {4, 8}, {1 << 16, 1 << 20}}) {
            PolitenessWheel w = new PolitenessWheel(bh[0], bh[1]);
            long[] out = new long[w.maxBatch()];
            long ops = 0;
            long handed = 0;
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
            for (int i = 0; i < 20_000; i++) {
                if (rnd.nextInt(4) == 0) {
                    handed += w.next(out);
                } else {
                    w.enqueue(rnd.nextLong(1 << 20), i);
                }
                ops++;
            }
            assertThat(w.work()).as("B=%d H=%d", bh[0], bh[1]).isLessThanOrEqualTo(3 * ops + handed);
        }
    }

    @Test
    void memory_isBoundedByTheCapacity() {
        PolitenessWheel w = new PolitenessWheel(16, 16);
        for (int i = 0; i < 10_000; i++) {
            w.enqueue(i, i);
        }
        // every residue fills the steps of its parity in (t, t + B): (B - 1) · H/2 of the bound B · H/2
        assertThat(w.size()).isEqualTo(15 * 8).isLessThanOrEqualTo((int) w.capacity());
        assertThat(w.memoryBytes()).isLessThanOrEqualTo(8L * 16 + 12L * 16 + 8L * w.capacity());
        w.checkInvariants();
    }

    @Test
    void withTwoQueues_aResidueServedInTheCurrentStepIsDropped_othersWaitTwoSteps() {
        // B = 2 is the rule's edge: N[r] = t + 2 = t + B is a drop, a reset to t + 2 is not
        PolitenessWheel w = new PolitenessWheel(2, 4);
        assertThat(w.schedule(1, 1)).isEqualTo(1);
        w.next(new long[2]); // t = 1; N[1] = 3
        assertThat(w.schedule(1, 2)).isEqualTo(PolitenessWheel.DROPPED);
        assertThat(w.schedule(3, 3)).as("fresh odd residue resets to t + 2").isEqualTo(3);
    }
}
