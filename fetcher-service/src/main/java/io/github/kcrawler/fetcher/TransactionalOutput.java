package io.github.kcrawler.fetcher;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/**
 * The fetcher's output as Kafka transactions: a consume-process-produce stage with exactly-once output (KIP-98,
 * with the consumer group's metadata fencing zombies as in KIP-447, Kafka Streams' {@code exactly_once_v2}). Worker
 * threads build each job's records ({@link Completion#stage}) and hand the job here once all are built; the consumer
 * thread then, every {@code commit-interval-ms}, produces the records of every job ready since the last transaction
 * and commits the request offsets ({@link OffsetTracker}: the oldest unfinished record, with the finished ones above
 * it in the metadata) in the same transaction with {@code sendOffsetsToTransaction(offsets, groupMetadata)}.
 *
 * <p>Invariants: a job's results are visible to read_committed consumers if and only if the offsets committed with
 * them count the job as finished — so a new owner of the partition never fetches a request whose results were
 * committed, and a request whose results were not committed is fetched again (what may be fetched twice is what was
 * on the network, or ready but not yet committed, when an instance died). Only the consumer thread touches the
 * producer; the records of an aborted transaction are invisible and are produced again in the next one.
 *
 * <p>A job whose partition left this instance before its results were committed is never produced for its own
 * delivery. Its built results are kept aside ({@link KeptResults}): if the same record comes back to this instance
 * they {@linkplain #answer answer} the new delivery and are committed with its offset, instead of the page being
 * fetched a second time. That is exactly-once still: the record's results are committed only with an offset that
 * counts the record as finished, and a record whose partition another owner committed past (or listed as finished,
 * {@link FinishedOffsets}) is never delivered here again, so its kept results are dropped. They are dropped on close
 * too.
 *
 * <p>Failures: an abortable error (the broker went away, the group rebalanced and the generation in the offsets is
 * stale — this instance was fenced as a zombie) aborts the transaction and keeps the jobs for the next one; a
 * timeout while committing or aborting is retried (the outcome is not known until the call succeeds); a fenced
 * producer (another instance took this {@code transactional.id}), an authorization failure or an unsupported broker
 * is fatal — the caller stops and the service reports unhealthy. No transaction is begun while the consumer is in
 * no generation of its group (put out after a session or poll timeout, not yet rejoined): offsets sent with
 * generation -1 would not be checked by the group coordinator, and a zombie could commit. A job whose records can
 * never be produced (too large, not serializable) is dropped with its error (the service reports unhealthy, as for
 * a failed send before).
 *
 * <p>Memory: jobs wait here for at most one commit interval while the broker answers; while it does not, fetches
 * stop at the consumer ({@link ConsumerLoop#ownershipConfirmed()}), so what waits is bounded by the fetches that
 * were in flight.
 */
