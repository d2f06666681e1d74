package io.github.kcrawler.fetcher;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The records one job produces, counted until all are in hand. Two ways to finish:
 * <ul>
 *   <li>transactional (the service): the sink {@linkplain #stage stages} each record here; once the last one is
 *   staged the job is ready for the next transaction ({@link TransactionalOutput}), and only when that transaction
 *   commits — records and the request offsets together — is the job's offset slot marked done
 *   ({@link #committed()}). A job whose transaction aborts is staged again in the next one; a job whose partition
 *   left, or whose records cannot be produced at all, is {@linkplain #dropped dropped} and its slot given up, so the
 *   record is fetched again by whoever owns it.</li>
 *   <li>direct ({@link #acked}): each send's acknowledgement counts down; the last one marks the slot done (tests
 *   that drive the pipeline without Kafka).</li>
 * </ul>
 */
final class Completion {
    private final FetchJob job;
    /**
     * The offset slot these results finish: the job's own, or that of a later delivery of the same record to this
     * instance once they answer it ({@link #answer}).
     */
    private volatile OffsetTracker.Slot slot;
    private final AtomicInteger remaining;
    private final BiConsumer<FetchJob, Exception> listener;
    private volatile Exception failure;
    /** A record of this job could not be built: it can never be produced. */
    private volatile boolean unbuilt;
    /** Staged records, in the order the publisher produced them (guarded by this). */
    private final List<ProducerRecord<String, byte[]>> records;

    /** @param listener told once when the job is over: error null when done (or dropped because its partition left) */
    Completion(FetchJob job, int sends, BiConsumer<FetchJob, Exception> listener) {
        this.job = job;
        this.slot = job.slot;
        this.remaining = new AtomicInteger(sends);
        this.listener = listener;
        this.records = new ArrayList<>(sends);
    }

    /** Called by each send's callback (direct mode). */
    void acked(Exception error) {
        if (error != null) {
            failure = error;
        }
        if (remaining.decrementAndGet() == 0) {
            Exception f = failure;
            OffsetTracker.Slot s = slot;
            if (f == null && s != null) {
                s.done();
            } else if (s != null) {
                s.gaveUp(); // a later delivery of the record must fetch it again
            }
            listener.accept(job, f);
        }
    }

    /** Holds a record for the job's transaction; true when it was the job's last one (the job is ready). */
    boolean stage(ProducerRecord<String, byte[]> record) {
        synchronized (this) {
            records.add(record);
        }
        return remaining.decrementAndGet() == 0;
    }

    /** A record that could not even be built (serialization); true when it was the job's last one. */
    boolean stageFailed(Exception error) {
        failure = error;
        unbuilt = true;
        return remaining.decrementAndGet() == 0;
    }

    /** The staged records (once the job is ready). */
    synchronized List<ProducerRecord<String, byte[]>> records() {
        return List.copyOf(records);
    }

    /** True if a record of this job could not even be built (it can never be produced). */
    boolean unbuilt() {
        return unbuilt;
    }

    /** Why a record of this job could not be built or sent, or null. */
    Exception failure() {
        return failure;
    }

    /** Records a send failure seen in a transaction (consumer thread). */
    void failed(Exception error) {
        failure = error;
    }

    FetchJob job() {
        return job;
    }

    OffsetTracker.Slot slot() {
        return slot;
    }

    /**
     * These results now answer {@code later}, a later delivery of the same record to this instance (the partition
     * left before they were committed, and came back): they commit its offset, and the job's own slot is forgotten
     * (consumer thread only, before the results go into a transaction).
     */
    void answer(OffsetTracker.Slot later) {
        slot = later;
    }

    /** The job's transaction committed: its results are visible and its offset may move past it. */
    void committed() {
        OffsetTracker.Slot s = slot;
        if (s != null) {
            s.done();
        }
        listener.accept(job, null);
    }

    /**
     * The job's results will not be produced here: its partition left this instance (error null), or its records
     * cannot be produced (the error; the service reports unhealthy). A later delivery of the record fetches it again.
     */
    void dropped(Exception error) {
        OffsetTracker.Slot s = slot;
        if (s != null) {
            s.gaveUp();
        }
        listener.accept(job, error);
    }
}
