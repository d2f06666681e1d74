package io.github.kcrawler.app.status;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.topic.Topic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Reads {@code crawl.fetch.results} from its end onwards (no consumer group, nothing committed: it never disturbs the
 * services) and feeds an {@link ActivityWindow}. Unreadable records are counted, never fatal. Works the same against
 * the embedded broker and a cluster.
 */
public final class FetchResultsTail implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FetchResultsTail.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topic<String, FetchResult> topic;
    private final ActivityWindow window;
    private final LongSupplier clock;
    private final Thread thread;
    private volatile boolean running = true;

    public FetchResultsTail(KafkaSettings kafka, Topic<String, FetchResult> topic, ActivityWindow window,
                            LongSupplier clock) {
        this.topic = topic;
        this.window = window;
        this.clock = clock;
        this.consumer = new KafkaConsumer<>(kafka.clientProperties(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG, "crawler-status-tail",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000)),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "status-fetch-results-tail");
        thread.setDaemon(true);
    }

    public FetchResultsTail start() {
        thread.start();
        return this;
    }

    public ActivityWindow window() {
        return window;
    }

    private void run() {
        Deserializer<FetchResult> values = topic.valueSerde().deserializer();
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            while (running && partitions.isEmpty()) {
                try {
                    List<PartitionInfo> infos = consumer.partitionsFor(topic.name(), Duration.ofSeconds(10));
                    if (infos != null) {
                        for (PartitionInfo p : infos) {
                            partitions.add(new TopicPartition(p.topic(), p.partition()));
                        }
                    }
                    if (partitions.isEmpty()) {
                        window.problem("topic " + topic.name() + " not found yet");
                    }
                } catch (KafkaException e) { // timeout, unreachable cluster, no authorisation: retry
                    window.problem("cannot read " + topic.name() + ": " + e.getMessage());
                }
                if (partitions.isEmpty()) {
                    Thread.sleep(1000);
                }
            }
            window.problem(null);
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            while (running) {
                for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(500))) {
                    FetchResult r;
                    try {
                        r = values.deserialize(rec.topic(), rec.value());
                    } catch (RuntimeException e) {
                        window.unreadable();
                        continue;
                    }
                    String ip = rec.key() == null ? null : new String(rec.key(), StandardCharsets.UTF_8);
                    window.add(r, ip, clock.getAsLong());
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // closing
        } catch (RuntimeException e) {
            if (running) {
                window.problem("stopped reading " + topic.name() + ": " + e);
                LOG.warn("The status page stopped reading {}: {}", topic.name(), e.toString());
            }
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