final class TransactionalOutput implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalOutput.class);

    /** What one call to {@link #commit} did. */
    enum Result {
        /** Nothing was ready and no offset moved. */
        NOTHING,
        COMMITTED,
        /** The transaction aborted; its jobs go into the next one. */
        ABORTED,
        /** This consumer is in no generation of the group (it was put out): nothing sent, jobs kept. */
        NOT_A_MEMBER
    }

    private final Producer<String, byte[]> producer;
    private final OffsetTracker tracker;
    private final FetchMetrics metrics;
    private final BooleanSupplier keepTrying;
    private final ConcurrentLinkedQueue<Completion> ready = new ConcurrentLinkedQueue<>();
    /** Jobs of an aborted transaction, in their order, for the next one (consumer thread only). */
    private final ArrayDeque<Completion> again = new ArrayDeque<>();
    /** Built results of jobs whose partition left before they were committed (consumer thread only). */
    private final KeptResults kept = new KeptResults();
    private volatile boolean closed;
    private volatile java.util.function.IntConsumer beforeOffsets = jobs -> { };

    /**
     * @param producer   a transactional producer, not yet initialised
     * @param keepTrying false once the service is stopping: timeouts are then no longer retried
     */
    TransactionalOutput(Producer<String, byte[]> producer, OffsetTracker tracker, FetchMetrics metrics,
                        BooleanSupplier keepTrying) {
        this.producer = producer;
        this.tracker = tracker;
        this.metrics = metrics;
        this.keepTrying = keepTrying;
    }

    /**
     * Registers the {@code transactional.id} with its coordinator: a producer that used the same id before (this
     * instance before a crash) is fenced and its open transaction aborted. Blocks up to {@code max.block.ms}.
     */
    void init() {
        producer.initTransactions();
    }

    /** All records of a job are built (any thread). */
    void ready(Completion c) {
        if (c.slot() != null) {
            c.slot().resultsReady();
        }
        if (closed) {
            c.dropped(null);
            return;
        }
        ready.add(c);
    }

    /** Jobs whose records wait for a transaction. */
    int waiting() {
        return ready.size() + again.size();
    }

    /**
     * Runs {@code hook} with the number of jobs in the transaction on the consumer thread, right before the offsets
     * go into it (tests only).
     */
    void beforeOffsets(java.util.function.IntConsumer hook) {
        this.beforeOffsets = hook;
    }

    /**
     * One transaction with the records of every ready job whose partition this instance still owns, and the offsets
     * that have moved (consumer thread only).
     *
     * @param force send the offsets of every owned partition even if none moved: a round trip to the group
     *              coordinator that proves this member still owns them
     * @throws KafkaException when the producer cannot go on (fenced, not authorised, unsupported): the caller stops
     */
    Result commit(boolean force, Collection<TopicPartition> owned, ConsumerGroupMetadata group) {
        List<Completion> batch = new ArrayList<>(again.size() + ready.size());
        for (Completion c; (c = again.isEmpty() ? ready.poll() : again.poll()) != null; ) {
            OffsetTracker.Slot s = c.slot();
            if (c.unbuilt() || c.failure() != null && unproducible(c.failure())) {
                unproducible(c, c.failure());
            } else if (s != null && s.isRevoked()) {
                OffsetTracker.Slot later = kept.keep(c, s);
                if (later != null) {
                    answer(c, later); // into `again`: this loop takes it
                }
            } else {
                batch.add(c);
            }
        }
        for (Completion c : batch) {
            if (c.slot() != null) {
                c.slot().staged(true);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = force ? tracker.committable(owned) : tracker.committable();
        if (batch.isEmpty() && offsets.isEmpty()) {
            return Result.NOTHING;
        }
        if (group.generationId() < 0) {
            // A member the group put out (session or poll timeout) has no generation until it rejoins, and offsets
            // sent without one are not checked against the group at all: a zombie would commit. Its next poll
            // tells it which partitions it lost (their jobs are then dropped).
            unstage(batch);
            tracker.commitFailed(offsets);
            again.addAll(batch);
            return Result.NOT_A_MEMBER;
        }
        try {
            producer.beginTransaction();
            for (Completion c : batch) {
                for (ProducerRecord<String, byte[]> r : c.records()) {
                    producer.send(r, (md, e) -> {
                        if (e != null) {
                            c.failed(e);
                        }
                    });
                }
            }
            if (!offsets.isEmpty()) {
                beforeOffsets.accept(batch.size());
                producer.sendOffsetsToTransaction(offsets, group);
            }
            commitTransaction();
        } catch (RuntimeException e) {
            unstage(batch);
            tracker.commitFailed(offsets);
            if (fatal(e)) {
                again.addAll(batch); // dropped by close()
                throw e;
            }
            abortTransaction(e);
            metrics.transactionsAborted.increment();
            for (Completion c : batch) {
                Exception f = c.failure();
                if (f != null && unproducible(f)) {
                    unproducible(c, f);
                } else {
                    c.failed(null); // a late callback of the aborted batch may set it again: only kinds count
                    again.add(c);
                }
            }
            LOG.debug("fetcher transaction aborted ({}); {} jobs go into the next one", e.toString(), again.size());
            return Result.ABORTED;
        }
        for (Completion c : batch) {
            c.committed(); // done before unstaged: the slot stays finished
            if (c.slot() != null) {
                c.slot().staged(false);
            }
        }
        metrics.transactionsCommitted.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("fetcher transaction committed: {} jobs, offsets {}", batch.size(), offsets);
        }
        return Result.COMMITTED;
    }

    private void unproducible(Completion c, Exception f) {
        LOG.error("the results of {} cannot be produced; its request stays uncommitted", c.job().request.url(), f);
        c.dropped(f);
    }

    private static void unstage(List<Completion> batch) {
        for (Completion c : batch) {
            if (c.slot() != null) {
                c.slot().staged(false);
            }
        }
    }

    /** Commits; a timeout leaves the outcome open, so the same call is repeated until it answers. */
    private void commitTransaction() {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.commitTransaction();
                return;
            } catch (TimeoutException e) {
                if (!keepTrying.getAsBoolean()) {
                    throw e;
                }
                if (attempt == 1) {
                    LOG.warn("fetcher transaction commit timed out ({}); retrying until the broker answers",
                            e.toString());
                }
            }
        }
    }

    private void abortTransaction(RuntimeException cause) {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.abortTransaction();
                return;
            } catch (TimeoutException e) {
                if (!keepTrying.getAsBoolean()) {
                    throw e;
                }
                if (attempt == 1) {
                    LOG.warn("fetcher transaction abort timed out ({}); retrying", e.toString());
                }
            } catch (KafkaException e) {
                e.addSuppressed(cause);
                throw e; // the producer is in a fatal state
            }
        }
    }

    /** Errors after which this producer can do nothing more (Kafka's documented fatal producer errors). */
    static boolean fatal(RuntimeException e) {
        return e instanceof ProducerFencedException || e instanceof OutOfOrderSequenceException
                || e instanceof AuthorizationException || e instanceof UnsupportedVersionException
                || e instanceof FencedInstanceIdException || e instanceof IllegalStateException
                || !(e instanceof KafkaException);
    }

    /** Send errors that no retry can cure: the record itself is wrong. */
    static boolean unproducible(Exception e) {
        return e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                || e instanceof SerializationException || e instanceof InvalidTopicException;
    }

    private void answer(Completion c, OffsetTracker.Slot later) {
        later.answered();
        c.answer(later);
        again.add(c);
        kept.answered();
        metrics.redeliveredAnswered.increment();
        LOG.debug("results of {} fetched before its partition left answer its new delivery at {}@{}",
                c.job().request.url(), later.partition, later.offset);
    }

    /**
     * A record delivered here again (consumer thread, as it is taken from Kafka): true if results kept from its
     * earlier delivery answer it — it is then finished by the next transaction and must not be fetched.
     */
    boolean answer(OffsetTracker.Slot slot) {
        Completion c = kept.take(slot);
        if (c == null) {
            return false;
        }
        slot.forgetEarlier();
        answer(c, slot);
        return true;
    }

    /** Results kept for a later delivery of their record: the consumer thread tells them what the group does. */
    KeptResults kept() {
        return kept;
    }

    /** Drops the jobs still waiting (their records are not produced; their requests are fetched again). */
    @Override
    public void close() {
        closed = true;
        kept.retain(Set.of());
        for (Completion c; (c = again.poll()) != null; ) {
            c.dropped(null);
        }
        for (Completion c; (c = ready.poll()) != null; ) {
            c.dropped(null);
        }
    }
}
