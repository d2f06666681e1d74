package io.github.kcrawler.common.service;

import io.github.kcrawler.common.config.KafkaSettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

import java.util.Properties;

/**
 * Kafka Streams settings shared by the dedup, scheduler and ranker services: exactly-once v2, state under the
 * configured state directory (never {@code /tmp}), a record that fails to be read, processed or written sent to the
 * dead-letter topic ({@link DeadLetterHandler}; the service's {@link DeadLetters} are added by
 * {@link DeadLetters#install}) rather than stopping the service, and producer settings that batch well on a laptop and a cluster alike. Pass-through overrides from the
 * command line are applied last.
 */
public final class StreamsDefaults {
    private StreamsDefaults() {
    }

    public static Properties properties(KafkaSettings kafka, String applicationId, int threads, long commitMs) {
        Properties p = kafka.baseProperties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, kafka.topicPrefix() + applicationId);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, kafka.stateDir().resolve(applicationId).toAbsolutePath().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitMs);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        p.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, kafka.topics().deadLetter.name());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, -1); // broker default
        p.put("processing.exception.handler.global.enabled", true);
        // 2 MiB per client: Streams counts only key + value bytes, and our records are small, so 16 MiB held ~450k
        // entries (several times that on the heap) and made a 1 GiB soak's heap after GC climb 39 %; at 2 MiB +11 %
        // (BENCHMARKS.md, soak). Override with kafka.statestore.cache.max.bytes.
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 2L * 1024 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 128 * 1024);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 2000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return kafka.withOverrides(p);
    }
}
