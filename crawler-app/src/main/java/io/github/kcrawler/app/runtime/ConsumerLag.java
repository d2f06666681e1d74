package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.config.KafkaSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How far each service's consumer group is behind the committed end of the topics it reads. A crawl is quiet when
 * every group has caught up and nothing is pending or in flight; that is how the demo and {@code crawl
 * --exit-when-idle} know the crawl is finished, and it works the same against an external cluster.
 */
public final class ConsumerLag implements AutoCloseable {
    /** Above this many offsets the lag is real work, whatever markers it includes. */
    private static final long SMALL_LAG = 1000;

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> probe;

    /** @param kafka the cluster and the pass-through client settings (security included) for the probe consumer */
    public ConsumerLag(Admin admin, KafkaSettings kafka) {
        this.admin = admin;
        this.probe = new KafkaConsumer<>(kafka.clientProperties(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1)),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * Total records not yet consumed by {@code groupId} on {@code topics} (read-committed end offsets, so
     * transaction markers and aborted records do not count as lag).
     */
    public long lag(String groupId, Collection<TopicPartition> partitions)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicPartition tp : partitions) {
            request.put(tp, OffsetSpec.latest());
        }
        ListOffsetsResult ends = admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
        long lag = 0;
        Map<TopicPartition, Long> behind = new HashMap<>();
        Map<TopicPartition, Long> endOffsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            long end = ends.partitionResult(tp).get(10, TimeUnit.SECONDS).offset();
            OffsetAndMetadata c = committed.get(tp);
            long position = c == null ? 0 : c.offset();
            if (end > position) {
                behind.put(tp, position);
                endOffsets.put(tp, end);
                lag += end - position;
            }
        }
        if (behind.isEmpty() || lag > SMALL_LAG) {
            return lag;
        }
        return unreadRecords(behind, endOffsets);
    }

    /**
     * Offsets count transaction markers too: a group that committed right after its last record still sits one
     * offset (the commit marker) before the end. For a small lag, read what lies between the committed offset and
     * the end in read-committed mode and count only real records.
     */
    private long unreadRecords(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        probe.assign(from.keySet());
        from.forEach(probe::seek);
        long records = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        Set<TopicPartition> open = new HashSet<>(from.keySet());
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            ConsumerRecords<byte[], byte[]> polled = probe.poll(Duration.ofMillis(50));
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                if (r.offset() < to.get(new TopicPartition(r.topic(), r.partition()))) {
                    records++;
                }
            }
            open.removeIf(tp -> probe.position(tp) >= to.get(tp));
        }
        probe.unsubscribe();
        return open.isEmpty() ? records : Math.max(records, 1);
    }

    @Override
    public void close() {
        probe.close(Duration.ofSeconds(2));
    }
}
