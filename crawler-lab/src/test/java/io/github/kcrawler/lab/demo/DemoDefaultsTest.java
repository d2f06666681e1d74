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
    void defaultDemoWeb_busiestIpBoundUnderNinetySeconds_andPolitenessBinds() {
        WebSimConfig c = WebSimConfig.builder().generate(DemoOptions.DEFAULT_GENERATED_PAGES)
                .ips(DemoOptions.DEFAULT_IPS).meanPagesPerHost(DemoOptions.DEFAULT_DEMO_PAGES_PER_HOST).build();
        SiteLayout layout = SiteLayout.build(DemoOptions.DEFAULT_GENERATED_PAGES, c, new int[] {0});
        long[] perIp = new long[layout.numIps()];
        for (int p = 0; p < layout.numPages(); p++) {
            perIp[layout.ipIndexOfPage(p)]++;
        }
        java.util.Arrays.sort(perIp);
        long pages = DemoRunner.busiestIpPages(layout);
        assertThat(pages).isEqualTo(559).isEqualTo(perIp[perIp.length - 1]); // the arithmetic of DemoOptions' comment
        assertThat(perIp[perIp.length - 10]).as("the tenth busiest IP").isEqualTo(310);
        double boundSeconds = pages * DemoOptions.DEFAULT_POLITENESS_MS / 1000.0;
        assertThat(boundSeconds).as("the busiest IP's pages alone, robots.txt not counted").isBetween(50.0, 65.0);
        // politeness binds: the IPs at one request per T ask for less than the pipeline carries on 2 cores
        assertThat(DemoOptions.DEFAULT_IPS * 1000 / DemoOptions.DEFAULT_POLITENESS_MS).isLessThanOrEqualTo(640);
        assertThat(DemoOptions.DEFAULT_POLITENESS_MS).isGreaterThanOrEqualTo(100); // BUbiNG's floor
        assertThat(DemoOptions.DEFAULT_DEMO_SEEDS).isLessThanOrEqualTo(DemoOptions.DEFAULT_GENERATED_PAGES);
        // the former defaults: ≥ 185 s whatever the pipeline does, and 195 pages spread over the crawl
        assertThat(busiest(20_000, 256, 30) * 0.1).isGreaterThan(180.0);
        assertThat(busiest(20_000, 1_024, 3)).isEqualTo(195);
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
