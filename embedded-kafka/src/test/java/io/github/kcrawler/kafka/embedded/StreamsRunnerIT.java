package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.service.StreamsRunner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The failure policy of every Streams service ({@code StreamThreadFailures} behind {@link StreamsRunner}) on a real
 * broker, exactly-once: a stream thread that fails is replaced and its records are processed again from the last
 * commit, none lost and none written twice; a thread that keeps failing shuts the service down after the bound.
 */
class StreamsRunnerIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aFailedThreadIsReplacedAndItsRecordsAreProcessedExactlyOnce() throws Exception {
        AtomicInteger failuresLeft = new AtomicInteger(1);
        withRunner(failuresLeft, (kafka, runner, registry) -> {
            kafka.produce("in", Map.of("a", "x", "b", "y", "c", "z"));

            assertThat(kafka.awaitRecords("out", 3, TIMEOUT)).extracting(TopicRecord::key, TopicRecord::value)
                    .containsExactlyInAnyOrder(tuple("a", "X"), tuple("b", "Y"), tuple("c", "Z"));
            assertThat(kafka.readAll("out", TIMEOUT)).as("committed output, nothing twice").hasSize(3);
            assertThat(failuresLeft.get()).as("the processor did fail once").isZero();
            assertThat(replaced(registry)).isEqualTo(1);
            assertThat(runner.failed()).isFalse();
            assertThat(runner.isHealthy()).isTrue();
        });
    }

    @Test
    void aThreadThatKeepsFailingShutsTheServiceDownAfterTheBound() throws Exception {
        int many = 1_000;
        AtomicInteger failuresLeft = new AtomicInteger(many);
        withRunner(failuresLeft, (kafka, runner, registry) -> {
            kafka.produce("in", "a", "x");

            assertThat(runner.awaitTermination(TIMEOUT)).as("stopped within %s", TIMEOUT).isTrue();
            assertThat(runner.failed()).isTrue();
            assertThat(runner.isHealthy()).isFalse();
            assertThat(replaced(registry)).isEqualTo(3);
            assertThat(many - failuresLeft.get()).as("attempts: the first and three replacements").isEqualTo(4);
            assertThat(kafka.readAll("out", TIMEOUT)).isEmpty();
        });
    }

    /** What a test does with a started runner on a fresh broker with topics {@code in} and {@code out}. */
    private interface RunnerCheck {
        void check(KafkaTestCluster kafka, StreamsRunner runner, SimpleMeterRegistry registry) throws Exception;
    }

    private static void withRunner(AtomicInteger failuresLeft, RunnerCheck check) throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary(BROKER)) {
            kafka.createTopics(1, "in", "out");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            StreamsRunner runner = new StreamsRunner("upper", topology(failuresLeft), properties(kafka, "upper"),
                    registry);
            try {
                runner.start();
                check.check(kafka, runner, registry);
            } finally {
                runner.close();
            }
        }
    }

    private static double replaced(SimpleMeterRegistry registry) {
        return registry.get(MetricNames.STREAMS_THREADS_REPLACED).tag("service", "upper").counter().count();
    }

    /** in → upper-case the value, failing while {@code failuresLeft} is positive → out. */
    static Topology topology(AtomicInteger failuresLeft) {
        Topology t = new Topology();
        t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), "in");
        t.addProcessor("upper", () -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;

            @Override
            public void init(ProcessorContext<String, String> c) {
                context = c;
            }

            @Override
            public void process(Record<String, String> r) {
                if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new IllegalStateException("injected failure processing " + r.key());
                }
                context.forward(r.withValue(r.value().toUpperCase(java.util.Locale.ROOT)));
            }
        }, "in");
        t.addSink("out", "out", Serdes.String().serializer(), Serdes.String().serializer(), "upper");
        return t;
    }

    /** A broker that accepts the short session timeout of {@link #properties}. */
    static final Map<String, String> BROKER = Map.of("group.min.session.timeout.ms", "1000");

    static Properties properties(KafkaTestCluster kafka, String applicationId) {
        Properties p = new Properties();
        p.putAll(kafka.broker().clientConfig());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, kafka.dataDir().resolve("streams").toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // a replaced thread's consumer does not leave the group: its partitions move after the session timeout,
        // so each replacement waits one session (the broker's default minimum, 6 s, is lowered by BROKER)
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 2_000);
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 500);
        return p;
    }
}
