package io.github.kcrawler.ranker;

import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The ranker service: runs {@link RankerTopology} as Kafka Streams application {@code <topic-prefix>ranker} with
 * exactly-once v2, so each link list's deltas, each score change and each published score are committed exactly
 * once with the input that caused them (a source page fetched twice is still counted twice, see
 * {@code BacklinkCounter}).
 *
 * <p>Failure policy: an exception that escapes a stream thread shuts the whole client down
 * ({@code SHUTDOWN_CLIENT}) and the service reports unhealthy. Input problems never get that far (the processors
 * count and skip them) and Streams already retries transient broker errors for {@code task.timeout.ms}, so what
 * remains is a bug or a broken local store; replacing the thread would re-run the same records into the same
 * failure in a loop, while a stopped, unhealthy service is visible ({@code /health} answers 503, {@code RankerMain}
 * exits with status 1) and a supervisor restarts it from the last committed state.
 */
public final class RankerService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(RankerService.class);
    /** Application id before the topic prefix. */
    public static final String APPLICATION_ID = "ranker";
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final RankerConfig config;
    private final KafkaStreams streams;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Object lock = new Object();
    private boolean started;
    private boolean closed;

    public RankerService(RankerConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        Topology topology = RankerTopology.build(config.kafka().topics(), config, registry);
        this.streams = new KafkaStreams(topology, StreamsDefaults.properties(config.kafka(), APPLICATION_ID,
                config.threads(), config.commitMs()));
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("ranker stream thread failed; shutting the ranker service down", e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((newState, oldState) -> {
            LOG.info("ranker state {} -> {}", oldState, newState);
            if (newState == KafkaStreams.State.NOT_RUNNING || newState == KafkaStreams.State.ERROR) {
                terminated.countDown();
            }
        });
    }

    /** The full application id: topic prefix + {@value #APPLICATION_ID}. */
    public static String applicationId(RankerConfig config) {
        return config.kafka().topicPrefix() + APPLICATION_ID;
    }

    /** Internal (changelog) topics this service uses, for tools that create every topic up front. */
    public static List<String> internalTopics(RankerConfig config) {
        return RankerTopology.internalTopics(applicationId(config), config);
    }

    @Override
    public String name() {
        return APPLICATION_ID;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("ranker service is closed");
            }
            if (started) {
                throw new IllegalStateException("ranker service already started");
            }
            started = true;
            streams.start();
        }
        LOG.info("ranker service started: application.id={}, threads={}, commit-ms={}, flush-ms={}",
                applicationId(config), config.threads(), config.commitMs(), config.flushMs());
    }

    @Override
    public boolean isHealthy() {
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * Waits until the service has stopped, by {@link #close()} or by failure.
     *
     * @return true if it stopped within the timeout
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** True once the service stopped because a stream thread failed. */
    public boolean failed() {
        return streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.PENDING_ERROR;
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // Leave the group: the partitions are reassigned at once instead of after the session timeout (45 s), which
        // is what a restart or a scale-down wants; a rolling restart pays one extra, short rebalance for it.
        if (!streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP))) {
            LOG.warn("ranker service did not stop within {}", CLOSE_TIMEOUT);
        }
        terminated.countDown();
    }
}
