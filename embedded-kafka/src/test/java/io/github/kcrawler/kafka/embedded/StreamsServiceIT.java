package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.service.StreamsService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The shell every Streams service runs in ({@link StreamsService}) on a real broker: started once, healthy and
 * settled while it runs, stopped by {@code close}, and the exit status of its {@code main}: 0 after a normal stop, 1
 * once its stream threads kept failing.
 */
class StreamsServiceIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** in → upper-case the value (or always fail) → out. */
    private static final class Upper extends StreamsService {
        private final KafkaTestCluster kafka;
        private final String id;
        private final boolean failing;

        Upper(KafkaTestCluster kafka, String id, boolean failing, PrometheusMeterRegistry registry) {
            super(id, registry);
            this.kafka = kafka;
            this.id = id;
            this.failing = failing;
        }

        @Override
        public Topology topology() {
            Topology t = new Topology();
            t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), id + ".in");
            t.addProcessor("upper", () -> new Processor<String, String, String, String>() {
                private ProcessorContext<String, String> context;

                @Override
                public void init(ProcessorContext<String, String> c) {
                    context = c;
                }

                @Override
                public void process(Record<String, String> r) {
                    if (failing) {
                        throw new IllegalStateException("injected failure processing " + r.key());
                    }
                    context.forward(r.withValue(r.value().toUpperCase(java.util.Locale.ROOT)));
                }
            }, "in");
            t.addSink("out", id + ".out", Serdes.String().serializer(), Serdes.String().serializer(), "upper");
            return t;
        }

        @Override
        public Properties streamsProperties() {
            Properties p = new Properties();
            p.putAll(kafka.broker().clientConfig());
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, id);
            p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
            p.put(StreamsConfig.STATE_DIR_CONFIG, kafka.dataDir().resolve("streams-" + id).toString());
            p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
            p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 6_000);
            p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1_500);
            return p;
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
        ExecutorService main = Executors.newSingleThreadExecutor();
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary()) {
            kafka.createTopics(1, "ok.in", "ok.out");
            PrometheusMeterRegistry registry = MetricsServer.newRegistry();
            Upper service = new Upper(kafka, "ok", false, registry);
            Future<Integer> status = main.submit(() -> StreamsService.runMain(service, registry, "127.0.0.1", 0));
            await(service::settled, "the service to settle");
            assertThat(service.isHealthy()).isTrue();
            assertThat(service.problem()).isNull();
            assertThatThrownBy(service::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already started");

            kafka.produce("ok.in", "a", "x");
            assertThat(kafka.awaitRecords("ok.out", 1, TIMEOUT)).extracting(TopicRecord::key, TopicRecord::value)
                    .containsExactly(tuple("a", "X"));

            service.close();
            assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exit status").isZero();
            assertThat(service.failed()).isFalse();
            assertThat(service.isHealthy()).isFalse();
            assertThat(service.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
            assertThat(service.problem()).contains("is not running");
        } finally {
            main.shutdownNow();
        }
    }

    @Test
    void aServiceWhoseThreadsKeepFailing_stops_andItsMainReturnsOne() throws Exception {
        ExecutorService main = Executors.newSingleThreadExecutor();
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary()) {
            kafka.createTopics(1, "bad.in", "bad.out");
            PrometheusMeterRegistry registry = MetricsServer.newRegistry();
            Upper service = new Upper(kafka, "bad", true, registry);
            Future<Integer> status = main.submit(() -> StreamsService.runMain(service, registry, "127.0.0.1", 0));
            await(service::isHealthy, "the service to start");
            kafka.produce("bad.in", "a", "x");

            assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exit status").isEqualTo(1);
            assertThat(service.failed()).isTrue();
            assertThat(service.isHealthy()).isFalse();
            assertThat(service.problem()).contains("bad gave up");
            service.close();
        } finally {
            main.shutdownNow();
        }
    }
}
