package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.topic.KeyPartitioner;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions of the request topic assigned to this instance, as the consumer's rebalance listener reports them,
 * readable from any thread: work the fetcher does on its own for an IP (reading a site's sitemaps) asks whether the
 * IP's partition is still here before each request, so that it never sends one to an IP another instance now paces.
 */
final class PartitionOwnership {
    private final Set<Integer> owned = ConcurrentHashMap.newKeySet();

    void assigned(Collection<TopicPartition> partitions) {
        partitions.forEach(tp -> owned.add(tp.partition()));
    }

    void removed(Collection<TopicPartition> partitions) {
        partitions.forEach(tp -> owned.remove(tp.partition()));
    }

    /** True if the partition the record key {@code key} (an IP) hashes to, of {@code partitions}, is assigned here. */
    boolean ownsKey(String key, int partitions) {
        return key != null && owned.contains(KeyPartitioner.partition(key, partitions));
    }
}
