package io.github.kcrawler.app.faults;

import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the scheduler's revisit-state changelog ({@code scheduler-scheduler-revisit-state-changelog}: URL fingerprint
 * → {@link RevisitState}, the store a restarted scheduler recovers from) to its committed end and checks that every
 * fetched page has a usable state: that is what the next scheduler instance would revisit from. The latest value per
 * key counts (a tombstone removes it), as in the compacted topic.
 *
 * @param records       changelog records read (read-committed)
 * @param states        keys whose latest value is a usable state
 * @param unreadable    keys whose latest value does not parse or is not usable
 * @param fetched       pages the check was asked about
 * @param missing       of those, pages without a usable state
 * @param missingSample up to 20 of the missing pages' URLs
 */
public record RevisitStateCheck(long records, long states, long unreadable, long fetched, long missing,
                                List<String> missingSample) {
    /** The changelog topic name for topic prefix "" (the one the scenario uses). */
    static String topic() {
        return SchedulerConfig.APPLICATION_ID + "-" + SchedulerTopology.REVISIT_STORE + "-changelog";
    }

    /** Reads the changelog at {@code bootstrap} and checks the given fetched page URLs against it. */
    static RevisitStateCheck read(String bootstrap, Collection<String> fetchedUrls, Duration timeout) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Map<ByteBuffer, byte[]> latest = new HashMap<>();
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : c.partitionsFor(topic(), timeout)) {
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            Set<TopicPartition> open = new HashSet<>(parts);
            open.removeIf(tp -> end.get(tp) == 0);
            while (!open.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic() + " to its end within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    records++;
                    ByteBuffer key = ByteBuffer.wrap(r.key() == null ? new byte[0] : r.key());
                    if (r.value() == null) {
                        latest.remove(key);
                    } else {
                        latest.put(key, r.value());
                    }
                }
                open.removeIf(tp -> c.position(tp) >= end.get(tp));
            }
        }
        Set<String> withState = new HashSet<>();
        long unreadable = 0;
        for (byte[] value : latest.values()) {
            RevisitState s;
            try {
                s = RevisitState.SERDE.deserializer().deserialize(topic(), value);
            } catch (RuntimeException e) {
                s = null;
            }
            if (s == null || !s.isUsable() || s.lastFetchedMs() <= 0) {
                unreadable++;
            } else {
                withState.add(canonical(s.url()));
            }
        }
        List<String> sample = new ArrayList<>();
        long missing = 0;
        for (String url : fetchedUrls) {
            if (!withState.contains(canonical(url))) {
                missing++;
                if (sample.size() < 20) {
                    sample.add(url);
                }
            }
        }
        return new RevisitStateCheck(records, withState.size(), unreadable, fetchedUrls.size(), missing,
                List.copyOf(sample));
    }

    private static String canonical(String url) {
        return UrlNormalizer.normalize(url).orElse(url);
    }
}
