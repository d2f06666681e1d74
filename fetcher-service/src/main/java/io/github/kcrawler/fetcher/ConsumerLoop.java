package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.serde.JsonSerde;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The consumer thread: polls fetch requests and hands each to the pipeline at once; when {@code max-pending}
 * requests are accepted and unfinished, every partition is paused until there is room again (records polled in
 * the same batch still enter, so the bound is exceeded by at most one poll). It commits, per partition, the offset
 * below the oldest unfinished record ({@link OffsetTracker}) every
 * {@code commit-interval-ms}. On a rebalance it waits up to {@code revoke-wait-ms} for the revoked partitions'
 * unfinished requests, commits what is complete and forgets the rest (the new owner redoes it). A request that is not
 * readable JSON is counted under {@code BAD_RECORDS} and skipped (its offset completes at once).
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
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private boolean paused;
    private long lastCommit;

    ConsumerLoop(FetcherConfig config, String topic, Properties props, FetchPipeline pipeline, AtomicInteger pending,
                 FetchMetrics metrics, JsonSerde<FetchRequest> serde) {
        this.config = config;
        this.topic = topic;
        this.props = props;
        this.pipeline = pipeline;
        this.pending = pending;
        this.metrics = metrics;
        this.serde = serde;
        this.thread = new Thread(this::run, "fetcher-consumer");
    }

    void start() {
        thread.start();
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
            c.subscribe(List.of(topic), new Rebalance());
            lastCommit = System.currentTimeMillis();
            while (running) {
                try {
                    ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(paused ? 10 : 100));
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
            commitSync(c, tracker.committable());
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("fetcher consumer stopped; the service reports unhealthy", e);
            }
        } finally {
            running = false;
        }
    }

    private void accept(ConsumerRecord<String, byte[]> r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        OffsetTracker.Slot slot = tracker.add(tp, r.offset());
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
        pipeline.submit(new FetchJob(r.key(), request, slot));
    }

    private void flowControl(KafkaConsumer<String, byte[]> c) {
        boolean full = pending.get() >= config.maxPending();
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
        Map<TopicPartition, OffsetAndMetadata> offsets = tracker.committable();
        if (!offsets.isEmpty()) {
            c.commitAsync(offsets, (o, e) -> {
                if (e != null) {
                    LOG.warn("offset commit failed (retried with the next commit): {}", e.toString());
                }
            });
        }
    }

    private void commitSync(KafkaConsumer<String, byte[]> c, Map<TopicPartition, OffsetAndMetadata> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        try {
            try {
                c.commitSync(offsets, Duration.ofSeconds(10));
            } catch (WakeupException e) {
                c.commitSync(offsets, Duration.ofSeconds(10)); // the shutdown wake-up landed here; it fires once
            }
        } catch (KafkaException e) {
            LOG.warn("final offset commit failed; the records after the last commit will be fetched again: {}",
                    e.toString());
        }
    }

    private static void awaitRunning(java.util.function.IntSupplier running, long maxMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        while (running.getAsInt() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** Commits what is complete before partitions move. Runs inside poll(). */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            awaitRunning(() -> tracker.running(partitions), config.revokeWaitMs());
            commitSync(consumer, tracker.committable(partitions));
            tracker.remove(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            tracker.remove(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (paused && !partitions.isEmpty()) {
                consumer.pause(partitions);
            }
        }
    }
}
