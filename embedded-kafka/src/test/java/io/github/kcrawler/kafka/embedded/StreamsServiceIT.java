package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The shell every Streams service runs in ({@link StreamsService}) on a real broker: started once, healthy and
 * settled while it runs, stopped by {@code close}, and the exit status of its {@code main}: 0 after a normal stop, 1
 * once its stream threads kept failing. The topology and settings are {@link StreamsRunnerIT}'s.
 */
class StreamsServiceIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** {@code in} → upper-case the value, failing the first {@code failures} times → {@code out}. */
    private static final class Upper extends StreamsService {
        private final KafkaTestCluster kafka;
        private final AtomicInteger failuresLeft;

        Upper(KafkaTestCluster kafka, int failures, PrometheusMeterRegistry registry) {
            super("upper", registry);
            this.kafka = kafka;
            this.failuresLeft = new AtomicInteger(failures);
        }

        @Override
        public Topology topology() {
            return StreamsRunnerIT.topology(failuresLeft);
        }

        @Override
        public Properties streamsProperties() {
            return StreamsRunnerIT.properties(kafka, "upper");
        }
    }

    /** What a test does while {@link StreamsService#runMain} runs the service on another thread. */
    private interface MainCheck {
        void check(KafkaTestCluster kafka, Upper service, Future<Integer> status) throws Exception;
    }

    private static void withMain(int failures, MainCheck check) throws Exception {
        ExecutorService main = Executors.newSingleThreadExecutor();
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary(StreamsRunnerIT.BROKER)) {
            kafka.createTopics(1, "in", "out");
            PrometheusMeterRegistry registry = MetricsServer.newRegistry();
            Upper service = new Upper(kafka, failures, registry);
            try {
                check.check(kafka, service,
                        main.submit(() -> StreamsService.runMain(service, registry, "127.0.0.1", 0)));
            } finally {
                service.close();
            }
        } finally {
            main.shutdownNow();
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @Test
    void aServiceRunsUntilClosed_thenItsMainReturnsZero() throws Exception {
        withMain(0, (kafka, service, status) -> {
            await(service::settled, "the service to settle");
            assertThat(service.isHealthy()).isTrue();
            assertThat(service.problem()).isNull();
            assertThatThrownBy(service::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already started");

            kafka.produce("in", "a", "x");
            assertThat(kafka.awaitRecords("out", 1, TIMEOUT)).extracting(TopicRecord::key, TopicRecord::value)
                    .containsExactly(tuple("a", "X"));

            service.close();
            assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exit status").isZero();
            assertThat(service.failed()).isFalse();
            assertThat(service.isHealthy()).isFalse();
            assertThat(service.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
            assertThat(service.problem()).contains("is not running");
        });
    }

    @Test
    void aServiceWhoseThreadsKeepFailing_stops_andItsMainReturnsOne() throws Exception {
        withMain(1_000, (kafka, service, status) -> {
            await(service::isHealthy, "the service to start");
            kafka.produce("in", "a", "x");

            assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exit status").isEqualTo(1);
            assertThat(service.failed()).isTrue();
            assertThat(service.isHealthy()).isFalse();
            assertThat(service.problem()).contains("upper gave up");
        });
    }
}
