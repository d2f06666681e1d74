package io.github.kcrawler.dedup.membership.archfixture;

import org.apache.kafka.common.TopicPartition;

/** Breaks LayeringTest's algorithm rule on purpose: an algorithm package that uses Kafka. */
public final class MembershipUsesKafka {
    public static TopicPartition partition() {
        return new TopicPartition("t", 0);
    }
}
