package io.github.kcrawler.kafka.embedded;

/**
 * A record read back by {@link KafkaTestCluster}: key and value as UTF-8 strings (either may be null), with where
 * it was stored.
 */
public record TopicRecord(String topic, int partition, long offset, String key, String value) {

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset + " " + key + "=" + value;
    }
}
