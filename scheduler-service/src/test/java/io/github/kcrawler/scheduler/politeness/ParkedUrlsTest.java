package io.github.kcrawler.scheduler.politeness;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ParkedUrls}: per residue FIFO lists of held pool slots, chained through the pool's spare links; one URL let
 * back into the pool's buckets per hand-out of its residue, the other residues untouched.
 */
class ParkedUrlsTest {
    @Test
    void unparksOldestFirst_perResidue_andTheSlotCompetesInThePoolAgain() {
        PriorityFront pool = new PriorityFront(16);
        ParkedUrls parked = new ParkedUrls(pool, 4);
        List<Integer> slots = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            slots.add(pool.add(i, 10 * i, true)); // held, as the refill holds the pool's best before parking it
        }
        parked.park(1, slots.get(4));
        parked.park(1, slots.get(2));
        parked.park(3, slots.get(3));
        parked.park(1, slots.get(0));
        assertThat(parked.size()).isEqualTo(4);

        parked.unparkOne(2); // nothing parked there
        assertThat(parked.size()).isEqualTo(4);
        parked.unparkOne(1);
        assertThat(pool.isHeld(slots.get(4))).as("the oldest of residue 1 is back in the buckets").isFalse();
        assertThat(pool.isHeld(slots.get(2))).isTrue();
        assertThat(pool.isHeld(slots.get(3))).as("residue 3 untouched").isTrue();
        assertThat(pool.holdBest()).as("it competes by its score again").isEqualTo(slots.get(4));

        parked.unparkOne(1);
        parked.unparkOne(1);
        parked.unparkOne(1); // empty now
        assertThat(pool.isHeld(slots.get(2))).isFalse();
        assertThat(pool.isHeld(slots.get(0))).isFalse();
        parked.unparkOne(3);
        assertThat(parked.size()).isZero();
        assertThat(pool.isHeld(slots.get(3))).isFalse();
        pool.checkInvariants();
    }

    @Test
    void onlyHeldSlotsAreParked() {
        PriorityFront pool = new PriorityFront(4);
        ParkedUrls parked = new ParkedUrls(pool, 2);
        int waiting = pool.add(7, 1.0, false);
        assertThatThrownBy(() -> parked.park(0, waiting)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void memoryIsTwoIntsPerResidue() {
        assertThat(ParkedUrls.memoryBytes(1024)).isEqualTo(2 * (16 + 4L * 1024));
        assertThat(new ParkedUrls(new PriorityFront(4), 1024).memoryBytes()).isEqualTo(ParkedUrls.memoryBytes(1024));
    }
}
