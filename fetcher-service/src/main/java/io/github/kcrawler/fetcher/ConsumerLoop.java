package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.serde.JsonSerde;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The consumer thread: polls fetch requests and hands each to the pipeline at once; when {@code max-pending}
 * requests are accepted and unfinished, every partition is paused until there is room again (records polled in
 * the same batch still enter, so the bound is exceeded by at most one poll). Every {@code commit-interval-ms} it
 * commits one transaction ({@link TransactionalOutput}): the results, links and discovered URLs of the requests
 * finished since the last one, and per partition the offset of the oldest unfinished record ({@link OffsetTracker})
 * with the finished records above it in the metadata ({@link FinishedOffsets}), sent with the group's metadata so
 * that a member the group has fenced cannot commit. On a rebalance it waits up to {@code revoke-wait-ms} for the
 * revoked partitions' unfinished requests, commits what is complete and forgets the rest (the new owner redoes it);
 * lost partitions commit nothing. A request that is not readable JSON is counted under {@code BAD_RECORDS} and
 * skipped (its offset completes at once).
 *
 * <p>Duplicate fetches are kept to what no transaction can avoid — fetching is a side effect. Fetches wait (see
 * {@link #ownershipConfirmed()} and {@link OwnershipGate}, which says when) while this instance cannot be sure it
 * still owns its partitions: requests fetched then could not be committed and would be fetched again by whoever owns
 * the partition next. A request this instance had already finished, whose partition left and came back to it, is
 * skipped ({@link OffsetTracker}), and so is one its partition's previous owner listed as finished in its last
 * commit ({@link FinishedOffsets}); both are counted under {@code FETCH_REDELIVERED_SKIPPED}. The previous owner's
 * list is read when the partition is assigned, or — if that owner's transaction was still open then, so the
 * committed offsets were not stable — at the partition's first record. A request this instance had fetched but not
 * committed when its partition left (lost with the broker, say) is answered by those results if it comes back here
 * ({@link TransactionalOutput}, counted under {@code FETCH_REDELIVERED_ANSWERED}).
 */
final class ConsumerLoop {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);

    private final FetcherConfig config;
    private final String topic;
    private final Properties props;
    private final FetchPipeline pipeline;
    private final AtomicInteger pending;
    private final FetchMetrics metrics;
    private final JsonSerde<FetchRequest> serde;
    private final OffsetTracker tracker = new OffsetTracker();
    final PartitionOwnership owned = new PartitionOwnership(); // what sitemap runs ask (FetcherService)
    private final TransactionalOutput output;
    /**
     * When each owned partition was assigned to this instance (epoch ms). Its requests are sent no sooner than T
     * after that: the previous owner's last request to one of its IPs went out before the partition left it (a
     * revoked partition sends nothing new, {@link OffsetTracker.Slot#isLeaving()}), but this instance's per-IP guard
     * has not seen it, so a robots.txt fetch right at the hand-over came closer than T to it (bench scale: 3
     * violations of 49–65 ms at T = 100 ms, all robots.txt).
     */
    private final java.util.Map<TopicPartition, Long> assignedAt = new java.util.HashMap<>();
    /** Partitions whose previous owner's finished list could not be read on assignment: read at their first record. */
    private final Set<TopicPartition> finishedUnknown = new HashSet<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private final io.micrometer.core.instrument.MeterRegistry registry;
    private io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics consumerMetrics;
    private boolean paused;
    private long lastCommit;
    /** Whether a fetch may be sent now: closed while this instance may have lost its partitions. */
    private final OwnershipGate gate;

    ConsumerLoop(FetcherConfig config, String topic, Properties props, Producer<String, byte[]> producer,
                 FetchPipeline pipeline, AtomicInteger pending, FetchMetrics metrics, JsonSerde<FetchRequest> serde,
                 io.micrometer.core.instrument.MeterRegistry registry) {
        this.config = config;
        this.registry = registry;
        this.topic = topic;
        this.props = props;
        this.pipeline = pipeline;
        this.pending = pending;
        this.metrics = metrics;
        this.serde = serde;
        this.output = new TransactionalOutput(producer, tracker, metrics, () -> running);
        this.thread = new Thread(this::run, "fetcher-consumer");
        Object session = props.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        long sessionMs = session == null ? DEFAULT_SESSION_TIMEOUT_MS : Long.parseLong(session.toString().trim());
        this.gate = new OwnershipGate(metrics, sessionMs);
        gate.watch(producer.metrics(), "producer-metrics");
    }

    /** Kafka's default {@code session.timeout.ms}. */
    static final long DEFAULT_SESSION_TIMEOUT_MS = 45_000;

    /**
     * Whether a fetch may be sent now ({@link OwnershipGate}; any thread, read before each fetch — see
     * {@code FetchPipeline#granted}). Once stopping, nothing new goes out: the last transaction holds only what was
     * on the network, and the next owner fetches the rest (a fetch sent after it could not be committed: fetched
     * twice, and sent to an IP the next owner may already be pacing — bench scale: 23 duplicates and a violation at a
     * scale-down).
     */
    boolean ownershipConfirmed() {
        return gate.open(running);
    }

    void start() {
        thread.start();
    }

    /** Where the sink hands jobs whose records are built. */
    TransactionalOutput output() {
        return output;
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    /** Stops polling, lets running fetches finish for up to {@code revoke-wait-ms}, commits, closes. */
    void shutdown() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(config.revokeWaitMs() + 30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props)) {
            consumer = c;
            gate.watch(c.metrics(), "consumer-metrics");
            // the consumer's fetch rate, lag and rebalances as kafka_consumer_* meters, beside the producer's (issue 23)
            consumerMetrics = new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(c,
                    List.of(io.micrometer.core.instrument.Tag.of("service", "fetcher")));
            consumerMetrics.bindTo(registry);
            gate.linksSeen();
            initTransactions();
            c.subscribe(List.of(topic), new Rebalance());
            lastCommit = System.currentTimeMillis();
            // poll returns at least once per commit interval, so finished requests are committed on time
            Duration pollTimeout = Duration.ofMillis(Math.min(100, config.commitIntervalMs()));
            Duration pausedPollTimeout = Duration.ofMillis(10); // resume soon once pending requests leave room
            while (running) {
                try {
                    gate.loopTurn();
                    if (gate.confirming()) {
                        confirmOwnership(c);
                        gate.releaseExpiredHold();
                    }
                    ConsumerRecords<String, byte[]> records = c.poll(paused ? pausedPollTimeout : pollTimeout);
                    gate.polled();
                    for (ConsumerRecord<String, byte[]> r : records) {
                        accept(r);
                    }
                    flowControl(c);
                    maybeCommit(c);
                } catch (WakeupException e) {
                    if (running) {
                        throw e;
                    }
                }
            }
            awaitRunning(tracker::running, config.revokeWaitMs());
            finalCommit(c);
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("fetcher consumer stopped; the service reports unhealthy", e);
            }
        } finally {
            running = false;
            output.close();
            if (consumerMetrics != null) {
                consumerMetrics.close();
            }
        }
    }

    /** Registers the transactional id, retrying while the broker does not answer within {@code max.block.ms}. */
    private void initTransactions() {
        for (int attempt = 1; running; attempt++) {
            try {
                output.init();
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (attempt == 1) {
                    LOG.warn("the fetcher's transactional producer cannot reach its coordinator yet ({}); retrying",
                            e.toString());
                }
            }
        }
    }

    /** The last transaction before closing: whatever finished within {@code revoke-wait-ms}. */
    private void finalCommit(KafkaConsumer<String, byte[]> c) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(config.revokeWaitMs(), 1_000));
        try {
            TransactionalOutput.Result r;
            try {
                r = commitRound(c, true);
            } catch (WakeupException e) {
                r = commitRound(c, true); // the shutdown wake-up landed here; it fires once
            }
            // A group that is rebalancing (another fetcher left or joined: a scale-down stops several at once)
            // refuses offsets sent with the old generation. The transaction then aborts and what it held would be
            // fetched again by the next owner (bench scale: 7 duplicates from one such abort). So the consumer takes
            // part in the rebalance — every partition paused, no record taken, the callbacks commit what is complete
            // before a partition leaves — and the round is tried again, within the revoke wait.
            while ((r == TransactionalOutput.Result.ABORTED || r == TransactionalOutput.Result.NOT_A_MEMBER)
                    && System.nanoTime() < deadline) {
                paused = true;
                c.pause(c.assignment());
                c.poll(Duration.ofMillis(50)); // records of paused partitions are not returned
                r = commitRound(c, true);
            }
            if (r == TransactionalOutput.Result.ABORTED || r == TransactionalOutput.Result.NOT_A_MEMBER) {
                LOG.warn("final fetcher transaction did not commit; the requests finished since the last one will be"
                        + " fetched again by the partitions' next owners");
            }
        } catch (KafkaException e) {
            LOG.warn("final fetcher transaction failed; the requests finished since the last one will be fetched "
                    + "again: {}", e.toString());
        }
    }

    /**
     * One transaction ({@link TransactionalOutput#commit}): the results ready since the last one and the offsets
     * that moved (all owned partitions' offsets when {@code force}).
     */
    private TransactionalOutput.Result commitRound(KafkaConsumer<String, byte[]> c, boolean force) {
        TransactionalOutput.Result r;
        gate.roundStarted();
        try {
            r = output.commit(force, tracker.partitions(), c.groupMetadata());
        } finally {
            gate.roundEnded();
        }
        if (r == TransactionalOutput.Result.ABORTED || r == TransactionalOutput.Result.NOT_A_MEMBER) {
            gate.commitFailed();
        } else if (r == TransactionalOutput.Result.COMMITTED) {
            gate.committed();
        }
        return r;
    }

    /**
     * A synchronous commit is a round trip to the group coordinator that fails when this member was fenced or the
     * coordinator is away: success confirms ownership; a failure leaves {@code confirming} set, and the next
     * {@code poll} runs the rebalance ({@code onPartitionsLost} / {@code onPartitionsRevoked} revoke the waiting
     * fetches, and ownership is known again once partitions are assigned).
     */
    private void confirmOwnership(KafkaConsumer<String, byte[]> c) {
        long closed = gate.closedLinks(); // before the round: a connection closed during it is confirmed by the next
        TransactionalOutput.Result r = commitRound(c, true);
        if (r == TransactionalOutput.Result.NOTHING) {
            gate.confirmed(closed); // nothing taken from any partition: no fetch to hold
        } else if (r == TransactionalOutput.Result.COMMITTED) {
            gate.confirmed(closed);
            LOG.info("fetcher ownership of {} confirmed (offsets committed in a transaction); fetches go on",
                    tracker.partitions());
        } else {
            LOG.debug("fetcher ownership not confirmed yet; fetches still wait");
        }
    }

    private void accept(ConsumerRecord<String, byte[]> r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        if (!finishedUnknown.isEmpty() && finishedUnknown.remove(tp)) {
            readFinishedOffsets(List.of(tp)); // its committed offset is stable now: records were delivered from it
        }
        OffsetTracker.Slot slot = tracker.add(tp, r.offset());
        output.kept().passed(tp, slot.isRedelivered() ? r.offset() + 1 : r.offset());
        if (slot.isRedelivered()) {
            metrics.redeliveredSkipped.increment();
            LOG.debug("skipping {}@{}: this instance fetched it before the partition moved", tp, r.offset());
            return;
        }
        if (output.answer(slot)) {
            return; // results fetched here before the partition left, not committed then, go into the next transaction
        }
        FetchRequest request;
        try {
            request = serde.deserialize(r.topic(), r.value());
        } catch (RuntimeException e) {
            request = null;
        }
        if (request == null || request.url() == null) {
            metrics.badRecords.increment();
            LOG.debug("skipping unreadable fetch request at {}@{}", tp, r.offset());
            slot.done();
            return;
        }
        pending.incrementAndGet();
        slot.started();
        FetchJob job = new FetchJob(r.key(), request, slot);
        Long since = assignedAt.get(tp);
        if (since != null) {
            // + 1: both instants are whole milliseconds of a truncating clock, so "T after" needs one more to be
            // at least T in real time, as IpGuard grants only when more than T (in clock millis) has passed
            job.notBefore = Math.max(job.notBefore, since + config.politenessMs() + 1);
        }
        pipeline.submit(job);
    }

    private void flowControl(KafkaConsumer<String, byte[]> c) {
        boolean full = pending.get() >= config.limits().maxPending();
        if (full && !paused) {
            c.pause(c.assignment());
            paused = true;
        } else if (!full && paused) {
            c.resume(c.paused());
            paused = false;
        } else if (paused) {
            c.pause(c.assignment()); // partitions assigned while paused
        }
    }

    private void maybeCommit(KafkaConsumer<String, byte[]> c) {
        long now = System.currentTimeMillis();
        if (now - lastCommit < config.commitIntervalMs()) {
            return;
        }
        lastCommit = now;
        commitRound(c, false);
    }

    private static void awaitRunning(java.util.function.IntSupplier running, long maxMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        while (running.getAsInt() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * Reads the records the previous owners listed as finished in their last commits ({@link FinishedOffsets}); false
     * if the committed offsets could not be read — typically because the previous owner's transaction is still open
     * (a read_committed consumer waits for it: the offsets are not stable yet), in which case they are read again
     * when the partition's first record arrives.
     */
    private boolean readFinishedOffsets(Collection<TopicPartition> partitions) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions),
                    Duration.ofSeconds(5));
            for (TopicPartition tp : partitions) {
                OffsetAndMetadata c = committed.get(tp);
                tracker.committedWhenAssigned(tp, c);
                if (c != null) {
                    output.kept().passed(tp, c.offset()); // committed past by the partition's last owner
                }
            }
            return true;
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            LOG.info("could not read the committed offsets of {} yet ({}); trying again at their first record",
                    partitions, e.toString());
            return false;
        }
    }

    /** Commits what is complete before partitions move. Runs inside poll(). */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            owned.removed(partitions);
            partitions.forEach(assignedAt::remove);
            if (partitions.isEmpty()) {
                return;
            }
            output.kept().rebalancing();
            // first: nothing more is sent for them. A fetch granted between the wait below and the partitions'
            // removal went out while the next owner took over the IP (bench scale: 2 politeness violations, 64 ms)
            tracker.leaving(partitions);
            awaitRunning(() -> tracker.running(partitions), config.revokeWaitMs());
            try {
                commitRound(consumer, true); // the partitions still belong to this member during the callback
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                if (TransactionalOutput.fatal(e)) {
                    throw e;
                }
                LOG.warn("fetcher transaction before revoking {} failed: {}", partitions, e.toString());
            }
            tracker.remove(partitions);
            finishedUnknown.removeAll(partitions);
        }

        /** The records the previous owners listed as finished in their last commits ({@link FinishedOffsets}). */
        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            output.kept().rebalancing();
            owned.removed(partitions);
            partitions.forEach(assignedAt::remove);
            tracker.remove(partitions);
            finishedUnknown.removeAll(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            owned.assigned(partitions);
            output.kept().retain(consumer.assignment()); // the rebalance is over: kept results of other partitions go
            long now = System.currentTimeMillis();
            for (TopicPartition tp : partitions) {
                assignedAt.put(tp, now);
            }
            gate.assigned();
            if (!partitions.isEmpty() && !readFinishedOffsets(partitions)) {
                finishedUnknown.addAll(partitions);
            }
            if (paused && !partitions.isEmpty()) {
                consumer.pause(partitions);
            }
        }
    }
}
