package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.Topic;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.dedup.DedupTopology;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.ranker.RankerService;
import io.github.kcrawler.ranker.RankerTopology;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Issue 20, item 4: no input can stop a partition. Values of every input topic of the dedup, scheduler and ranker
 * topologies (built with their real default configs and {@link StreamsDefaults}' handlers) with arbitrary field
 * contents and lengths — nulls, empty and 64 KiB strings, non-ASCII and control characters, negative and extreme
 * numbers, lists of up to 20,000 entries, wrong versions — and raw junk bytes are piped through
 * {@code TopologyTestDriver}, with wall-clock time advanced now and then so punctuators run on what was piped. No
 * exception may escape, and every input is processed (counted as bad input at worst) or dead-lettered: every letter
 * on {@code crawl.deadletter} names an input that was piped, is keyed as it, and the letters' count equals the
 * {@value MetricNames#DEADLETTER_RECORDS} counters and {@link DeadLetters#count()}.
 *
 * <p>Values are generated from the record types themselves ({@link #value}: a record's components by reflection,
 * with a valid format version and a matching URL fingerprint most of the time so that records get past the input
 * checks into the algorithms): when a topic's value type changes, only {@link #sources} changes.
 *
 * <p>Seeded: the seed is printed; rerun with {@code -Dkcrawler.seed=N}; {@code -Dkcrawler.poison.tries=N} inputs per
 * topology (default 400).
 */
class PoisonPillPropertyTest {
    private static final long SEED = Long.getLong("kcrawler.seed", System.nanoTime());
    private static final int TRIES = Integer.getInteger("kcrawler.poison.tries", 400);
    private static final int MAX_STRING = 64 * 1024;
    private static final int MAX_LIST = 20_000;
    private static final int TILE = 1_024;
    private static final String[] ODD = {"é", "中文", "\uD83D\uDE00", "\u0000", "\r\n", "\t", "\uFFFD", "\u202E", "%",
            "%zz", "..", "/", "?", "#", "@", ":", "\\", "\"", "<>", " "};

    private final Topics topics = Topics.withPrefix("t.");

    /** The input topics of a topology and their value types: the one place to change when a value type changes. */
    private Map<String, Class<?>> sources(Topology topology) {
        Map<String, Class<?>> byName = new HashMap<>();
        for (Topic<String, ?> t : topics.all()) {
            if (t.valueSerde() instanceof JsonSerde<?> json) {
                byName.put(t.name(), json.type());
            }
        }
        Map<String, Class<?>> out = new LinkedHashMap<>();
        for (var sub : topology.describe().subtopologies()) {
            for (var node : sub.nodes()) {
                if (node instanceof org.apache.kafka.streams.TopologyDescription.Source s && s.topicSet() != null) {
                    for (String name : s.topicSet()) {
                        out.put(name, byName.get(name));
                    }
                }
            }
        }
        return out;
    }

    private KafkaSettings kafka(String name) throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), name + "-");
        return new KafkaSettings("127.0.0.1:1", topics.prefix(), 1, dir, Map.of());
    }

    @Test
    void dedupTopology_everyInputProcessedOrDeadLettered() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DedupConfig config = DedupConfig.of(kafka("dedup"));
        Topology topology = DedupTopology.build(topics, config, registry);
        run("dedup", topology, StreamsDefaults.properties(config.kafka(), DedupService.APPLICATION_ID, 1,
                config.commitMs()), registry, new SplittableRandom(SEED));
    }

    @Test
    void schedulerTopology_everyInputProcessedOrDeadLettered() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SchedulerService service = new SchedulerService(SchedulerConfig.defaults(kafka("scheduler")), registry,
                CrawlClock.SYSTEM);
        run("scheduler", service.topology(), service.streamsProperties(), registry, new SplittableRandom(SEED + 1));
    }

    @Test
    void rankerTopology_everyInputProcessedOrDeadLettered() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RankerConfig config = RankerConfig.of(kafka("ranker"));
        Topology topology = RankerTopology.build(topics, config, registry);
        run("ranker", topology, StreamsDefaults.properties(config.kafka(), RankerService.APPLICATION_ID, 1,
                config.commitMs()), registry, new SplittableRandom(SEED + 2));
    }

    private void run(String name, Topology topology, Properties props, SimpleMeterRegistry registry,
                     SplittableRandom random) {
        System.out.printf("PoisonPillPropertyTest %s: seed %d (rerun with -Dkcrawler.seed=%d), %d inputs%n", name,
                SEED, SEED, TRIES);
        DeadLetters letters = DeadLetters.install(props, topology, registry);
        Map<String, Class<?>> sources = sources(topology);
        assertThat(sources).isNotEmpty();
        List<String> names = new ArrayList<>(sources.keySet());
        Map<String, List<String>> keysByTopic = new HashMap<>();
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        int junk = 0;
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props, start)) {
            Map<String, TestInputTopic<String, byte[]>> inputs = new HashMap<>();
            for (String topic : names) {
                inputs.put(topic, driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer(),
                        start, Duration.ofMillis(10)));
                keysByTopic.put(topic, new ArrayList<>());
            }
            for (int i = 0; i < TRIES; i++) {
                String topic = names.get(random.nextInt(names.size()));
                String key = key(random);
                byte[] value;
                if (random.nextInt(8) == 0) {
                    value = junk(random);
                    junk++;
                } else {
                    value = json(value(sources.get(topic), random, 0));
                }
                keysByTopic.get(topic).add(key);
                try {
                    inputs.get(topic).pipeInput(key, value);
                    if (random.nextInt(10) == 0) {
                        driver.advanceWallClockTime(Duration.ofMillis(random.nextInt(5_000)));
                    }
                } catch (RuntimeException e) {
                    fail("seed " + SEED + ", input " + i + " to " + topic + ": an exception escaped the topology", e);
                }
            }
            driver.advanceWallClockTime(Duration.ofMinutes(5));
            TestOutputTopic<String, byte[]> dlq = driver.createOutputTopic(topics.deadLetter.name(),
                    new StringDeserializer(), new ByteArrayDeserializer());
            List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
            for (TestRecord<String, byte[]> d : dead) {
                String topic = header(d, DeadLetters.HEADER_TOPIC);
                if (topic.isEmpty()) {
                    continue; // a punctuator's letter: no source record
                }
                assertThat(names).as("seed %d: letter's source topic", SEED).contains(topic);
                int offset = Integer.parseInt(header(d, DeadLetters.HEADER_OFFSET));
                assertThat(offset).as("seed %d: letter's source offset", SEED)
                        .isBetween(0, keysByTopic.get(topic).size() - 1);
                assertThat(d.key()).as("seed %d: letter keyed as its source", SEED)
                        .isEqualTo(keysByTopic.get(topic).get(offset));
                assertThat(header(d, DeadLetters.HEADER_SERVICE)).isEqualTo(props.get(StreamsConfig.APPLICATION_ID_CONFIG));
            }
            double counted = registry.find(MetricNames.DEADLETTER_RECORDS).counters().stream()
                    .mapToDouble(Counter::count).sum();
            assertThat(counted).as("seed %d: metric = letters on the topic", SEED).isEqualTo(dead.size());
            assertThat(letters.count()).isEqualTo(dead.size());
            System.out.printf("PoisonPillPropertyTest %s: %d inputs (%d junk) over %s, %d dead letters %s%n", name,
                    TRIES, junk, names, dead.size(), letters.recent());
        }
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] json(Object value) {
        try {
            return JsonSerde.MAPPER.writeValueAsBytes(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String key(SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> null;
            case 1 -> string(r);
            default -> "10." + r.nextInt(4) + "." + r.nextInt(256) + "." + r.nextInt(256);
        };
    }

    private static byte[] junk(SplittableRandom r) {
        byte[] b = new byte[r.nextInt(4) == 0 ? r.nextInt(MAX_STRING) : r.nextInt(64)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        if (b.length > 0 && r.nextBoolean()) {
            b[0] = (byte) (r.nextBoolean() ? '{' : '[');
        }
        return b;
    }

    /** An arbitrary value of {@code type} as JSON-ready maps, lists and scalars. */
    static Object value(Type type, SplittableRandom r, int depth) {
        Class<?> c = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (!c.isPrimitive() && r.nextInt(12) == 0) {
            return null;
        }
        if (c == String.class) {
            return string(r);
        }
        if (c == int.class || c == Integer.class) {
            return (int) number(r);
        }
        if (c == long.class || c == Long.class) {
            return number(r);
        }
        if (c == short.class || c == Short.class) {
            return (short) number(r);
        }
        if (c == double.class || c == Double.class || c == float.class || c == Float.class) {
            return switch (r.nextInt(6)) {
                case 0 -> -r.nextDouble() * 1e300;
                case 1 -> 0.0;
                case 2 -> Double.MIN_VALUE;
                default -> r.nextDouble();
            };
        }
        if (c == boolean.class || c == Boolean.class) {
            return r.nextBoolean();
        }
        if (c.isEnum()) {
            Object[] constants = c.getEnumConstants();
            return r.nextInt(10) == 0 ? string(r) : constants[r.nextInt(constants.length)].toString();
        }
        if (List.class.isAssignableFrom(c) && type instanceof ParameterizedType p) {
            int n = depth > 1 ? r.nextInt(3) : r.nextInt(20) == 0 ? r.nextInt(MAX_LIST) : r.nextInt(20);
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(value(p.getActualTypeArguments()[0], r, depth + 1));
            }
            return list;
        }
        if (c.isRecord()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (RecordComponent rc : c.getRecordComponents()) {
                fields.put(rc.getName(), value(rc.getGenericType(), r, depth + 1));
            }
            plausible(c, fields, r);
            return fields;
        }
        return string(r);
    }

    /** Most of the time, the fields the input checks look at are valid, so the record reaches the algorithms. */
    private static void plausible(Class<?> c, Map<String, Object> fields, SplittableRandom r) {
        if (fields.containsKey("v") && r.nextInt(5) != 0) {
            try {
                fields.put("v", c.getField("VERSION").get(null));
            } catch (ReflectiveOperationException e) {
                fields.put("v", 1);
            }
        }
        for (String urlField : List.of("url", "source")) {
            if (fields.containsKey(urlField) && r.nextInt(3) != 0) {
                String url = "http://h" + r.nextInt(50) + ".example/" + (r.nextBoolean() ? string(r) : "p" + r.nextInt(100));
                fields.put(urlField, url);
                String fp = urlField.equals("url") ? "fingerprint" : "sourceFingerprint";
                if (fields.containsKey(fp) && r.nextInt(4) != 0) {
                    fields.put(fp, Fingerprints.url(url));
                }
                if (urlField.equals("url") && fields.containsKey("urlFingerprint") && r.nextInt(4) != 0) {
                    fields.put("urlFingerprint", Fingerprints.url(url));
                }
            }
        }
        if (fields.containsKey("status") && r.nextInt(3) != 0) {
            int[] statuses = {200, 200, 200, 301, 304, 404, 429, 500, 503};
            fields.put("status", statuses[r.nextInt(statuses.length)]);
        }
        if (fields.containsKey("outcome") && r.nextBoolean()) {
            fields.put("outcome", "OK");
        }
        if (fields.containsKey("ip") && r.nextInt(3) != 0) {
            fields.put("ip", "10.0." + r.nextInt(256) + "." + r.nextInt(256));
        }
    }

    private static long number(SplittableRandom r) {
        return switch (r.nextInt(8)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> -1;
            case 3 -> 0;
            case 4 -> Integer.MAX_VALUE;
            case 5 -> -r.nextInt(1_000_000);
            default -> r.nextInt(100);
        };
    }

    static String string(SplittableRandom r) {
        int kind = r.nextInt(10);
        if (kind == 0) {
            return "";
        }
        int length = kind == 1 ? r.nextInt(MAX_STRING) : kind == 2 ? MAX_STRING : r.nextInt(60);
        if (length <= TILE) {
            return randomChars(r, length);
        }
        // A long string is a random block repeated (the checks look at length and character classes, not at
        // entropy): building 64 KiB char by char made this test spend most of its time in its own generator.
        String block = randomChars(r, TILE);
        StringBuilder sb = new StringBuilder(length + TILE);
        while (sb.length() < length) {
            sb.append(block);
        }
        return sb.substring(0, length);
    }

    private static String randomChars(SplittableRandom r, int length) {
        StringBuilder sb = new StringBuilder(length + 4);
        while (sb.length() < length) {
            int pick = r.nextInt(10);
            if (pick == 0) {
                sb.append(ODD[r.nextInt(ODD.length)]);
            } else if (pick == 1) {
                sb.append((char) r.nextInt(0x10000)); // lone surrogates included
            } else {
                sb.append((char) ('a' + r.nextInt(26)));
            }
        }
        return sb.length() > length ? sb.substring(0, length) : sb.toString();
    }
}
