package io.github.kcrawler.common.service;

import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
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
 * <p>Failure policy: an exception that escapes a stream thread shuts the whole client down
 * ({@code SHUTDOWN_CLIENT}) and the service reports unhealthy. Input problems never get that far (the processors
 * count and skip them) and Streams already retries transient broker errors for {@code task.timeout.ms}, so what
 * remains is a bug or a broken local store; replacing the thread would re-run the same records into the same
 * failure in a loop, while a stopped, unhealthy service is visible ({@code /health} answers 503, the service's
 * main exits with status 1) and a supervisor restarts it from the last committed state.
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

    public StreamsRunner(String name, Topology topology, Properties properties) {
        this.name = name;
        this.streams = new KafkaStreams(topology, properties);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("{} stream thread failed; shutting the {} service down", name, name, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
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
