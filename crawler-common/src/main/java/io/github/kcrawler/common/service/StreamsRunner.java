package io.github.kcrawler.common.service;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle every Kafka Streams service of the crawler shares: start once, report health, stop by leaving the
 * group.
 *
 * <p>Failure policy ({@link StreamThreadFailures}): input problems never reach the stream thread (the processors
 * count and skip them) and Streams retries transient broker errors for {@code task.timeout.ms}; an exception that
 * still escapes a stream thread replaces the thread, a few times within a window (infrastructure failures the
 * clients call fatal, such as a transaction aborted during a broker restart, pass with a fresh producer), and the
 * failure after that shuts the whole client down: the service reports unhealthy ({@code /health} answers 503), its
 * main exits with status 1 and a supervisor restarts it from the last committed state — a bug or a broken local
 * store does not loop unseen.
 *
 * <p>Closing leaves the consumer group: partitions are reassigned at once instead of after the session timeout
 * (45 s), which is what a restart or a scale-down wants; a rolling restart pays one extra, short rebalance for it.
 */
public final class StreamsRunner {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final KafkaStreams streams;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Object lock = new Object();
    private boolean started;
    private boolean closed;

    public StreamsRunner(String name, Topology topology, Properties properties, MeterRegistry registry) {
        this.name = name;
        this.streams = new KafkaStreams(topology, properties);
        streams.setUncaughtExceptionHandler(new StreamThreadFailures(name, registry));
        streams.setStateListener((newState, oldState) -> {
            LOG.info("{} state {} -> {}", name, oldState, newState);
            if (newState == KafkaStreams.State.NOT_RUNNING || newState == KafkaStreams.State.ERROR) {
                terminated.countDown();
            }
        });
    }

    public void start() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException(name + " service is closed");
            }
            if (started) {
                throw new IllegalStateException(name + " service already started");
            }
            started = true;
            streams.start();
        }
    }

    /** Running or rebalancing. */
    public boolean isHealthy() {
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** True once the service stopped because a stream thread failed. */
    public boolean failed() {
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR;
    }

    /**
     * Waits until the service has stopped, by {@link #close()} or by failure.
     *
     * @return true if it stopped within the timeout
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Idempotent. */
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (!streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP))) {
            LOG.warn("{} service did not stop within {}", name, CLOSE_TIMEOUT);
        }
        terminated.countDown();
    }
}
