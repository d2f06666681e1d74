package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.streams.JournalFormat;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test harness around an {@link EmbeddedKafkaBroker}: one broker, a shared {@link Admin}, topic creation that waits
 * until topics are writable, client settings with string serdes, and reading topics back.
 *
 * <pre>{@code
 * try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary()) {
 *     kafka.createTopics(4, "in", "out");
 *     kafka.produce("in", "k", "v");
 *     List<TopicRecord> out = kafka.awaitRecords("out", 1, Duration.ofSeconds(30));
 * }
 * }</pre>
 *
 * <p>It lives in {@code src/main} so that other modules can use it as a test-scoped dependency and the application
 * can use it in its demo and self-tests. All methods are thread-safe.
 */
public final class KafkaTestCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTestCluster.class);
    private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

    private final EmbeddedKafkaConfig config;
    private final boolean deleteOnClose;
    private EmbeddedKafkaBroker broker;
    private Admin admin;
    private boolean closed;

    private KafkaTestCluster(EmbeddedKafkaConfig config, boolean deleteOnClose) {
        this.config = config;
        this.deleteOnClose = deleteOnClose;
        this.broker = EmbeddedKafkaBroker.start(config);
    }

    /** Starts (or restarts) a broker on {@code dataDir}; the directory is kept on close. */
    public static KafkaTestCluster start(Path dataDir) {
        return start(EmbeddedKafkaConfig.of(dataDir));
    }

    /** Starts (or restarts) a broker with the given settings; the data directory is kept on close. */
    public static KafkaTestCluster start(EmbeddedKafkaConfig config) {
        return new KafkaTestCluster(config, false);
    }

    /**
     * Starts a broker on a new directory under {@code ./target} (the module's build directory when run by Maven,
     * rather than {@code /tmp}); the directory is deleted on {@link #close()}.
     */
    public static KafkaTestCluster startTemporary() {
        return startTemporary(Map.of());
    }

    /** Like {@link #startTemporary()}, with extra broker settings. */
    public static KafkaTestCluster startTemporary(Map<String, String> brokerOverrides) {
        Path dir = newTemporaryDirectory("kafka-");
        try {
            return new KafkaTestCluster(new EmbeddedKafkaConfig(dir, 0, EmbeddedKafkaConfig.LOOPBACK, brokerOverrides), true);
        } catch (RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
    }

    /** A new empty directory under {@code ./target} (created if needed), for broker data or Streams state. */
    public static Path newTemporaryDirectory(String prefix) {
        try {
            Path base = Path.of("target");
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix).toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory under ./target", e);
        }
    }

    public synchronized EmbeddedKafkaBroker broker() {
        return broker;
    }

    public synchronized String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public Path dataDir() {
        return config.dataDir().toAbsolutePath().normalize();
    }

    /** A shared admin client, closed with the cluster (do not close it yourself). */
    public synchronized Admin admin() {
        ensureOpen();
        if (admin == null) {
            admin = Admin.create(adminProps());
        }
        return admin;
    }

    /**
     * Creates the topics (if missing) with {@code partitions} partitions and replication factor 1, and waits until
     * they are writable. Fails if one exists with another partition count.
     */
    public void createTopics(int partitions, String... names) {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : names) {
            topics.add(new NewTopic(name, partitions, (short) 1));
        }
        createTopics(topics);
    }

    /** Creates the topics (if missing) and waits until they are writable. */
    public void createTopics(Collection<NewTopic> topics) {
        TopicProvisioner.ensureTopics(admin(), topics, TopicProvisioner.DEFAULT_TIMEOUT);
    }

    /** Deletes topics and waits for the deletion to complete. */
    public void deleteTopics(String... names) {
        try {
            admin().deleteTopics(Arrays.asList(names)).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot delete topics " + Arrays.toString(names) + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("deleting topics " + Arrays.toString(names) + " took more than 60 s");
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
    }

    /** Admin client settings. */
    public Map<String, Object> adminProps() {
        Map<String, Object> p = new HashMap<>();
        p.putAll(broker().clientConfig()); // bootstrap servers, and SASL settings when the listener has them
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "test-admin-" + CLIENT_IDS.incrementAndGet());
        return p;
    }

    /** Idempotent producer with string key and value, {@code acks=all}. A new mutable map on each call. */
    public Map<String, Object> producerProps() {
        Map<String, Object> p = new HashMap<>();
        p.putAll(broker().clientConfig()); // bootstrap servers, and SASL settings when the listener has them
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "test-producer-" + CLIENT_IDS.incrementAndGet());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        return p;
    }

    /** {@link #producerProps()} plus {@code transactional.id}. */
    public Map<String, Object> transactionalProducerProps(String transactionalId) {
        Map<String, Object> p = producerProps();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return p;
    }

    /**
     * Consumer with string key and value in group {@code groupId} (null: no group, for {@code assign()}), reading
     * from the earliest offset, {@code read_committed}, no auto-commit. A new mutable map on each call.
     */
    public Map<String, Object> consumerProps(String groupId) {
        Map<String, Object> p = new HashMap<>();
        p.putAll(broker().clientConfig()); // bootstrap servers, and SASL settings when the listener has them
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "test-consumer-" + CLIENT_IDS.incrementAndGet());
        if (groupId != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return p;
    }

    /** A new idempotent string producer (the caller closes it). */
    public KafkaProducer<String, String> newProducer() {
        return new KafkaProducer<>(producerProps());
    }

    /** Sends one record (key may be null) and waits for the acknowledgement. */
    public void produce(String topic, String key, String value) {
        send(List.of(new ProducerRecord<>(topic, key, value)));
    }

    /** Sends records (in map iteration order) with one producer and waits for all acknowledgements. */
    public void produce(String topic, Map<String, String> records) {
        List<ProducerRecord<String, String>> list = new ArrayList<>();
        records.forEach((k, v) -> list.add(new ProducerRecord<>(topic, k, v)));
        send(list);
    }

    /** Sends records with one idempotent producer and waits for all acknowledgements. */
    public void send(Collection<ProducerRecord<String, String>> records) {
        try (KafkaProducer<String, String> producer = newProducer()) {
            List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
            for (ProducerRecord<String, String> r : records) {
                acks.add(producer.send(r));
            }
            producer.flush();
            for (java.util.concurrent.Future<?> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot produce: " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("producing took more than 60 s");
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
    }

    /**
     * Reads every committed record currently in {@code topic} (up to the end offsets seen when the call starts),
     * partition by partition in offset order.
     *
     * @throws TimeoutException if the records cannot be read within {@code timeout}
     */
    public List<TopicRecord> readAll(String topic, Duration timeout) {
        List<TopicRecord> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : readCommitted(topic, timeout, new StringDeserializer(),
                new StringDeserializer())) {
            out.add(toRecord(r));
        }
        return out;
    }

    /**
     * The changes a store's changelog holds in effect, partition by partition: the journal's batches change by change
     * from each partition's last snapshot on ({@link JournalFormat#changes}), so a test reads a journaled store's
     * changelog as it read a per-key one. A null value is a delete.
     */
    public List<KeyValue<Bytes, byte[]>> readStoreChanges(String changelog, Duration timeout) {
        Map<Integer, List<KeyValue<byte[], byte[]>>> byPartition = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(changelog, timeout, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(KeyValue.pair(r.key(), r.value()));
        }
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
        byPartition.values().forEach(records -> out.addAll(JournalFormat.changes(records)));
        return out;
    }

    private <K, V> List<ConsumerRecord<K, V>> readCommitted(String topic, Duration timeout, Deserializer<K> keys,
                                                           Deserializer<V> values) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(consumerProps(null), keys, values)) {
            List<TopicPartition> partitions = assignAll(consumer, topic, timeout);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            List<ConsumerRecord<K, V>> out = new ArrayList<>();
            while (!reached(consumer, end, timeout)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("read " + out.size() + " records of " + topic + " but not up to "
                            + end + " within " + timeout);
                }
                for (ConsumerRecord<K, V> r : consumer.poll(Duration.ofMillis(100))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        out.add(r);
                    }
                }
            }
            out.sort((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition())
                    : Long.compare(a.offset(), b.offset()));
            return out;
        }
    }

    /**
     * Reads {@code topic} from the beginning until at least {@code minCount} committed records have arrived
     * (for outputs that an application under test writes asynchronously).
     *
     * @return every record read (at least {@code minCount}), in arrival order
     * @throws TimeoutException if fewer than {@code minCount} records arrived within {@code timeout}
     */
    public List<TopicRecord> awaitRecords(String topic, int minCount, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(null))) {
            assignAll(consumer, topic, timeout);
            List<TopicRecord> out = new ArrayList<>();
            while (out.size() < minCount) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("only " + out.size() + " of " + minCount + " records arrived in "
                            + topic + " within " + timeout);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    out.add(toRecord(r));
                }
            }
            return out;
        }
    }

    /** Latest committed offsets of every partition of {@code topic} (the LSO, as a read_committed consumer sees it). */
    public Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(null))) {
            List<TopicPartition> partitions = assignAll(consumer, topic, Duration.ofSeconds(30));
            return consumer.endOffsets(partitions, Duration.ofSeconds(30));
        }
    }

    /**
     * Stops the broker and starts it again on the same data directory and port (topics and records survive). The
     * shared admin client is recreated; other clients reconnect by themselves.
     */
    public synchronized void restart() {
        restart(Duration.ZERO);
    }

    /**
     * {@link #restart()} with the broker away for {@code away} between its stop and its start (longer than a group's
     * session timeout: the clients' sessions cannot be kept alive meanwhile).
     */
    public synchronized void restart(Duration away) {
        ensureOpen();
        closeAdmin();
        broker.close();
        try {
            Thread.sleep(away.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the broker was away", e);
        }
        broker = EmbeddedKafkaBroker.start(config.withPort(broker.port()));
    }

    /** Closes the admin client and the broker; deletes the data directory if it was temporary. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            closeAdmin();
            broker.close();
        } finally {
            if (deleteOnClose) {
                deleteRecursively(dataDir());
            }
        }
    }

    @Override
    public String toString() {
        return "KafkaTestCluster[" + broker + "]";
    }

    // ---------------------------------------------------------------------------------------------------------------

    private List<TopicPartition> assignAll(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        int partitions = TopicProvisioner.partitionCounts(admin(), List.of(topic), timeout).get(topic);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        return tps;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration timeout) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static TopicRecord toRecord(ConsumerRecord<String, String> r) {
        return new TopicRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value());
    }

    private void closeAdmin() {
        if (admin != null) {
            try {
                admin.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("closing admin: {}", e.toString());
            }
            admin = null;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("KafkaTestCluster is closed");
        }
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", dir, e.toString());
        }
    }
}
