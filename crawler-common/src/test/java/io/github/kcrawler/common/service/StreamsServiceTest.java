package io.github.kcrawler.common.service;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

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
}
