package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StoreOpsTest {
    @Test
    void between_subtractsTheStart_perPage_storesLargestFirst() {
        Map<String, long[]> start = Map.of("url-seen", new long[] {10, 10, 0, 0});
        Map<String, long[]> end = Map.of("url-seen", new long[] {30, 20, 0, 0}, "rank-pages",
                new long[] {40, 40, 4, 16});
        StoreOps ops = StoreOps.between(start, end, 10);
        assertThat(ops.reads()).isEqualTo(6.0);   // (20 + 40) / 10
        assertThat(ops.writes()).isEqualTo(5.0);  // (10 + 40) / 10
        assertThat(ops.seeks()).isEqualTo(0.4);
        assertThat(ops.nexts()).isEqualTo(1.6);
        assertThat(ops.total()).isEqualTo(13.0);
        assertThat(ops.stores()).containsExactly(Map.entry("rank-pages", 10.0), Map.entry("url-seen", 3.0));
        assertThat(StoreOps.between(start, end, 0).total()).isZero();
    }
}
