package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.KafkaSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The ranker routes work by the partition count it is configured with ({@code partitions}): a share whose target
 * hashes to the task's own partition is applied in place, the rest is batched per target partition. If the setting
 * differed from the topics' real partition count, work would silently be done on the wrong partition. So the service
 * compares them before it starts and refuses to run on a mismatch. A topic that does not exist yet, or a cluster
 * that cannot be asked (refused credentials, no answer), is left to Kafka Streams, which reports missing source
 * topics and client failures itself and marks the service unhealthy: only a count that is known to differ stops it.
 */
final class PartitionCountCheck {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionCountCheck.class);
    private static final long TIMEOUT_SECONDS = 60;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

    private PartitionCountCheck() {
    }

    /** @throws IllegalStateException if one of {@code topics} exists with another partition count than the setting */
    static void verify(KafkaSettings kafka, List<String> topics) {
        Admin admin = Admin.create(kafka.clientProperties(Map.of(
                AdminClientConfig.CLIENT_ID_CONFIG, "ranker-partition-check")));
        try {
            Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics).topicNameValues();
            for (String topic : topics) {
                int actual;
                try {
                    actual = futures.get(topic).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).partitions().size();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        LOG.warn("topic {} does not exist yet; its partition count is not checked", topic);
                        continue;
                    }
                    LOG.warn("cannot describe topic {} ({}); its partition count is not checked", topic,
                            e.getCause().toString());
                    return;
                } catch (TimeoutException e) {
                    LOG.warn("no answer describing topic {} within {} s; its partition count is not checked", topic,
                            TIMEOUT_SECONDS);
                    return;
                }
                if (actual != kafka.partitions()) {
                    throw new IllegalStateException("topic " + topic + " has " + actual + " partitions but partitions="
                            + kafka.partitions() + "; the ranker routes work by this setting, so it must equal the "
                            + "crawl's partition count");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking partition counts", e);
        } finally {
            // not close(): it would wait for a pending describe (up to the client's API timeout) after an interrupt
            admin.close(CLOSE_TIMEOUT);
        }
    }
}
