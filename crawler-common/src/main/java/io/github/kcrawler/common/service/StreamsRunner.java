package io.github.kcrawler.common.service;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle every Kafka Streams service of the crawler shares: start once, report health, stop by leaving the
 * group.
 *
 * <p>Failure policy: input problems never reach the stream thread (the processors count and skip them), a record
 * that still fails is a dead letter ({@link DeadLetters}: written to {@code crawl.deadletter}, the partition moves
 * on), and Streams retries transient broker errors for {@code task.timeout.ms}; an exception that still escapes a
 * stream thread ({@link StreamThreadFailures}) replaces the thread, a few times within a window (infrastructure failures the
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
    /** Kafka Streams and its clients' metrics (lag, process and commit rates) as kafka_* meters (issue 23). */
    private final io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics kafkaMetrics;
    private final StreamThreadFailures failures;
    private final DeadLetters deadLetters;
    private final int threads;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Object lock = new Object();
    private boolean started;
    private boolean closed;

    public StreamsRunner(String name, Topology topology, Properties properties, MeterRegistry registry) {
        this.name = name;
        Properties props = new Properties();
        props.putAll(properties);
        // properties from StreamsDefaults name the dead-letter topic; hand-made ones keep Streams' default handlers
        this.deadLetters = props.containsKey(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG)
                ? DeadLetters.install(props, topology, registry) : null;
        this.threads = Integer.parseInt(String.valueOf(props.getOrDefault(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1)));
        this.streams = new KafkaStreams(topology, props);
        this.kafkaMetrics = new io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics(streams,
                java.util.List.of(io.micrometer.core.instrument.Tag.of("service", name)));
        kafkaMetrics.bindTo(registry);
        this.failures = new StreamThreadFailures(name, registry);
        streams.setUncaughtExceptionHandler(failures);
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

    /** Running or rebalancing, and not given up by {@link StreamThreadFailures}. */
    public boolean isHealthy() {
        KafkaStreams.State state = streams.state();
        return !failures.shutDown()
                && (state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING);
    }

    /**
     * Healthy, not rebalancing, and every configured stream thread running: false while a failed thread is being
     * replaced (see {@link #settled(KafkaStreams, int, StreamThreadFailures)}).
     */
    public boolean settled() {
        return settled(streams, threads, failures);
    }

    /**
     * The rule for every Streams service: the client is RUNNING, the failure policy has not shut it down, and at
     * least {@code threads} local stream threads exist, all RUNNING — a replacement thread is created, starts and
     * joins the group before it runs, and the failed one is gone, so either the count or a state shows it.
     */
    public static boolean settled(KafkaStreams streams, int threads, StreamThreadFailures failures) {
        if (streams == null || failures.shutDown() || streams.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        Set<ThreadMetadata> local;
        try {
            local = streams.metadataForLocalThreads();
        } catch (RuntimeException e) { // the client stopped meanwhile
            return false;
        }
        int running = 0;
        for (ThreadMetadata t : local) {
            if (!"RUNNING".equals(t.threadState())) {
                return false;
            }
            running++;
        }
        return running >= threads;
    }

    /** The records this service sent to the dead-letter topic. */
    public Optional<DeadLetters> deadLetters() {
        return Optional.ofNullable(deadLetters);
    }

    /** Why the service is not healthy, or null while it is. */
    public String problem() {
        return problem(name, streams == null ? null : streams.state(), failures);
    }

    /** The words of {@link #problem()} for any Streams service. */
    public static String problem(String name, KafkaStreams.State state, StreamThreadFailures failures) {
        if (failures.shutDown()) {
            return name + " gave up: its stream threads kept failing (" + failures.describe() + "); see the log";
        }
        if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR) {
            return name + " stopped with an error (Kafka Streams state " + state + "); see the log";
        }
        if (state == KafkaStreams.State.NOT_RUNNING || state == KafkaStreams.State.PENDING_SHUTDOWN) {
            return name + " is not running (Kafka Streams state " + state + ")";
        }
        return null;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** True once the service stopped because a stream thread failed. */
    public boolean failed() {
        KafkaStreams.State state = streams.state();
        return failures.shutDown() || state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR;
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
        kafkaMetrics.close();
        terminated.countDown();
    }
}
