package io.github.kcrawler.app.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
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
public final class ConsumerLag {
    private final Admin admin;

    public ConsumerLag(Admin admin) {
        this.admin = admin;
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
        for (TopicPartition tp : partitions) {
            long end = ends.partitionResult(tp).get(10, TimeUnit.SECONDS).offset();
            OffsetAndMetadata c = committed.get(tp);
            long position = c == null ? 0 : c.offset();
            lag += Math.max(0, end - position);
        }
        return lag;
    }
}
