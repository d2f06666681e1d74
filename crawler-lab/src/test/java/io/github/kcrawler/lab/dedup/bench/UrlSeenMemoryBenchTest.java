package io.github.kcrawler.lab.dedup.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The paper's linear interpolation of the LRU-alone size at a hit rate, and the automatic scale. */
class UrlSeenMemoryBenchTest {
    private static final double[] SIZES = {256, 512, 1024, 2048};
    private static final double[] HITS = {0.50, 0.60, 0.65, 0.70};

    @Test
    void interpolatesLinearly_betweenTheBracketingPoints() {
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.55)).isCloseTo(384.0, within(1e-9));
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.675)).isCloseTo(1536.0, within(1e-9));
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.50)).isEqualTo(256.0);
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.70)).isEqualTo(2048.0);
    }

    @Test
    void outsideTheMeasuredRange_thereIsNoEquivalentSize() {
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.49)).isNaN();
        assertThat(UrlSeenMemoryBench.interpolate(SIZES, HITS, 0.71)).isNaN();
    }

    @Test
    void autoScale_mapsThePapersStreamToItsGrid() {
        assertThat(UrlSeenMemoryBench.autoScale(4_155_528_923L)).isEqualTo(18);
        assertThat(UrlSeenMemoryBench.autoScale(3_216_159L)).isEqualTo(8); // cnr-2000
        assertThat(UrlSeenMemoryBench.autoScale(100_000_000L)).isEqualTo(13);
    }
}
