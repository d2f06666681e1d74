package io.github.kcrawler.common.service;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * The shell every Kafka Streams service of the crawler (dedup, scheduler, ranker) runs in: one start, stop, health,
 * failure and exit semantics, so a service only says what it runs ({@link #topology()}, {@link #streamsProperties()})
 * and what it checks before it starts ({@link #beforeStart()}).
 *
 * <p>Lifecycle. Building a service builds nothing of Kafka's: the topology and the Streams client
 * ({@link StreamsRunner}, which owns the uncaught-exception and dead-letter policy) are made by {@link #start()}, so
 * a test may build a service only to run its {@link #topology()} under {@code TopologyTestDriver}. {@code start()}
 * runs once: a second call, or a call after {@link #close()}, throws {@link IllegalStateException}. Before
 * {@code start()} the service is neither healthy nor settled, has no problem and its state is {@code CREATED}.
 * {@code close()} is idempotent, may come before {@code start()}, and leaves the consumer group. A {@code close()}
 * while {@code start()} is still in its checks interrupts them and does not wait for them (a check waiting for an
 * absent broker would otherwise hold a SIGTERM for as long as its own timeout): that {@code start()} then returns
 * without starting anything, and the service has stopped.
 *
 * <p>Exit. {@link #runMain} is the {@code main} of every service: metrics and {@code /health} on the configured
 * address, a shutdown hook that closes both, and the main thread kept until the service stops; it returns exit
 * status 1 when the service stopped because it failed (a supervisor restarts it from the last committed state) and
 * 0 after a normal stop.
 */
public abstract class StreamsService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsService.class);

    private final String name;
    private final MeterRegistry registry;
    private final Object lock = new Object();
    /** Made by {@link #start()}; null before it. */
    private volatile StreamsRunner runner;
    private volatile boolean closed;
    /** The thread in {@link #beforeStart()}, interrupted by {@link #close()}; guarded by {@code lock}. */
    private Thread starting;

    /**
     * @param name     the application id before the topic prefix; the name in logs, metrics and problems
     * @param registry where the service's meters and Kafka Streams' own go
     */
    protected StreamsService(String name, MeterRegistry registry) {
        this.name = Objects.requireNonNull(name, "name");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** A fresh Streams topology of this service (also for {@code TopologyTestDriver}). */
    public abstract Topology topology();

    /** The Streams properties this service runs with. */
    public abstract Properties streamsProperties();

    /** Checks made before the client starts (e.g. the topics' partition count); throws to refuse to start. */
    protected void beforeStart() {
    }

    /** The settings worth one log line once started. */
    protected String describe() {
        return "";
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void start() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException(name + " service is closed; build a new one");
            }
            if (runner != null || starting != null) {
                throw new IllegalStateException(name + " service already started");
            }
            starting = Thread.currentThread();
        }
        // said before the checks: one that waits for a broker (the ranker's partition count) would otherwise
        // leave the service silent until it times out (JsonLogsIT waited 30 s for a line of the ranker's own)
        LOG.info("{} service starting", name);
        try {
            beforeStart();
        } catch (RuntimeException e) {
            if (stoppedWhileStarting()) {
                return;
            }
            throw e;
        }
        synchronized (lock) {
            if (stoppedWhileStarting()) {
                return;
            }
            StreamsRunner r = new StreamsRunner(name, topology(), streamsProperties(), registry);
            runner = r;
            r.start();
        }
        LOG.info("{} service started: {}", name, describe());
    }

    /** Ends the checks' turn; true (and the interrupt that {@link #close()} sent cleared) if closed meanwhile. */
    private boolean stoppedWhileStarting() {
        synchronized (lock) {
            starting = null;
            if (!closed) {
                return false;
            }
        }
        Thread.interrupted(); // close() interrupted the checks; the caller goes on to wait for the stop
        LOG.info("{} service closed while starting; nothing started", name);
        return true;
    }

    @Override
    public final boolean isHealthy() {
        StreamsRunner r = runner;
        return r != null && r.isHealthy();
    }

    @Override
    public final boolean settled() {
        StreamsRunner r = runner;
        return r != null && r.settled();
    }

    @Override
    public final String problem() {
        StreamsRunner r = runner;
        return r == null ? null : r.problem();
    }

    @Override
    public final Optional<DeadLetters> deadLetters() {
        StreamsRunner r = runner;
        return r == null ? Optional.empty() : r.deadLetters();
    }

    /** Kafka Streams' state; {@code CREATED} before {@link #start()}. */
    public final KafkaStreams.State state() {
        StreamsRunner r = runner;
        return r == null ? KafkaStreams.State.CREATED : r.state();
    }

    /** True once the service stopped because a stream thread failed. */
    public final boolean failed() {
        StreamsRunner r = runner;
        return r != null && r.failed();
    }

    /**
     * Waits until the service has stopped, by {@link #close()} or by failure; a service closed before it started
     * has stopped.
     *
     * @return true if it stopped within the timeout
     */
    public final boolean awaitTermination(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        StreamsRunner r = runner;
        while (r == null) {
            if (closed) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            Thread.sleep(Math.min(100, Math.max(1, left / 1_000_000)));
            r = runner;
        }
        return r.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /** Stops by leaving the group; idempotent, also before {@link #start()}. */
    @Override
    public final void close() {
        StreamsRunner r;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            r = runner;
            if (starting != null) {
                starting.interrupt();
            }
        }
        if (r != null) {
            r.close();
        }
    }

    /**
     * The {@code main} of a Streams service once its settings are parsed: serves {@code /metrics} and
     * {@code /health} on {@code host:port}, closes the service and the endpoint on SIGTERM, starts the service and
     * keeps the calling thread until it stops.
     *
     * @return the exit status: 1 if the service stopped because it failed, 0 after a normal stop
     */
    public static int runMain(StreamsService service, PrometheusMeterRegistry registry, String host, int port)
            throws IOException, InterruptedException {
        MetricsServer metrics = MetricsServer.start(registry, host, port, service::isHealthy);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            metrics.close();
        }, service.name() + "-shutdown"));
        service.start();
        while (!service.awaitTermination(Duration.ofMinutes(1))) {
            // keep the main thread until the service stops
        }
        return service.failed() ? 1 : 0;
    }
}
