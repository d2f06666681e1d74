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

    /**
     * onPartitionOf against the plain model (hash every entry): the two selections split the entries, keep their
     * order, and agree with Kafka's partitioner, for runs of equal IPs as pages have them.
     */
    @Test
    void onPartitionOf_splitsTheEntriesByTheKeysPartition_inOrder() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("KeyPartitionerTest onPartitionOf seed=" + seed + " (rerun with -Dkcrawler.seed=" + seed
                + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 2_000; round++) {
            int partitions = 1 + random.nextInt(16);
            String key = "10.0." + random.nextInt(4) + "." + random.nextInt(256);
            java.util.List<String> ips = new java.util.ArrayList<>();
            int n = random.nextInt(40);
            while (ips.size() < n) {
                String ip = "10.0." + random.nextInt(4) + "." + random.nextInt(256);
                for (int run = 1 + random.nextInt(5); run > 0 && ips.size() < n; run--) {
                    ips.add(ip);
                }
            }
            int own = BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions);
            java.util.List<String> same = ips.stream().filter(ip -> BuiltInPartitioner.partitionForKey(
                    ip.getBytes(StandardCharsets.UTF_8), partitions) == own).toList();
            java.util.List<String> other = ips.stream().filter(ip -> !same.contains(ip)).toList();
            String context = "seed " + seed + ", round " + round;
            assertThat(KeyPartitioner.onPartitionOf(key, ips, ip -> ip, partitions, true)).as(context)
                    .isEqualTo(same);
            assertThat(KeyPartitioner.onPartitionOf(key, ips, ip -> ip, partitions, false)).as(context)
                    .isEqualTo(other);
        }
    }
}
