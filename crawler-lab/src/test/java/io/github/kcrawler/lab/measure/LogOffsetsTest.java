package io.github.kcrawler.lab.measure;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LogOffsetsTest {
    private static TopicPartition tp(String topic, int p) {
        return new TopicPartition(topic, p);
    }

    @Test
    void perTopicDelta_sumsPartitions_newPartitionsFromZero_largestFirst() {
        Map<TopicPartition, Long> start = Map.of(tp("a", 0), 10L, tp("a", 1), 5L, tp("b", 0), 100L,
                tp("gone", 0), 7L);
        Map<TopicPartition, Long> end = Map.of(tp("a", 0), 30L, tp("a", 1), 6L, tp("b", 0), 100L, tp("new", 0), 40L,
                tp("new", 1), 2L);
        Map<String, Long> d = LogOffsets.perTopicDelta(start, end);
        assertThat(d).containsExactly(Map.entry("new", 42L), Map.entry("a", 21L), Map.entry("b", 0L));
    }

    @Test
    void perPage_totalLeavesTheBrokersInternalTopicsApart() {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        counts.put("crawl.links", 40L);
        counts.put("__transaction_state", 30L);
        counts.put("ranker-rank-pages-changelog", 20L);
        counts.put("__consumer_offsets", 10L);
        Map<String, Double> p = LogOffsets.perPage(counts, 10);
        assertThat(p).containsExactly(Map.entry("total", 6.0), Map.entry("brokerInternal", 4.0),
                Map.entry("crawl.links", 4.0), Map.entry("__transaction_state", 3.0),
                Map.entry("ranker-rank-pages-changelog", 2.0), Map.entry("__consumer_offsets", 1.0));
    }

    @Test
    void perPage_totalFirst() {
        Map<String, Double> p = LogOffsets.perPage(new java.util.LinkedHashMap<>(Map.of("x", 30L)), 20);
        assertThat(p).containsExactly(Map.entry("total", 1.5), Map.entry("brokerInternal", 0.0), Map.entry("x", 1.5));
        assertThat(LogOffsets.perPage(Map.of("x", 30L), 0)).containsEntry("total", 0.0);
    }

    @Test
    void recordsAndBytes_comeFromTheirOwnMaps() {
        LogOffsets s = new LogOffsets(Map.of(tp("a", 0), 1L), Map.of(tp("a", 0), 100L));
        LogOffsets e = new LogOffsets(Map.of(tp("a", 0), 4L), Map.of(tp("a", 0), 70L)); // compacted: fewer bytes
        assertThat(LogOffsets.records(s, e)).containsExactly(Map.entry("a", 3L));
        assertThat(LogOffsets.bytes(s, e)).containsExactly(Map.entry("a", -30L));
    }
}
