package io.github.kcrawler.fetcher;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** At-least-once offset bookkeeping: never commit past a record whose results are not yet durable. */
class OffsetTrackerTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @Test
    void commitsOnlyBelowTheOldestUnfinishedRecord() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot a = t.add(P0, 10);
        OffsetTracker.Slot b = t.add(P0, 11);
        OffsetTracker.Slot c = t.add(P0, 12);
        assertThat(t.committable()).containsEntry(P0, new org.apache.kafka.clients.consumer.OffsetAndMetadata(10));
        c.done();
        b.done();
        var again = t.committable().get(P0); // 10 is still running: same offset, 11 and 12 listed as finished
        assertThat(again.offset()).isEqualTo(10);
        assertThat(again.metadata()).isEqualTo("kc1:1.2");
        a.done();
        assertThat(t.committable().get(P0).offset()).isEqualTo(13);
        assertThat(t.committable()).isEmpty(); // nothing moved
    }

    @Test
    void partitionsAreIndependentAndGapsAreAllowed() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot a = t.add(P0, 0);
        t.add(P0, 5).done(); // compaction or transaction markers leave gaps
        OffsetTracker.Slot x = t.add(P1, 100);
        x.done();
        assertThat(t.committable().get(P1).offset()).isEqualTo(101);
        assertThat(t.committable(List.of(P0)).get(P0).offset()).isEqualTo(0);
        a.done();
        assertThat(t.committable().get(P0).offset()).isEqualTo(6);
    }

    @Test
    void removingAPartitionRevokesItsUnfinishedSlotsOnly() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot lost = t.add(P0, 0);
        OffsetTracker.Slot kept = t.add(P1, 0);
        assertThat(lost.isRevoked()).isFalse();
        t.remove(List.of(P0));
        assertThat(lost.isRevoked()).as("the new owner redoes it; this instance must not fetch it").isTrue();
        assertThat(kept.isRevoked()).isFalse();
    }

    @Test
    void runningCountsOnlyStartedUnfinishedRecords() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot a = t.add(P0, 0);
        t.add(P0, 1); // still in the backlog
        a.started();
        assertThat(t.running()).isEqualTo(1);
        a.done();
        assertThat(t.running()).isZero();
        t.remove(List.of(P0));
        assertThat(t.committable(List.of(P0))).isEmpty();
    }

    @Test
    void offsetsMustIncrease() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 5);
        assertThatThrownBy(() -> t.add(P0, 5)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void randomCompletionOrderNeverCommitsPastAnUnfinishedRecord() {
        Random rnd = new Random(3);
        OffsetTracker t = new OffsetTracker();
        List<OffsetTracker.Slot> open = new ArrayList<>();
        long next = 0;
        long committed = -1;
        for (int round = 0; round < 2_000; round++) {
            for (int i = rnd.nextInt(4); i > 0; i--) {
                open.add(t.add(P0, next++));
            }
            Collections.shuffle(open, rnd);
            for (int i = rnd.nextInt(3); i > 0 && !open.isEmpty(); i--) {
                open.remove(open.size() - 1).done();
            }
            var c = t.committable().get(P0);
            if (c != null) {
                assertThat(c.offset()).isGreaterThanOrEqualTo(committed);
                committed = c.offset();
            }
            long oldestOpen = open.stream().mapToLong(s -> s.offset).min().orElse(next);
            assertThat(committed).isLessThanOrEqualTo(oldestOpen);
        }
    }

    @Test
    void aFailedCommitIsOfferedAgainEvenWhenNothingMoved() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 0).done();
        var first = t.committable();
        assertThat(first.get(P0).offset()).isEqualTo(1);
        assertThat(t.committable()).as("nothing moved").isEmpty();
        t.commitFailed(first);
        assertThat(t.committable().get(P0).offset()).as("offered again").isEqualTo(1);
        assertThat(t.committable()).isEmpty();
    }

    @Test
    void aFailedCommitDoesNotHoldBackALaterOne() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 0).done();
        var first = t.committable();
        t.add(P0, 1).done();
        assertThat(t.committable().get(P0).offset()).isEqualTo(2);
        t.commitFailed(first); // the older commit's failure arrives after the newer commit was sent
        assertThat(t.committable().get(P0).offset()).isEqualTo(2);
    }

    @Test
    void recordsFinishedBeforeThePartitionLeftAreSkippedWhenItComesBack() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot s10 = t.add(P0, 10);
        OffsetTracker.Slot s11 = t.add(P0, 11);
        OffsetTracker.Slot s12 = t.add(P0, 12);
        OffsetTracker.Slot s13 = t.add(P0, 13);
        s11.done(); // 10 still running, so 10 is the committable offset and 11 will be delivered again
        t.remove(List.of(P0)); // lost: nothing committed beyond 10
        s13.done(); // a fetch already on the network finishes after the partition left
        assertThat(s10.isRevoked() && s12.isRevoked()).isTrue();
        assertThat(t.departedRecords()).isEqualTo(4);

        // the partition comes back to this instance; Kafka delivers from the committed offset 10
        OffsetTracker.Slot r10 = t.add(P0, 10);
        OffsetTracker.Slot r11 = t.add(P0, 11);
        OffsetTracker.Slot r12 = t.add(P0, 12);
        OffsetTracker.Slot r13 = t.add(P0, 13);
        assertThat(r10.isRedelivered()).as("was running, not finished: fetch again").isFalse();
        assertThat(r11.isRedelivered() && r11.isDone()).as("finished before it left").isTrue();
        assertThat(r12.isRedelivered()).as("never finished").isFalse();
        assertThat(r13.isRedelivered() && r13.isDone()).as("finished after it left").isTrue();
        assertThat(t.departedRecords()).isZero();
        r10.done();
        r12.done();
        assertThat(t.committable().get(P0).offset()).isEqualTo(14);
    }

    @Test
    void departedRecordsBelowWhereThePartitionResumesAreForgotten() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 0);
        t.add(P0, 1).done();
        t.add(P0, 2).done();
        t.remove(List.of(P0));
        // another instance owned it meanwhile and committed up to 2; this one resumes there
        OffsetTracker.Slot r2 = t.add(P0, 2);
        assertThat(r2.isRedelivered()).isTrue();
        assertThat(t.departedRecords()).isZero();
        OffsetTracker.Slot r3 = t.add(P0, 3);
        assertThat(r3.isRedelivered()).isFalse();
    }

    @Test
    void aPartitionThatLeavesWithEverythingCommittableKeepsNothing() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 0).done();
        t.add(P0, 1).done();
        t.remove(List.of(P0));
        assertThat(t.departedRecords()).isZero();
        assertThat(t.add(P0, 2).isRedelivered()).isFalse();
    }

    @Test
    void aRecordStillInFlightWhenItComesBackPointsToItsEarlierDelivery() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot sent = t.add(P0, 0);
        sent.started(); // fetched, its results waiting for the broker
        OffsetTracker.Slot dropped = t.add(P0, 1);
        dropped.started(); // will be dropped unsent: its partition left
        OffsetTracker.Slot notStarted = t.add(P0, 2);
        t.remove(List.of(P0));
        dropped.gaveUp();

        OffsetTracker.Slot again0 = t.add(P0, 0);
        OffsetTracker.Slot again1 = t.add(P0, 1);
        OffsetTracker.Slot again2 = t.add(P0, 2);
        assertThat(again0.earlier()).as("wait for the delivery in flight").isSameAs(sent);
        assertThat(again0.isDone()).isFalse();
        assertThat(again1.earlier()).as("gave up: fetch").isNull();
        assertThat(again2.earlier()).as("never handed to the pipeline: fetch").isNull();
        assertThat(notStarted.isRevoked()).isTrue();
    }

    @Test
    void commitsListTheRecordsFinishedAboveTheOldestUnfinishedOne() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot waiting = t.add(P0, 0); // e.g. waits for its IP
        OffsetTracker.Slot b = t.add(P0, 1);
        OffsetTracker.Slot c = t.add(P0, 2);
        assertThat(t.committable().get(P0).metadata()).isEmpty();
        b.done();
        var first = t.committable().get(P0);
        assertThat(first.offset()).as("the position has not moved").isZero();
        assertThat(first.metadata()).as("but one more record is finished: commit again").isEqualTo("kc1:1.1");
        assertThat(t.committable()).isEmpty();
        c.done();
        assertThat(t.committable().get(P0).metadata()).isEqualTo("kc1:1.2");
        waiting.done();
        var all = t.committable().get(P0);
        assertThat(all.offset()).isEqualTo(3);
        assertThat(all.metadata()).isEmpty();
    }

    @Test
    void theNextOwnerSkipsWhatThePreviousOwnerListedAsFinished() {
        OffsetTracker previous = new OffsetTracker();
        previous.add(P0, 40);
        previous.add(P0, 41).done();
        previous.add(P0, 42);
        previous.add(P0, 43).done();
        var committed = previous.committable().get(P0); // then the previous owner dies

        OffsetTracker next = new OffsetTracker();
        next.committedWhenAssigned(P0, committed);
        assertThat(next.add(P0, 40).isRedelivered()).isFalse();
        assertThat(next.add(P0, 41).isRedelivered()).isTrue();
        assertThat(next.add(P0, 42).isRedelivered()).isFalse();
        assertThat(next.add(P0, 43).isRedelivered()).isTrue();
        assertThat(next.add(P0, 44).isRedelivered()).isFalse();
    }

    @Test
    void committedOffsetsWithoutOurMetadataSkipNothing() {
        OffsetTracker t = new OffsetTracker();
        t.committedWhenAssigned(P0, new org.apache.kafka.clients.consumer.OffsetAndMetadata(5, "written by a tool"));
        t.committedWhenAssigned(P1, null);
        assertThat(t.add(P0, 5).isRedelivered()).isFalse();
        assertThat(t.add(P0, 6).isRedelivered()).isFalse();
        assertThat(t.add(P1, 0).isRedelivered()).isFalse();
    }

    @Test
    void recordsBelowThePositionAreSkippedWhenTheirCommitFailedAndThePartitionCameBack() {
        OffsetTracker t = new OffsetTracker();
        t.add(P0, 100).done();
        t.add(P0, 101).done();
        t.add(P0, 102);
        var sent = t.committable(); // 102 ... and then the broker goes away: this commit never lands
        assertThat(sent.get(P0).offset()).isEqualTo(102);
        t.remove(List.of(P0)); // the group forgot this member; Kafka's committed offset is still, say, 100

        assertThat(t.add(P0, 100).isRedelivered()).as("finished here, slot already dropped").isTrue();
        assertThat(t.add(P0, 101).isRedelivered()).isTrue();
        assertThat(t.add(P0, 102).isRedelivered()).as("was not finished").isFalse();
        assertThat(t.add(P0, 103).isRedelivered()).isFalse();
        assertThat(t.departedRecords()).isZero();
    }

    @Test
    void stagedRecordsCountAsFinishedForTheirTransactionOnlyUntilItAborts() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot a = t.add(P0, 0);
        OffsetTracker.Slot b = t.add(P0, 1);
        t.add(P0, 2);
        a.staged(true);
        b.staged(true);
        var inTransaction = t.committable();
        assertThat(inTransaction.get(P0).offset()).as("the transaction's offsets pass its records").isEqualTo(2);
        a.staged(false); // aborted
        b.staged(false);
        t.commitFailed(inTransaction);
        assertThat(t.committable().get(P0).offset()).as("nothing was dropped").isEqualTo(0);
        a.done(); // committed in the next transaction
        assertThat(t.committable().get(P0).offset()).isEqualTo(1);
    }

    @Test
    void recordsWhoseResultsWaitForATransactionAreNotRunning() {
        OffsetTracker t = new OffsetTracker();
        OffsetTracker.Slot a = t.add(P0, 0);
        a.started();
        assertThat(t.running()).isOne();
        a.resultsReady();
        assertThat(t.running()).as("a revoke need not wait for it: the next transaction takes it").isZero();
    }
}
