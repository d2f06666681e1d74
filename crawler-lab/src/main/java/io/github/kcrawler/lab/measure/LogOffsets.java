package io.github.kcrawler.lab.measure;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a crawl wrote to Kafka, per topic: records from log-end offsets and bytes from log sizes, taken at the start
 * and at the end of the measured crawl over every topic of the cluster — the crawl's topics, the services'
 * changelog and repartition topics, and the broker's own ({@code __consumer_offsets}, {@code __transaction_state}).
 *
 * <p>Records are offsets: a transaction's commit or abort marker occupies an offset like a record, so the counts
 * include the markers of the exactly-once services (one per partition a transaction wrote to). Bytes are the
 * replicas' log sizes ({@code Admin.describeLogDirs}, every replica, so a topic with replication factor r counts r
 * times); the log cleaner compacts changelogs and {@code __consumer_offsets} while the crawl runs, so their byte
 * delta can be smaller than what was written, even negative.
 *
 * @param endOffsets log-end offset per partition
 * @param sizes      log size in bytes per partition (summed over its replicas)
 */
public record LogOffsets(Map<TopicPartition, Long> endOffsets, Map<TopicPartition, Long> sizes) {
    public LogOffsets {
        endOffsets = Map.copyOf(endOffsets);
        sizes = Map.copyOf(sizes);
    }

    /** Reads the log-end offsets and log sizes of every partition of every topic, internal ones included. */
    public static LogOffsets read(Admin admin, long timeoutMs)
            throws InterruptedException, ExecutionException, TimeoutException {
        var names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(timeoutMs, TimeUnit.MILLISECONDS);
        Map<String, TopicDescription> topics = admin.describeTopics(names).allTopicNames()
                .get(timeoutMs, TimeUnit.MILLISECONDS);
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicDescription d : topics.values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e : admin.listOffsets(request).all()
                .get(timeoutMs, TimeUnit.MILLISECONDS).entrySet()) {
            ends.put(e.getKey(), e.getValue().offset());
        }
        List<Integer> brokers = new ArrayList<>();
        for (Node n : admin.describeCluster().nodes().get(timeoutMs, TimeUnit.MILLISECONDS)) {
            brokers.add(n.id());
        }
        Map<TopicPartition, Long> sizes = new HashMap<>();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions()
                .get(timeoutMs, TimeUnit.MILLISECONDS).values()) {
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> r : dir.replicaInfos().entrySet()) {
                    sizes.merge(r.getKey(), r.getValue().size(), Long::sum);
                }
            }
        }
        return new LogOffsets(ends, sizes);
    }

    /** Records per topic from {@code start} to {@code end}, largest first. */
    public static Map<String, Long> records(LogOffsets start, LogOffsets end) {
        return perTopicDelta(start.endOffsets, end.endOffsets);
    }

    /** Bytes per topic from {@code start} to {@code end}, largest first. */
    public static Map<String, Long> bytes(LogOffsets start, LogOffsets end) {
        return perTopicDelta(start.sizes, end.sizes);
    }

    /**
     * Per topic: the sum over its partitions of {@code end − start}, a partition missing at the start counting from
     * 0 (a topic created during the crawl) and one missing at the end contributing nothing (deleted, or not
     * reported); sorted by delta, largest first, then by name.
     */
    static Map<String, Long> perTopicDelta(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end) {
        Map<String, Long> sums = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            long before = start.getOrDefault(e.getKey(), 0L);
            sums.merge(e.getKey().topic(), e.getValue() - before, Long::sum);
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        sums.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * {@code total} first — the crawl's own topics and the services' changelog and repartition topics, which is what
     * issue 19 counts (its 37.6 records per page) — then {@code brokerInternal} (the broker's {@code __consumer_offsets}
     * and {@code __transaction_state}: offset commits and transaction bookkeeping, kept apart because they scale with
     * commits, not with pages), then each topic, all divided by {@code pages}; zeros when no page was fetched.
     */
    public static Map<String, Double> perPage(Map<String, Long> counts, long pages) {
        Map<String, Double> out = new LinkedHashMap<>();
        long total = 0;
        long internal = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if (isBrokerInternal(e.getKey())) {
                internal += e.getValue();
            } else {
                total += e.getValue();
            }
        }
        out.put("total", pages > 0 ? (double) total / pages : 0);
        out.put("brokerInternal", pages > 0 ? (double) internal / pages : 0);
        counts.forEach((k, v) -> out.put(k, pages > 0 ? (double) v / pages : 0));
        return out;
    }

    /** The broker's own topics ({@code __consumer_offsets}, {@code __transaction_state}, ...). */
    static boolean isBrokerInternal(String topic) {
        return topic.startsWith("__");
    }
}
