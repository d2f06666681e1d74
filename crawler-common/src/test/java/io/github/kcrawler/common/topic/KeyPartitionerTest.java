package io.github.kcrawler.common.topic;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyPartitionerTest {

    @Test
    void checkAgainstKafka_passesOnTheLoadedClient() {
        KeyPartitioner.checkAgainstKafka();
    }

    /**
     * Random IPv4 and IPv6 keys against the function the producer itself calls for a keyed record
     * ({@code KafkaProducer.partition} → {@code BuiltInPartitioner.partitionForKey} when no partitioner is set).
     */
    @Test
    void partition_equalsKafkasPartitionForKey_forRandomIpKeys() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("KeyPartitionerTest seed=" + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 20_000; i++) {
            int partitions = 1 + random.nextInt(128);
            String ip = random.nextBoolean()
                    ? random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "."
                      + random.nextInt(256)
                    : "2001:db8::" + Integer.toHexString(random.nextInt(1 << 16));
            int kafka = BuiltInPartitioner.partitionForKey(ip.getBytes(StandardCharsets.UTF_8), partitions);
            assertThat(KeyPartitioner.partition(ip, partitions))
                    .as("key %s, %d partitions (seed %d)", ip, partitions, seed).isEqualTo(kafka);
        }
    }

    @Test
    void partition_rejectsNonPositiveCount() {
        assertThatThrownBy(() -> KeyPartitioner.partition("1.2.3.4", 0)).hasMessageContaining("was 0");
    }
}
