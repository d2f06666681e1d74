package io.github.kcrawler.common.service;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shell's semantics that need no broker: what a service says before it starts, closing before starting, and
 * refusing to start (its running life is in embedded-kafka's {@code StreamsServiceIT}).
 */
class StreamsServiceTest {
    /** A service over a one-node topology whose {@code beforeStart} check fails while {@code refuse} is set. */
    private static final class Probe extends StreamsService {
        final AtomicInteger topologies = new AtomicInteger();
        volatile boolean refuse;
        /** When set, the check waits (up to a minute, as a check waiting for an absent broker) until interrupted. */
        volatile boolean waitForBroker;
        /** When set with {@code waitForBroker}, an interrupted check returns normally instead of throwing. */
        volatile boolean swallowInterrupt;
        final CountDownLatch checking = new CountDownLatch(1);

        Probe() {
            super("probe", new SimpleMeterRegistry());
        }

        @Override
        public Topology topology() {
            topologies.incrementAndGet();
            Topology t = new Topology();
            t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), "in");
            return t;
        }

        @Override
        public Properties streamsProperties() {
            Properties p = new Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "probe");
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
            return p;
        }

        @Override
        protected void beforeStart() {
            if (waitForBroker) {
                checking.countDown();
                try {
                    new CountDownLatch(1).await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    if (!swallowInterrupt) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while checking partition counts", e);
                    }
                }
            }
            if (refuse) {
                throw new IllegalStateException("topics have 3 partitions");
            }
        }
    }

    @Test
    void beforeStart_nothingOfKafkaIsBuilt_andTheServiceIsNeitherHealthyNorFailed() {
        Probe p = new Probe();
        assertThat(p.name()).isEqualTo("probe");
        assertThat(p.topologies).as("a test may build a service only for its topology").hasValue(0);
        assertThat(p.isHealthy()).isFalse();
        assertThat(p.settled()).isFalse();
        assertThat(p.problem()).isNull();
        assertThat(p.failed()).isFalse();
        assertThat(p.deadLetters()).isEmpty();
        assertThat(p.state()).isEqualTo(KafkaStreams.State.CREATED);
    }

    @Test
    void closedBeforeStart_hasStopped_andCannotStart() throws Exception {
        Probe p = new Probe();
        p.close();
        p.close(); // idempotent
        assertThat(p.awaitTermination(Duration.ZERO)).isTrue();
        assertThatThrownBy(p::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(p.topologies).hasValue(0);
        assertThat(p.failed()).isFalse();
    }

    @Test
    void notStarted_hasNotStopped_untilClosedMeanwhile() throws Exception {
        Probe p = new Probe();
        assertThat(p.awaitTermination(Duration.ofMillis(50))).isFalse();
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            p.close();
        });
        closer.start();
        assertThat(p.awaitTermination(Duration.ofSeconds(30))).isTrue();
        closer.join();
    }

    @Test
    void aFailedCheck_refusesToStart_andBuildsNothing() {
        Probe p = new Probe();
        p.refuse = true;
        assertThatThrownBy(p::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("3 partitions");
        assertThat(p.topologies).hasValue(0);
        assertThat(p.state()).isEqualTo(KafkaStreams.State.CREATED);
        p.close();
    }

    /** SIGTERM during a check that waits for the broker: close() neither waits for the check nor lets it start. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void closeWhileTheChecksWait_stopsPromptly_andStartsNothing(boolean swallowInterrupt) throws Exception {
        Probe p = new Probe();
        p.waitForBroker = true;
        p.swallowInterrupt = swallowInterrupt;
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptLeft = new AtomicBoolean();
        Thread main = new Thread(() -> {
            try {
                p.start();
                interruptLeft.set(Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        main.start();
        assertThat(p.checking.await(10, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        p.close();
        main.join(10_000);
        assertThat(main.isAlive()).as("start() still in its checks after close()").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(thrown.get()).as("start() closed meanwhile returns quietly").isNull();
        assertThat(interruptLeft.get()).as("close()'s interrupt is not left on the starting thread").isFalse();
        assertThat(p.topologies).as("nothing of Kafka's built").hasValue(0);
        assertThat(p.state()).isEqualTo(KafkaStreams.State.CREATED);
        assertThat(p.awaitTermination(Duration.ZERO)).isTrue();
        assertThat(p.failed()).isFalse();
    }
}
