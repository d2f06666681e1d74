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
 */
final class OffsetTracker {
    /** One record in flight. */
    static final class Slot {
        final TopicPartition partition;
        final long offset;
        private volatile boolean done;
        private volatile boolean revoked;
        private boolean started;

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

    /** Registers the next record of a partition (offsets must increase). */
    Slot add(TopicPartition tp, long offset) {
        PartitionState s = partitions.computeIfAbsent(tp, k -> new PartitionState());
        if (offset < s.next) {
            throw new IllegalStateException(tp + ": offset " + offset + " after " + (s.next - 1));
        }
        Slot slot = new Slot(tp, offset);
        s.slots.addLast(slot);
        s.next = offset + 1;
        return slot;
    }

    /**
     * Offsets safe to commit that moved since the last call, per partition; marks them as committed.
     * (A failed asynchronous commit is harmless: the next call does not repeat it, but a later one moves further.)
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
     * the slots may still be completed, to no effect.
     */
    void remove(Collection<TopicPartition> tps) {
        for (TopicPartition tp : tps) {
            PartitionState s = partitions.remove(tp);
            if (s != null) {
                for (Slot slot : s.slots) {
                    slot.revoked = true;
                }
            }
        }
    }

    private static long position(PartitionState s) {
        while (!s.slots.isEmpty() && s.slots.peekFirst().isDone()) {
            s.slots.pollFirst();
        }
        return s.slots.isEmpty() ? s.next : s.slots.peekFirst().offset;
    }
}
