package io.github.kcrawler.common.service;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * What a crawler Streams service does when an exception escapes one of its stream threads: it replaces the thread
 * ({@code REPLACE_THREAD}) up to {@code maxReplacements} times within a sliding {@code window}, and the next failure
 * inside that window shuts the client down ({@code SHUTDOWN_CLIENT}: the service reports unhealthy and its main
 * exits with status 1, for a supervisor to restart it).
 *
 * <p>Why replace at all: Streams retries what the clients call retriable for {@code task.timeout.ms}, but some
 * failures of the infrastructure reach the thread as fatal although a fresh thread recovers from them — a
 * transaction the broker aborted while the thread was stalled (KAFKA-19690), a producer left in a fatal state by a
 * broker restart. A new thread has a new consumer and a new transactional producer; under exactly-once its tasks
 * are closed dirty and their state is restored from the changelogs, so nothing is lost or applied twice. A laptop
 * crawl (every service in one JVM, no supervisor) would otherwise stop for good. Why a bound: a failure that is a
 * bug comes back with the same records, and replacing the thread forever would hide it in a loop; after the bound
 * the service stops visibly, as before. An error no new thread can fix (authentication, authorization, a broker too
 * old for a request, a bad setting; see {@link #permanentCause}) stops the service at once.
 *
 * <p>Thread-safe (stream threads may fail concurrently). Every replacement is counted under
 * {@link MetricNames#STREAMS_THREADS_REPLACED}, tagged with the service.
 */
public final class StreamThreadFailures implements StreamsUncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StreamThreadFailures.class);
    /** Replacements allowed within {@link #WINDOW} before the service shuts down. */
    public static final int MAX_REPLACEMENTS = 3;
    public static final Duration WINDOW = Duration.ofMinutes(10);

    private final String service;
    private final int maxReplacements;
    private final long windowNanos;
    private final LongSupplier nanoClock;
    private final Counter replaced;
    /** Times (nanoClock) of the replacements within the window, oldest first. */
    private final ArrayDeque<Long> recent = new ArrayDeque<>();
    private volatile boolean shutDown;
    /** The failure that shut the client down, for {@link #describe()}. */
    private volatile Throwable last;

    /** The production policy: {@link #MAX_REPLACEMENTS} within {@link #WINDOW}, on the system's monotonic clock. */
    public StreamThreadFailures(String service, MeterRegistry registry) {
        this(service, MAX_REPLACEMENTS, WINDOW, System::nanoTime, registry);
    }

    public StreamThreadFailures(String service, int maxReplacements, Duration window, LongSupplier nanoClock,
                                MeterRegistry registry) {
        if (maxReplacements < 0) {
            throw new IllegalArgumentException("maxReplacements must be >= 0, was " + maxReplacements);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, was " + window);
        }
        this.service = service;
        this.maxReplacements = maxReplacements;
        this.windowNanos = window.toNanos();
        this.nanoClock = nanoClock;
        this.replaced = Counter.builder(MetricNames.STREAMS_THREADS_REPLACED).tag("service", service)
                .description("stream threads replaced after an exception escaped them").register(registry);
    }

    @Override
    public StreamThreadExceptionResponse handle(Throwable exception) {
        last = exception;
        Throwable permanent = permanentCause(exception);
        if (permanent != null) {
            shutDown = true;
            LOG.error("{} stream thread failed with an error no new thread can fix ({}); shutting the {} service down",
                    service, permanent.getClass().getSimpleName(), service, exception);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        long now = nanoClock.getAsLong();
        int within;
        synchronized (recent) {
            while (!recent.isEmpty() && now - recent.peekFirst() >= windowNanos) {
                recent.pollFirst();
            }
            within = recent.size();
            if (within < maxReplacements && !shutDown) {
                recent.addLast(now);
            }
        }
        if (within < maxReplacements && !shutDown) {
            replaced.increment();
            LOG.error("{} stream thread failed; replacing it ({} of {} replacements allowed within {} min): its tasks"
                    + " restart from their last commit", service, within + 1, maxReplacements,
                    Duration.ofNanos(windowNanos).toMinutes(), exception);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        shutDown = true;
        LOG.error("{} stream thread failed again after {} replacements within {} min; shutting the {} service down",
                service, within, Duration.ofNanos(windowNanos).toMinutes(), service, exception);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /**
     * The cause in {@code e}'s chain that a new thread would only meet again — wrong credentials, missing ACLs, a
     * broker too old for a request, a bad setting — or null.
     */
    static Throwable permanentCause(Throwable e) {
        int depth = 0;
        for (Throwable t = e; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof AuthenticationException || t instanceof AuthorizationException
                    || t instanceof UnsupportedVersionException || t instanceof InvalidConfigurationException
                    || t instanceof ConfigException) {
                return t;
            }
        }
        return null;
    }

    /** The last failure in a few words ({@code none} if there was none), for the crawl's exit message. */
    public String describe() {
        Throwable t = last;
        if (t == null) {
            return "none";
        }
        Throwable root = t;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 32; depth++) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : ": " + DeadLetters.bound(root.getMessage(), 300);
        return root.getClass().getSimpleName() + message;
    }

    /** True once a failure shut the client down. */
    public boolean shutDown() {
        return shutDown;
    }
}
