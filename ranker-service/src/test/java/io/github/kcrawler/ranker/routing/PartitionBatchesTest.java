package io.github.kcrawler.ranker.routing;

import io.github.kcrawler.common.topic.KeyPartitioner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionBatchesTest {
    private record Emitted(String key, List<String> entries) {
    }

    private static String ip(SplittableRandom r) {
        return "10." + r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(256);
    }

    @Test
    void drain_emitsOneBatchPerPartition_keyedByAnIpOfThatPartition_entriesInOrder_property() {
        long seed = System.nanoTime();
        System.out.println("PartitionBatchesTest seed " + seed);
        SplittableRandom r = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            int partitions = 1 + r.nextInt(16);
            PartitionBatches<String> batches = new PartitionBatches<>(partitions, 1_000_000, Long.MAX_VALUE);
            Map<Integer, List<String>> expected = new HashMap<>();
            int n = r.nextInt(60);
            for (int i = 0; i < n; i++) {
                String ip = ip(r);
                int p = batches.partitionOf(ip);
                String entry = ip + "#" + i;
                batches.add(p, ip, entry, 10);
                expected.computeIfAbsent(p, k -> new ArrayList<>()).add(entry);
            }
            List<Emitted> emitted = new ArrayList<>();
            batches.drain((key, entries) -> emitted.add(new Emitted(key, entries)));
            assertThat(emitted).as("seed %d", seed).hasSize(expected.size()).hasSizeLessThanOrEqualTo(partitions);
            for (Emitted e : emitted) {
                int p = KeyPartitioner.partition(e.key(), partitions);
                assertThat(e.entries()).as("seed %d", seed).isEqualTo(expected.get(p));
                assertThat(e.entries()).allSatisfy(entry -> assertThat(KeyPartitioner.partition(
                        entry.substring(0, entry.indexOf('#')), partitions)).isEqualTo(p));
            }
            assertThat(batches.isEmpty()).isTrue();
            List<Emitted> again = new ArrayList<>();
            batches.drain((key, entries) -> again.add(new Emitted(key, entries)));
            assertThat(again).as("drained batches are empty").isEmpty();
        }
    }

    @Test
    void drain_cutsAGroupOverTheEntryOrByteLimit_intoTheFewestBatchesWithinBoth() {
        PartitionBatches<String> batches = new PartitionBatches<>(1, 3, 100);
        for (int i = 0; i < 7; i++) {
            batches.add(0, "10.0.0." + i, "e" + i, 30); // 3 fit by bytes (90), 3 by count
        }
        batches.add(0, "10.0.0.9", "huge", 500); // larger than the byte limit: travels alone
        batches.add(0, "10.0.0.10", "last", 1);
        List<Emitted> emitted = new ArrayList<>();
        batches.drain((key, entries) -> emitted.add(new Emitted(key, entries)));
        assertThat(emitted).containsExactly(
                new Emitted("10.0.0.0", List.of("e0", "e1", "e2")),
                new Emitted("10.0.0.3", List.of("e3", "e4", "e5")),
                new Emitted("10.0.0.6", List.of("e6")),
                new Emitted("10.0.0.9", List.of("huge")),
                new Emitted("10.0.0.10", List.of("last")));
    }

    @Test
    void emittedLists_areTheReceiversToKeep() {
        PartitionBatches<String> batches = new PartitionBatches<>(2, 10, 1_000);
        List<List<String>> kept = new ArrayList<>();
        batches.add(batches.partitionOf("10.0.0.1"), "10.0.0.1", "a", 1);
        batches.drain((key, entries) -> kept.add(entries));
        batches.add(batches.partitionOf("10.0.0.1"), "10.0.0.1", "b", 1);
        batches.drain((key, entries) -> kept.add(entries));
        assertThat(kept).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void constructor_refusesNonPositiveLimits() {
        assertThatThrownBy(() -> new PartitionBatches<String>(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartitionBatches<String>(1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartitionBatches<String>(1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
