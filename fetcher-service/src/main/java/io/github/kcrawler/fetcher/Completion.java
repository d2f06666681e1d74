package io.github.kcrawler.fetcher;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * Counts the records one job produces until Kafka acknowledges all of them; only then is the job's offset slot
 * marked done, so an offset is never committed before the results of its record are durable. A failed send
 * leaves the slot open (the record is redone after a restart) and is reported to the listener with the error.
 */
final class Completion {
    private final FetchJob job;
    private final AtomicInteger remaining;
    private final BiConsumer<FetchJob, Exception> listener;
    private volatile Exception failure;

    /** @param listener told once when all sends are acknowledged (error null) or any failed */
    Completion(FetchJob job, int sends, BiConsumer<FetchJob, Exception> listener) {
        this.job = job;
        this.remaining = new AtomicInteger(sends);
        this.listener = listener;
    }

    /** Called by each send's callback. */
    void acked(Exception error) {
        if (error != null) {
            failure = error;
        }
        if (remaining.decrementAndGet() == 0) {
            Exception f = failure;
            if (f == null && job.slot != null) {
                job.slot.done();
            } else if (job.slot != null) {
                job.slot.gaveUp(); // a later delivery of the record must fetch it again
            }
            listener.accept(job, f);
        }
    }
}
