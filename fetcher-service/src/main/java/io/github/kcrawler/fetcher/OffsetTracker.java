package io.github.kcrawler.fetcher;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * At-least-once bookkeeping for a consumer whose records finish out of order: per partition, the records taken
 * from Kafka in offset order, each with a completion flag. The offset that may be committed is that of the oldest
 * record not yet finished (or one past the last record when all are), so a crash never skips an unfinished
 * record; records finished after it are simply redone. Everything but {@link Slot#done()} runs on the consumer
 * thread; {@code done()} may be called from any thread.
 *
 * <p>Redone, but not by us when we can help it: when a partition is revoked or lost, the records after its
 * committable offset are kept (their slots, whose completion flags keep changing as fetches already on the network
 * finish). If the partition comes back to this instance, Kafka delivers those records again from the committed
 * offset; a record whose slot here finished — its results acknowledged by Kafka — is handed out already done
 * ({@link Slot#isRedelivered()}), so the caller skips it instead of fetching the page a second time. Memory: at most
 * one departed queue per partition, each no longer than what was in flight when the partition left, and it is
 * dropped as soon as the partition's records come back past it.
 */
final class OffsetTracker {
    /** One record in flight. */
    static final class Slot {
        final TopicPartition partition;
        final long offset;
        private volatile boolean done;
        private volatile boolean revoked;
        private boolean started;
        private boolean redelivered;

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
         * True if this record was delivered before, while this instance owned the partition, and its results were
         * acknowledged then: the slot is born done and the record must not be fetched again.
         */
        boolean isRedelivered() {
            return redelivered;
        }

        /** Marks the record handed to the pipeline (consumer thread only). */
        void started() {
            started = true;
        }
    }

    private static final class PartitionState {
        final ArrayDeque<Slot> slots = new ArrayDeque<>();
        long next = -1; // one past the last offset taken
        long committed = -1;
    }

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    /** Records of partitions this instance no longer owns, after their committable offset, in offset order. */
    private final Map<TopicPartition, ArrayDeque<Slot>> departed = new HashMap<>();

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
        Slot slot = new Slot(tp, offset);
        if (finishedBefore(tp, offset)) {
            slot.redelivered = true;
            slot.done = true;
        }
        s.slots.addLast(slot);
        s.next = offset + 1;
        return slot;
    }

    /** Whether a departed slot of this record finished; forgets departed records below it (never delivered again). */
    private boolean finishedBefore(TopicPartition tp, long offset) {
        ArrayDeque<Slot> old = departed.get(tp);
        if (old == null) {
            return false;
        }
        while (!old.isEmpty() && old.peekFirst().offset < offset) {
            old.pollFirst();
        }
        boolean finished = !old.isEmpty() && old.peekFirst().offset == offset && old.peekFirst().isDone();
        if (!old.isEmpty() && old.peekFirst().offset == offset) {
            old.pollFirst();
        }
        if (old.isEmpty()) {
            departed.remove(tp);
        }
        return finished;
    }

    /**
     * Offsets safe to commit that moved since the last call, per partition; marks them as committed. A failed
     * asynchronous commit must be given back with {@link #commitFailed} so that the next call offers it again.
     */
    Map<TopicPartition, OffsetAndMetadata> committable() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, PartitionState> e : partitions.entrySet()) {
            long pos = position(e.getValue());
            if (pos > e.getValue().committed) {
                e.getValue().committed = pos;
                out.put(e.getKey(), new OffsetAndMetadata(pos));
            }
        }
        return out;
    }

    /**
     * An asynchronous commit of these offsets failed: the next {@link #committable()} offers each partition's
     * position again even if it has not moved (without this, a partition whose records are all finished would never
     * have its last offset committed, and a restart would redo them).
     */
    void commitFailed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
            PartitionState s = partitions.get(e.getKey());
            if (s != null && s.committed >= e.getValue().offset()) {
                s.committed = e.getValue().offset() - 1;
            }
        }
    }

    /** Committable offsets of some partitions, regardless of what was committed before. */
    Map<TopicPartition, OffsetAndMetadata> committable(Collection<TopicPartition> tps) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.get(tp);
            if (s != null && s.next >= 0) {
                out.put(tp, new OffsetAndMetadata(position(s)));
            }
        }
        return out;
    }

    /** Records handed to the pipeline and not yet finished, in these partitions. */
    int running(Collection<TopicPartition> tps) {
        int n = 0;
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.get(tp);
            if (s != null) {
                position(s);
                for (Slot slot : s.slots) {
                    if (slot.started && !slot.isDone()) {
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

    /**
     * Forgets partitions (revoked or lost) and marks their unfinished slots {@linkplain Slot#isRevoked() revoked};
     * the slots may still be completed. The records after the committable offset are kept aside in case the
     * partition comes back to this instance (see the class comment).
     */
    void remove(Collection<TopicPartition> tps) {
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.remove(tp);
            if (s != null) {
                position(s);
                for (Slot slot : s.slots) {
                    slot.revoked = true;
                }
                if (s.slots.isEmpty()) {
                    departed.remove(tp);
                } else {
                    departed.put(tp, s.slots);
                }
            }
        }
    }

    /** Records kept from departed partitions (for tests and metrics). */
    int departedRecords() {
        int n = 0;
        for (ArrayDeque<Slot> q : departed.values()) {
            n += q.size();
        }
        return n;
    }

    private static long position(PartitionState s) {
        while (!s.slots.isEmpty() && s.slots.peekFirst().isDone()) {
            s.slots.pollFirst();
        }
        return s.slots.isEmpty() ? s.next : s.slots.peekFirst().offset;
    }
}
