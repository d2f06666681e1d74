package io.github.kcrawler.fetcher;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Offset bookkeeping for a consumer whose records finish out of order: per partition, the records taken from Kafka
 * in offset order, each with a completion flag. A record is done once its results are committed (its transaction,
 * {@link TransactionalOutput}) or it had nothing to produce; while the transaction that carries its results is being
 * committed it is {@linkplain Slot#staged staged}, and the offsets sent in that transaction count it as finished.
 * The offset that may be committed is that of the oldest record not yet finished (or one past the last record when
 * all are), so a crash never skips an unfinished record (invariant: every offset below a committed one is done or
 * was staged in the same transaction). Everything but {@link Slot#done()}, {@link Slot#gaveUp()} and
 * {@link Slot#resultsReady()} runs on the consumer thread; those may be called from any thread.
 *
 * <p>Redone, but not by us when we can help it: when a partition is revoked or lost, the records after its
 * committable offset are kept (their slots, whose completion flags keep changing as fetches already on the network
 * finish). If the partition comes back to this instance, Kafka delivers those records again from the committed
 * offset — the last one whose commit succeeded, which may be below this instance's own position when a commit
 * failed (the broker was away) — so a record finished here, whether its slot is still kept or was already dropped
 * below the position, is handed out already done
 * ({@link Slot#isRedelivered()}), so the caller skips it instead of fetching the page a second time; a record whose
 * earlier slot is still in flight (its results waiting for a broker that is coming back, say) gets a slot that
 * points to it ({@link Slot#earlier()}), and the caller waits for that one before deciding. Memory: at most
 * one departed queue per partition, each no longer than what was in flight when the partition left, and it is
 * dropped as soon as the partition's records come back past it.
 *
 * <p>Every commit also lists the finished records above the committed offset in its metadata
 * ({@link FinishedOffsets}); the partition's next owner — this instance or another — reads it when the partition is
 * assigned ({@link #committedWhenAssigned}) and skips those records as well, so a rebalance redoes only what was
 * finished since the last commit, not everything behind the oldest unfinished record.
 */
final class OffsetTracker {
    /** One record in flight. */
    static final class Slot {
        final TopicPartition partition;
        final long offset;
        private volatile boolean done;
        private volatile boolean revoked;
        private volatile boolean leaving;
        private volatile boolean gaveUp;
        private volatile boolean resultsReady;
        private boolean started;
        private boolean staged;
        private boolean redelivered;
        private volatile Slot earlier;
        private volatile Slot later;
        private volatile boolean answered;

        Slot(TopicPartition partition, long offset) {
            this.partition = partition;
            this.offset = offset;
        }

        /** Marks the record finished: its results are acknowledged by Kafka (or it had nothing to produce). */
        void done() {
            done = true;
        }

        boolean isDone() {
            return done;
        }

        /**
         * True once the record's partition was revoked from or lost by this consumer: another instance now owns it
         * and redoes the record from the committed offset, so a fetch not yet sent must not be sent here.
         */
        boolean isRevoked() {
            return revoked;
        }

        /**
         * True once the record's partition is being revoked: what is on the network finishes and is committed, but a
         * fetch not yet sent must not be sent any more — the partition's next owner may already be pacing the IP a
         * moment later, and what it fetched could not be committed here.
         */
        boolean isLeaving() {
            return leaving;
        }

        /**
         * True if this record was delivered before, while this instance owned the partition, and its results were
         * acknowledged then: the slot is born done and the record must not be fetched again.
         */
        boolean isRedelivered() {
            return redelivered;
        }

        /**
         * Marks that this record will not be finished here: it was dropped before its request was sent (its
         * partition left), or its results could not be produced. A later delivery of the same record must fetch.
         */
        void gaveUp() {
            gaveUp = true;
        }

        boolean hasGivenUp() {
            return gaveUp;
        }

        /**
         * The slot of this same record from an earlier delivery to this instance, still in flight when the record
         * came back (its fetch may already be on the network or its results on their way to Kafka); null if none.
         * The new delivery must wait for it: skipped if it finishes, fetched if it {@linkplain #hasGivenUp() gives
         * up}.
         */
        Slot earlier() {
            return earlier;
        }

        /** The earlier delivery has settled (finished or given up): drops the link so it can be collected. */
        void forgetEarlier() {
            earlier = null;
        }

        /** The later delivery of this same record that was linked to this slot ({@link #earlier()}), or null. */
        Slot later() {
            return later;
        }

        /**
         * True once the results of an earlier delivery of this record to this instance answer this slot: they go
         * into the next transaction with this slot's offset ({@link TransactionalOutput}), and the record must not
         * be fetched here.
         */
        boolean isAnswered() {
            return answered;
        }

        /** Marks the slot answered by an earlier delivery's results, now waiting for a transaction. */
        void answered() {
            answered = true;
            started = true;
            resultsReady = true;
        }

        /** Marks the record handed to the pipeline (consumer thread only). */
        void started() {
            started = true;
        }

        /** Its results are built and wait for the next transaction (any thread). */
        void resultsReady() {
            resultsReady = true;
        }

        /**
         * Marks (true) or unmarks the record as having its results in the transaction being committed now
         * (consumer thread only): the offsets sent in that transaction count it as finished. Cleared before the
         * transaction ends — {@link #done()} if it committed, unstaged if it aborted.
         */
        void staged(boolean inTransaction) {
            staged = inTransaction;
        }

        /** Done, or staged in the transaction being committed (what the offsets of that transaction may pass). */
        boolean finished() {
            return done || staged;
        }
    }

    private static final class PartitionState {
        final ArrayDeque<Slot> slots = new ArrayDeque<>();
        long first = -1; // the first offset taken since the partition was assigned
        long next = -1; // one past the last offset taken
        long committed = -1;
        int committedFinished = -1; // finished records above the position at the last commit
    }

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    /** What this instance knows of the records of partitions it no longer owns. */
    private final Map<TopicPartition, Departed> departed = new HashMap<>();

    /**
     * What is known of a partition this instance no longer owns: every record in [{@code from}, {@code to}) finished
     * here (their slots are gone: the finished head of the queue is dropped as the position moves, whether or not the
     * commit of that position then succeeded), and the slots from {@code to} on.
     */
    private static final class Departed {
        final long from;
        final long to;
        final ArrayDeque<Slot> slots;

        Departed(long from, long to, ArrayDeque<Slot> slots) {
            this.from = from;
            this.to = to;
            this.slots = slots;
        }
    }

    /** Stands for a departed record that finished here and whose slot is gone. */
    private static final Slot FINISHED_HERE = finishedMarker();

    /** Records above the committed offset that a previous owner finished, from the commit's metadata. */
    private final Map<TopicPartition, FinishedOffsets> finishedByPreviousOwner = new HashMap<>();

    private static Slot finishedMarker() {
        Slot s = new Slot(new TopicPartition("finished-here", 0), -1);
        s.done = true;
        return s;
    }

    /**
     * Registers the next record of a partition (offsets must increase). The slot is {@linkplain Slot#isDone() done}
     * and {@linkplain Slot#isRedelivered() redelivered} at once when this instance already finished the same record
     * before the partition left it.
     */
    Slot add(TopicPartition tp, long offset) {
        PartitionState s = partitions.computeIfAbsent(tp, k -> new PartitionState());
        if (offset < s.next) {
            throw new IllegalStateException(tp + ": offset " + offset + " after " + (s.next - 1));
        }
        if (s.first < 0) {
            s.first = offset;
        }
        Slot slot = new Slot(tp, offset);
        Slot before = departedSlot(tp, offset);
        if (before != null && before.isDone() || finishedByPreviousOwner(tp, offset)) {
            slot.redelivered = true;
            slot.done = true;
        } else if (before != null && before.started && !before.hasGivenUp()) {
            slot.earlier = before;
            before.later = slot;
        }
        s.slots.addLast(slot);
        s.next = offset + 1;
        return slot;
    }

    /**
     * Records that the partition's previous owner (this instance or another) listed as finished when it committed
     * {@code committed} ({@link FinishedOffsets}); they are skipped when delivered here.
     */
    void committedWhenAssigned(TopicPartition tp, OffsetAndMetadata committed) {
        FinishedOffsets f = committed == null ? null : FinishedOffsets.decode(committed.offset(), committed.metadata());
        if (f == null) {
            finishedByPreviousOwner.remove(tp);
        } else {
            finishedByPreviousOwner.put(tp, f);
        }
    }

    private boolean finishedByPreviousOwner(TopicPartition tp, long offset) {
        FinishedOffsets f = finishedByPreviousOwner.get(tp);
        if (f == null) {
            return false;
        }
        if (offset >= f.end()) {
            finishedByPreviousOwner.remove(tp);
            return false;
        }
        return f.contains(offset);
    }

    /**
     * The departed slot of this record, if any; forgets departed records below it (they are never delivered again).
     */
    private Slot departedSlot(TopicPartition tp, long offset) {
        Departed d = departed.get(tp);
        if (d == null) {
            return null;
        }
        if (offset >= d.from && offset < d.to) {
            return FINISHED_HERE; // delivered again because the commit of a later position failed or was not sent
        }
        ArrayDeque<Slot> old = d.slots;
        while (!old.isEmpty() && old.peekFirst().offset < offset) {
            old.pollFirst();
        }
        Slot found = !old.isEmpty() && old.peekFirst().offset == offset ? old.pollFirst() : null;
        if (old.isEmpty() && offset >= d.to) {
            departed.remove(tp);
        }
        return found;
    }

    /**
     * Offsets safe to commit that moved since the last call, per partition; marks them as committed. A failed
     * commit (an aborted transaction) must be given back with {@link #commitFailed} so that the next call offers it
     * again.
     */
    Map<TopicPartition, OffsetAndMetadata> committable() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, PartitionState> e : partitions.entrySet()) {
            PartitionState s = e.getValue();
            long pos = position(s);
            int finished = finishedAbove(s);
            if (pos > s.committed || finished > s.committedFinished) {
                s.committed = pos;
                s.committedFinished = finished;
                out.put(e.getKey(), offsetAndMetadata(pos, s));
            }
        }
        return out;
    }

    /** The position with the list of finished records above it ({@link FinishedOffsets}). */
    private static OffsetAndMetadata offsetAndMetadata(long position, PartitionState s) {
        return new OffsetAndMetadata(position, FinishedOffsets.encode(position, s.slots));
    }

    private static int finishedAbove(PartitionState s) {
        int n = 0;
        for (Slot slot : s.slots) {
            if (slot.finished()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The commit (transaction) of these offsets failed: the next {@link #committable()} offers each partition's
     * position again even if it has not moved (without this, a partition whose records are all finished would never
     * have its last offset committed, and a restart would redo them).
     */
    void commitFailed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
            PartitionState s = partitions.get(e.getKey());
            if (s != null && s.committed >= e.getValue().offset()) {
                s.committed = e.getValue().offset() - 1;
                s.committedFinished = -1;
            }
        }
    }

    /** The partitions this instance owns and has taken records from. */
    java.util.Set<TopicPartition> partitions() {
        return java.util.Set.copyOf(partitions.keySet());
    }

    /**
     * Committable offsets of some partitions, regardless of what was committed before; marks them as committed
     * (give them back with {@link #commitFailed} if their transaction aborts).
     */
    Map<TopicPartition, OffsetAndMetadata> committable(Collection<TopicPartition> tps) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.get(tp);
            if (s != null && s.next >= 0) {
                long pos = position(s);
                s.committed = pos;
                s.committedFinished = finishedAbove(s);
                out.put(tp, offsetAndMetadata(pos, s));
            }
        }
        return out;
    }

    /**
     * Records handed to the pipeline whose results are not in hand yet (neither done, nor waiting for the next
     * transaction, nor given up), in these partitions.
     */
    int running(Collection<TopicPartition> tps) {
        int n = 0;
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.get(tp);
            if (s != null) {
                position(s);
                for (Slot slot : s.slots) {
                    if (slot.started && !slot.isDone() && !slot.resultsReady && !slot.gaveUp) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /** Records handed to the pipeline and not yet finished, in all partitions. */
    int running() {
        return running(partitions.keySet());
    }

    /** Marks every slot of {@code tps} {@linkplain Slot#isLeaving() leaving}: nothing more of theirs is sent. */
    void leaving(Collection<TopicPartition> tps) {
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.get(tp);
            if (s != null) {
                for (Slot slot : s.slots) {
                    slot.leaving = true;
                }
            }
        }
    }

    /**
     * Forgets partitions (revoked or lost) and marks their unfinished slots {@linkplain Slot#isRevoked() revoked};
     * the slots may still be completed. The records after the committable offset are kept aside in case the
     * partition comes back to this instance (see the class comment).
     */
    void remove(Collection<TopicPartition> tps) {
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.remove(tp);
            if (s != null) {
                long position = position(s);
                for (Slot slot : s.slots) {
                    assert !slot.staged : "a partition left during a transaction: " + slot.partition;
                    slot.revoked = true;
                }
                departed.put(tp, new Departed(s.first, position, s.slots));
            }
        }
    }

    /** Records kept from departed partitions (for tests and metrics). */
    int departedRecords() {
        int n = 0;
        for (Departed d : departed.values()) {
            n += d.slots.size();
        }
        return n;
    }

    /**
     * The offset of the oldest record not {@linkplain Slot#finished() finished} (one past the last when all are);
     * drops the done records at the head. Staged records are passed but kept: their transaction may still abort.
     */
    private static long position(PartitionState s) {
        while (!s.slots.isEmpty() && s.slots.peekFirst().isDone()) {
            s.slots.pollFirst();
        }
        for (Slot slot : s.slots) {
            if (!slot.finished()) {
                return slot.offset;
            }
        }
        return s.next;
    }
}
