package io.github.kcrawler.lab.demo;

import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The default demo's web is chosen by the politeness bound (issue 19, item 4), and seeds spread over it. */
class DemoDefaultsTest {
    private static long busiest(int pages, int ips, double pagesPerHost) {
        WebSimConfig c = WebSimConfig.builder().generate(pages).ips(ips).meanPagesPerHost(pagesPerHost).build();
        return DemoRunner.busiestIpPages(SiteLayout.build(pages, c, new int[] {0}));
    }

    @Test
    void defaultDemoWeb_busiestIpBoundWellUnderNinetySeconds() {
        long pages = busiest(DemoOptions.DEFAULT_GENERATED_PAGES, DemoOptions.DEFAULT_IPS,
                DemoOptions.DEFAULT_DEMO_PAGES_PER_HOST);
        double boundSeconds = pages * DemoOptions.DEFAULT_POLITENESS_MS / 1000.0;
        assertThat(pages).isEqualTo(195); // the arithmetic of DemoOptions' comment
        assertThat(boundSeconds).isLessThanOrEqualTo(30.0);
        assertThat(DemoOptions.DEFAULT_POLITENESS_MS).isGreaterThanOrEqualTo(100); // BUbiNG's floor
        // the former defaults: ≥ 185 s whatever the pipeline does
        assertThat(busiest(20_000, 256, 30) * 0.1).isGreaterThan(180.0);
    }

    @Test
    void busiestIpPages_sumsTheHostsOfEachIp() {
        WebSimConfig c = WebSimConfig.builder().generate(1_000).ips(3).meanPagesPerHost(10).build();
        SiteLayout layout = SiteLayout.build(1_000, c, new int[] {0});
        long[] perIp = new long[layout.numIps()];
        for (int p = 0; p < layout.numPages(); p++) {
            perIp[layout.ipIndexOfPage(p)]++;
        }
        assertThat(DemoRunner.busiestIpPages(layout)).isEqualTo(java.util.Arrays.stream(perIp).max().orElseThrow());
    }

    @Test
    void seedPages_spreadEvenlyFromPageZero() {
        assertThat(DemoOptions.seedPages(1, 100)).containsExactly(0);
        assertThat(DemoOptions.seedPages(4, 100)).containsExactly(0, 25, 50, 75);
        assertThat(DemoOptions.seedPages(3, 10)).containsExactly(0, 3, 6);
        assertThat(DemoOptions.seedPages(10, 10)).hasSize(10).doesNotHaveDuplicates();
        assertThatThrownBy(() -> DemoOptions.seedPages(11, 10)).isInstanceOf(IllegalArgumentException.class);
        DemoOptions o = new DemoOptions(null, 100, 0, 100, 4, 0, 10, 1, Path.of("x"), 10, false, Map.of(), 3);
        assertThat(o.seeds()).isEqualTo(1);
        assertThat(o.withSeeds(8).seeds()).isEqualTo(8);
        assertThatThrownBy(() -> o.withSeeds(101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DemoOptions(null, 100, 0, 100, 4, 0, 10, 1, Path.of("x"), 10, false,
                Map.of(DemoOptions.STORE_METRICS_KEY, "x"), 3).withStoreMetrics(true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not set both");
        assertThat(List.of(o.withStoreMetrics(true).storeMetrics())).containsExactly(true);
    }
}
