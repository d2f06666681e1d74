package io.github.kcrawler.common.service;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamThreadFailuresTest {
    private static final StreamThreadExceptionResponse REPLACE_THREAD = StreamThreadExceptionResponse.REPLACE_THREAD;
    private static final StreamThreadExceptionResponse SHUTDOWN_CLIENT = StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    private static final long MINUTE = Duration.ofMinutes(1).toNanos();
    private final AtomicLong now = new AtomicLong(1_000 * MINUTE);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StreamThreadFailures failures = new StreamThreadFailures("dedup", 3, Duration.ofMinutes(10),
            now::get, registry);

    @Test
    void replacesTheThreadUpToTheBoundThenShutsTheClientDown() {
        RuntimeException e = new IllegalStateException("boom");
        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        now.addAndGet(MINUTE);
        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        now.addAndGet(MINUTE);
        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        assertThat(failures.shutDown()).isFalse();
        now.addAndGet(MINUTE);

        assertThat(failures.handle(e)).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(failures.shutDown()).isTrue();
        assertThat(registry.get(MetricNames.STREAMS_THREADS_REPLACED).tag("service", "dedup").counter().count())
                .isEqualTo(3);
    }

    @Test
    void failuresOlderThanTheWindowNoLongerCount() {
        RuntimeException e = new IllegalStateException("boom");
        for (int i = 0; i < 3; i++) {
            assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        }
        now.addAndGet(10 * MINUTE); // the three are ten minutes old: out of the window

        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        assertThat(failures.handle(e)).isEqualTo(REPLACE_THREAD);
        assertThat(failures.handle(e)).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void failuresJustInsideTheWindowStillCount() {
        for (int i = 0; i < 3; i++) {
            assertThat(failures.handle(new IllegalStateException())).isEqualTo(REPLACE_THREAD);
        }
        now.addAndGet(10 * MINUTE - 1);

        assertThat(failures.handle(new IllegalStateException())).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void onceShutDownItStaysDownEvenAfterTheWindow() {
        StreamThreadFailures none = new StreamThreadFailures("ranker", 0, Duration.ofMinutes(10), now::get, registry);
        assertThat(none.handle(new RuntimeException())).isEqualTo(SHUTDOWN_CLIENT);
        now.addAndGet(60 * MINUTE);

        assertThat(none.handle(new RuntimeException())).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void anErrorNoNewThreadCanFixShutsTheClientDownAtOnce() {
        Throwable wrongPassword = new org.apache.kafka.streams.errors.StreamsException(
                new org.apache.kafka.common.errors.SaslAuthenticationException("Authentication failed"));
        Throwable noAcl = new org.apache.kafka.common.KafkaException(
                new org.apache.kafka.common.errors.TopicAuthorizationException("not authorized"));

        assertThat(failures.handle(wrongPassword)).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(new StreamThreadFailures("ranker", 3, Duration.ofMinutes(10), now::get, registry).handle(noAcl))
                .isEqualTo(SHUTDOWN_CLIENT);
        assertThat(StreamThreadFailures.permanentCause(new IllegalStateException(new RuntimeException()))).isNull();
        assertThat(registry.get(MetricNames.STREAMS_THREADS_REPLACED).tag("service", "dedup").counter().count())
                .isZero();
    }

    @Test
    void badParametersAreRefusedByName() {
        assertThatThrownBy(() -> new StreamThreadFailures("s", -1, Duration.ofMinutes(1), now::get, registry))
                .hasMessageContaining("maxReplacements must be >= 0, was -1");
        assertThatThrownBy(() -> new StreamThreadFailures("s", 1, Duration.ZERO, now::get, registry))
                .hasMessageContaining("window must be positive, was PT0S");
    }
}
