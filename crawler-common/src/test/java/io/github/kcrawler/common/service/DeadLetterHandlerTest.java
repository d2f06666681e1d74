package io.github.kcrawler.common.service;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DeadLetterHandler} on a real Streams task ({@code TopologyTestDriver}) with {@link StreamsDefaults}: a
 * record whose processing throws is written to the dead-letter topic with its reason and the partition moves on; a
 * failure of the infrastructure is not dead-lettered but escapes to the thread's failure policy; a punctuator that
 * throws is dead-lettered too.
 */
class DeadLetterHandlerTest {
    private static final String IN = "p.crawl.urls.discovered";
    private static final String OUT = "p.out";
    private TopologyTestDriver driver;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    /** Forwards every value; throws on values starting with "poison", a Kafka timeout on "timeout". */
    static final class Picky implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK_TIME, t -> {
                throw new IllegalStateException("punctuator broke at " + t);
            });
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value().startsWith("poison")) {
                throw new IllegalArgumentException("cannot handle " + record.value());
            }
            if (record.value().startsWith("timeout")) {
                throw new TimeoutException("broker did not answer");
            }
            context.forward(record);
        }
    }

    private DeadLetters open() throws Exception {
        Topology topology = new Topology();
        topology.addSource("in", new StringDeserializer(), new StringDeserializer(), IN);
        topology.addProcessor("picky", Picky::new, "in");
        topology.addSink("out", OUT, new StringSerializer(), new StringSerializer(), "picky");
        Path state = Files.createTempDirectory("dlq-test");
        Properties props = StreamsDefaults.properties(new KafkaSettings("127.0.0.1:1", "p.", 1, state, Map.of()),
                "svc", 1, 100);
        DeadLetters letters = DeadLetters.install(props, topology, registry);
        driver = new TopologyTestDriver(topology, props);
        return letters;
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldDeadLetterAFailingRecordAndMoveOn() throws Exception {
        DeadLetters letters = open();
        TestInputTopic<String, String> in = driver.createInputTopic(IN, new StringSerializer(), new StringSerializer());
        TestOutputTopic<String, String> out = driver.createOutputTopic(OUT, new StringDeserializer(),
                new StringDeserializer());
        TestOutputTopic<String, byte[]> dlq = driver.createOutputTopic("p.crawl.deadletter", new StringDeserializer(),
                new ByteArrayDeserializer());
        in.pipeInput("10.0.0.1", "a");
        in.pipeInput("10.0.0.2", "poison pill");
        in.pipeInput("10.0.0.3", "b");

        assertThat(out.readValuesToList()).containsExactly("a", "b");
        List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        TestRecord<String, byte[]> d = dead.get(0);
        assertThat(d.key()).isEqualTo("10.0.0.2");
        assertThat(new String(d.value(), StandardCharsets.UTF_8)).isEqualTo("poison pill");
        assertThat(header(d, DeadLetters.HEADER_TOPIC)).isEqualTo(IN);
        assertThat(header(d, DeadLetters.HEADER_PARTITION)).isEqualTo("0");
        assertThat(header(d, DeadLetters.HEADER_OFFSET)).isEqualTo("1");
        assertThat(header(d, DeadLetters.HEADER_SERVICE)).isEqualTo("p.svc");
        assertThat(header(d, DeadLetters.HEADER_EXCEPTION)).isEqualTo(IllegalArgumentException.class.getName());
        assertThat(header(d, DeadLetters.HEADER_MESSAGE)).isEqualTo("cannot handle poison pill");
        assertThat(letters.count()).isEqualTo(1);
        assertThat(letters.recent()).containsExactly(new DeadLetters.Letter("p.svc", IN, 0, 1,
                IllegalArgumentException.class.getName(), "cannot handle poison pill"));
        assertThat(registry.get(MetricNames.DEADLETTER_RECORDS).tag("service", "p.svc").tag("topic", IN)
                .counter().count()).isEqualTo(1.0);
    }

    @Test
    void shouldRegisterTheCounterOfEverySourceTopicUpFront() throws Exception {
        open();
        assertThat(registry.get(MetricNames.DEADLETTER_RECORDS).tag("service", "p.svc").tag("topic", IN)
                .counter().count()).isZero();
        assertThat(registry.get(MetricNames.DEADLETTER_RECORDS).tag("service", "p.svc")
                .tag("topic", DeadLetters.PUNCTUATION).counter().count()).isZero();
    }

    @Test
    void shouldLetAnInfrastructureFailureReachTheThreadPolicy() throws Exception {
        DeadLetters letters = open();
        TestInputTopic<String, String> in = driver.createInputTopic(IN, new StringSerializer(), new StringSerializer());
        assertThatThrownBy(() -> in.pipeInput("10.0.0.1", "timeout")).hasRootCauseInstanceOf(TimeoutException.class);
        assertThat(letters.count()).isZero();
    }

    @Test
    void shouldDeadLetterAFailingPunctuator() throws Exception {
        DeadLetters letters = open();
        TestOutputTopic<String, byte[]> dlq = driver.createOutputTopic("p.crawl.deadletter", new StringDeserializer(),
                new ByteArrayDeserializer());
        driver.advanceWallClockTime(Duration.ofSeconds(2));
        List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
        assertThat(dead).isNotEmpty();
        assertThat(header(dead.get(0), DeadLetters.HEADER_EXCEPTION)).isEqualTo(IllegalStateException.class.getName());
        assertThat(letters.recent().get(0).topic()).isEqualTo(DeadLetters.PUNCTUATION);
    }

    @Test
    void shouldBoundWhatALetterCarries() {
        DeadLetters letters = new DeadLetters("s", "dlq", registry, List.of());
        byte[] huge = new byte[DeadLetters.MAX_VALUE_BYTES + 10];
        var r = letters.letter(null, null, huge, new IllegalStateException("x".repeat(100_000)));
        assertThat(r.value()).hasSize(DeadLetters.MAX_VALUE_BYTES);
        assertThat(new String(r.headers().lastHeader(DeadLetters.HEADER_VALUE_TRUNCATED).value(),
                StandardCharsets.UTF_8)).isEqualTo(Integer.toString(huge.length));
        assertThat(r.headers().lastHeader(DeadLetters.HEADER_MESSAGE).value().length)
                .isLessThanOrEqualTo(DeadLetters.MAX_MESSAGE_CHARS + 3);
        assertThat(r.headers().lastHeader(DeadLetters.HEADER_STACKTRACE).value().length)
                .isLessThanOrEqualTo(DeadLetters.MAX_STACKTRACE_CHARS + 3);
    }

    @Test
    void shouldClassifyFailures() {
        assertThat(DeadLetters.transientFailure(new TimeoutException("t"))).isTrue();
        assertThat(DeadLetters.transientFailure(new RuntimeException(new java.io.IOException("disk")))).isTrue();
        assertThat(DeadLetters.transientFailure(new IllegalArgumentException("record must be <= 4066 bytes")))
                .isFalse();
        assertThat(DeadLetters.transientFailure(new org.apache.kafka.common.errors.SerializationException("s")))
                .isFalse();
        assertThat(DeadLetters.transientFailure(new NullPointerException())).isFalse();
    }
}
