package io.github.kcrawler.common.service;

import io.github.kcrawler.common.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dead letters of one Streams service (issue 20, "no poison pills"): a record that fails processing
 * deterministically is written to {@code crawl.deadletter} and its partition moves on, instead of the stream thread
 * failing, being replaced, replaying the record and failing again until the service gives up.
 *
 * <p>What is a dead letter: the source record's key and value bytes exactly as they were read (so it can be inspected
 * and replayed with Kafka's own tools), keyed as its source, with the reason in headers: KIP-1034's
 * {@code __streams.errors.topic / .partition / .offset / .exception / .message / .stacktrace} and
 * {@value #HEADER_SERVICE} (the application id) and {@value #HEADER_NODE} (the processor or punctuator's node).
 * {@code kafka-console-consumer --property print.headers=true} shows them. Header values are bounded (message
 * {@value #MAX_MESSAGE_CHARS} chars, stack trace {@value #MAX_STACKTRACE_CHARS}) and so is the value
 * ({@value #MAX_VALUE_BYTES} bytes, cut with {@value #HEADER_VALUE_TRUNCATED} = the original length), so a dead
 * letter always fits where its source fitted.
 *
 * <p>Which failures are dead letters ({@link #transientFailure}): anything the record itself causes. Failures of the
 * infrastructure — Kafka client and broker errors, timeouts, a local store that cannot be written, an I/O error —
 * are not the record's fault and a new thread can fix them, so they still fail the stream thread and follow
 * {@link StreamThreadFailures}' bounded replacement policy. Either way no record is retried forever: a dead letter
 * is never retried, and the replacement policy gives up after a few tries and stops the service visibly.
 *
 * <p>Exactly-once: Kafka Streams sends the dead letter through the failing task's record collector, so under
 * {@code exactly_once_v2} it is in the same transaction as the input offset it skips — committed together or not at
 * all (a transaction aborted later replays the record and dead-letters it again; the counter then counts it twice).
 *
 * <p>Counted under {@value MetricNames#DEADLETTER_RECORDS} by service and source topic, every source topic of the
 * topology registered up front (and {@value #PUNCTUATION} for punctuators). The first {@value #RECENT} letters are
 * kept for the crawl's summary. Thread-safe: every stream thread of the service shares one instance, handed to the
 * handlers through the Streams properties ({@link #install}).
 */
public final class DeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
    /** Streams property that carries this object to {@link DeadLetterHandler} (not a Kafka setting). */
    public static final String INSTANCE_CONFIG = "kcrawler.dead.letters.instance";
    public static final String HEADER_TOPIC = "__streams.errors.topic";
    public static final String HEADER_PARTITION = "__streams.errors.partition";
    public static final String HEADER_OFFSET = "__streams.errors.offset";
    public static final String HEADER_EXCEPTION = "__streams.errors.exception";
    public static final String HEADER_MESSAGE = "__streams.errors.message";
    public static final String HEADER_STACKTRACE = "__streams.errors.stacktrace";
    public static final String HEADER_SERVICE = "kcrawler.service";
    public static final String HEADER_NODE = "kcrawler.node";
    public static final String HEADER_VALUE_TRUNCATED = "kcrawler.value.truncated";
    /** The {@code topic} tag of letters from a punctuator (no source record). */
    public static final String PUNCTUATION = "punctuation";
    public static final int MAX_MESSAGE_CHARS = 1024;
    public static final int MAX_STACKTRACE_CHARS = 8192;
    /** Below the producer's default {@code max.request.size} (1 MiB) with room for the headers. */
    public static final int MAX_VALUE_BYTES = 512 * 1024;
    /** Letters kept for the summary. */
    public static final int RECENT = 10;

    /** One dead letter as the summary names it. */
    public record Letter(String service, String topic, int partition, long offset, String exception,
                         String message) {
        public String describe() {
            return String.format("%s %s-%d@%d %s: %s", service, topic, partition, offset, exception, message);
        }
    }

    private final String service;
    private final String topic;
    private final MeterRegistry registry;
    private final List<String> sourceTopics;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final List<Letter> recent = new ArrayList<>();

    /**
     * @param service      the application id, as the letters and the metric name it
     * @param topic        the dead-letter topic (prefixed)
     * @param sourceTopics topics whose counters are registered up front
     */
    public DeadLetters(String service, String topic, MeterRegistry registry, Collection<String> sourceTopics) {
        this.service = Objects.requireNonNull(service, "service");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.sourceTopics = List.copyOf(sourceTopics);
        sourceTopics.forEach(this::counter);
        counter(PUNCTUATION);
    }

    /**
     * The dead letters of the service these Streams properties configure: application id and dead-letter topic from
     * {@code properties} (see {@link StreamsDefaults}), counters for every source topic of {@code topology}. Puts
     * itself into {@code properties} for the handlers.
     */
    public static DeadLetters install(Properties properties, Topology topology, MeterRegistry registry) {
        String applicationId = properties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
        Object dlq = properties.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (applicationId == null || dlq == null) {
            throw new IllegalArgumentException("Streams properties need " + StreamsConfig.APPLICATION_ID_CONFIG + " and "
                    + StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG + " (StreamsDefaults sets both)");
        }
        DeadLetters letters = new DeadLetters(applicationId, dlq.toString(), registry, sourceTopics(topology));
        properties.put(INSTANCE_CONFIG, letters);
        return letters;
    }

    /** The instance {@link #install} put into the handlers' configuration, or a stand-alone one (logged). */
    static DeadLetters from(Map<String, ?> configs) {
        Object o = configs.get(INSTANCE_CONFIG);
        if (o instanceof DeadLetters letters) {
            return letters;
        }
        Object app = configs.get(StreamsConfig.APPLICATION_ID_CONFIG);
        Object dlq = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (dlq == null) {
            throw new org.apache.kafka.common.config.ConfigException(
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG + " is required by " + DeadLetterHandler.class.getName());
        }
        LOG.warn("{} without {}: dead letters of {} are not in the service's metrics registry",
                DeadLetterHandler.class.getSimpleName(), INSTANCE_CONFIG, app);
        return new DeadLetters(String.valueOf(app), dlq.toString(), new SimpleMeterRegistry(), List.of());
    }

    static List<String> sourceTopics(Topology topology) {
        TreeSet<String> topics = new TreeSet<>();
        for (TopologyDescription.Subtopology s : topology.describe().subtopologies()) {
            for (TopologyDescription.Node n : s.nodes()) {
                if (n instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    topics.addAll(source.topicSet());
                }
            }
        }
        return List.copyOf(topics);
    }

    /**
     * True if {@code e} is a failure of the infrastructure that a new stream thread can fix, not of the record: a
     * Kafka client or broker error (timeouts and retriable errors included), a state store that failed, an I/O
     * error. Serialization errors and records too large for the broker are the record's own and are not transient.
     */
    public static boolean transientFailure(Throwable e) {
        int depth = 0;
        for (Throwable t = e; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof SerializationException || t instanceof RecordTooLargeException
                    || t instanceof RecordBatchTooLargeException || t instanceof InvalidRecordException) {
                return false;
            }
            if (t instanceof KafkaException || t instanceof IOException || t instanceof UncheckedIOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Builds the dead letter for a record that failed in {@code context}, counts it and remembers the first few.
     *
     * @param key   the source record's key bytes (null for a punctuator)
     * @param value the source record's value bytes (null for a punctuator)
     */
    public ProducerRecord<byte[], byte[]> letter(ErrorHandlerContext context, byte[] key, byte[] value, Exception e) {
        String sourceTopic = context == null ? null : context.topic();
        int partition = context == null ? -1 : context.partition();
        long offset = context == null ? -1 : context.offset();
        String node = context == null ? null : context.processorNodeId();
        String message = bound(String.valueOf(e.getMessage()), MAX_MESSAGE_CHARS);
        Headers headers = new RecordHeaders();
        headers.add(HEADER_TOPIC, utf8(sourceTopic == null ? "" : sourceTopic));
        headers.add(HEADER_PARTITION, utf8(Integer.toString(partition)));
        headers.add(HEADER_OFFSET, utf8(Long.toString(offset)));
        headers.add(HEADER_EXCEPTION, utf8(e.getClass().getName()));
        headers.add(HEADER_MESSAGE, utf8(message));
        headers.add(HEADER_STACKTRACE, utf8(bound(stackTrace(e), MAX_STACKTRACE_CHARS)));
        headers.add(HEADER_SERVICE, utf8(service));
        headers.add(HEADER_NODE, utf8(node == null ? "" : node));
        byte[] v = value;
        if (v != null && v.length > MAX_VALUE_BYTES) {
            headers.add(HEADER_VALUE_TRUNCATED, utf8(Integer.toString(v.length)));
            v = Arrays.copyOf(v, MAX_VALUE_BYTES);
        }
        Letter letter = new Letter(service, sourceTopic == null ? PUNCTUATION : sourceTopic, partition, offset,
                e.getClass().getName(), message);
        if (count(letter) <= RECENT) {
            LOG.error("{}: dead letter to {}: {}", service, topic, letter.describe(), e);
        } else { // a flood (a punctuator failing at every tick): one line each, the first few had the stack trace
            LOG.error("{}: dead letter to {}: {}", service, topic, letter.describe());
        }
        // no timestamp: the broker's clock, so the letter sorts by when it failed; no partition: keyed as its source
        return new ProducerRecord<>(topic, null, null, key, v, headers);
    }

    /** @return letters counted so far, this one included */
    private long count(Letter letter) {
        counter(letter.topic()).increment();
        synchronized (recent) {
            if (recent.size() < RECENT) {
                recent.add(letter);
            }
        }
        return total.incrementAndGet();
    }

    private Counter counter(String sourceTopic) {
        return counters.computeIfAbsent(sourceTopic, t -> Counter.builder(MetricNames.DEADLETTER_RECORDS)
                .description("records that failed processing and were sent to the dead-letter topic")
                .tag("service", service).tag("topic", t).register(registry));
    }

    public String service() {
        return service;
    }

    /** The topics the service reads (its topology's sources): the consumer group {@link #service()} reads them. */
    public List<String> sourceTopics() {
        return sourceTopics;
    }

    /** The dead-letter topic. */
    public String topic() {
        return topic;
    }

    /** Dead letters written since this instance was built. */
    public long count() {
        return total.get();
    }

    /** The first {@value #RECENT} of them. */
    public List<Letter> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String bound(String s, int maxChars) {
        return s.length() <= maxChars ? s : s.substring(0, maxChars) + "…";
    }

    private static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        try (PrintWriter p = new PrintWriter(w)) {
            e.printStackTrace(p);
        } catch (RuntimeException ignored) {
            // an exception whose toString throws: the class name and message are in their own headers
        }
        return w.toString();
    }
}
