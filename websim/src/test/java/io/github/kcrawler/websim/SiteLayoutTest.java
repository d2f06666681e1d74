package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteLayoutTest {

    private static final WebSimConfig CONFIG = WebSimConfig.builder().seed(7).ips(64).build();

    @Test
    void sameSeedGivesSameLayoutAndOtherSeedsDiffer() {
        SiteLayout a = SiteLayout.build(50_000, CONFIG);
        SiteLayout b = SiteLayout.build(50_000, CONFIG);
        SiteLayout c = SiteLayout.build(50_000, CONFIG.toBuilder().seed(8).build());
        assertThat(b.hostToIp()).isEqualTo(a.hostToIp());
        assertThat(b.disallowedPages()).isEqualTo(a.disallowedPages());
        for (int h = 0; h < a.numHosts(); h++) {
            assertThat(b.hostStart(h)).isEqualTo(a.hostStart(h));
            assertThat(b.robotsTxt(h)).isEqualTo(a.robotsTxt(h));
        }
        assertThat(c.hostToIp()).isNotEqualTo(a.hostToIp());
    }

    @Test
    void hostsOwnConsecutiveRunsWithHeavyTailedSizes() {
        SiteLayout layout = SiteLayout.build(325_557, CONFIG);
        assertThat(layout.hostStart(0)).isZero();
        assertThat(layout.hostEnd(layout.numHosts() - 1)).isEqualTo(325_557);
        int max = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            assertThat(layout.hostEnd(h)).isGreaterThan(layout.hostStart(h));
            assertThat(layout.hostOf(layout.hostStart(h))).isEqualTo(h);
            assertThat(layout.hostOf(layout.hostEnd(h) - 1)).isEqualTo(h);
            max = Math.max(max, layout.hostEnd(h) - layout.hostStart(h));
        }
        double mean = 325_557.0 / layout.numHosts();
        assertThat(mean).isBetween(15.0, 45.0);
        assertThat(max).isGreaterThan((int) (20 * mean));
    }

    @Test
    void addressesAreLoopbackAndShared() {
        SiteLayout layout = SiteLayout.build(325_557, CONFIG.toBuilder().ips(600).build());
        assertThat(layout.numIps()).isEqualTo(600);
        assertThat(new HashSet<>(layout.ipAddresses())).hasSize(600);
        for (String ip : layout.ipAddresses()) {
            assertThat(ip).matches("127\\.1\\.\\d+\\.\\d+");
            int last = Integer.parseInt(ip.substring(ip.lastIndexOf('.') + 1));
            assertThat(last).isBetween(1, 254);
        }
        assertThat(layout.ipAddress(0)).isEqualTo("127.1.0.1");
        assertThat(layout.ipAddress(254)).isEqualTo("127.1.1.1");
        assertThat(layout.hostsByIp()).allSatisfy(hosts -> assertThat(hosts).hasSizeGreaterThan(1));
        SiteLayout tiny = SiteLayout.build(3, CONFIG);
        assertThat(tiny.numIps()).isEqualTo(tiny.numHosts());
    }

    @Test
    void hostNamesParseBack() {
        SiteLayout layout = SiteLayout.build(10_000, CONFIG);
        int last = layout.numHosts() - 1;
        assertThat(layout.hostName(12)).isEqualTo("h12.websim.test");
        assertThat(layout.hostIndex("h12.websim.test")).isEqualTo(12);
        assertThat(layout.hostIndex("H12.WebSim.Test:8080")).isEqualTo(12);
        assertThat(layout.hostIndex("h" + last + ".websim.test")).isEqualTo(last);
        for (String bad : new String[] {"h" + (last + 1) + ".websim.test", "h012.websim.test", "h.websim.test",
                "h12.websim.example", "x12.websim.test", "h1x.websim.test", "h99999999999.websim.test", "",
                "websim.test"}) {
            assertThat(layout.hostIndex(bad)).as(bad).isEqualTo(-1);
        }
        assertThat(layout.hostIndex(null)).isEqualTo(-1);
        assertThat(layout.pageUrl(layout.hostStart(3), 8080))
                .isEqualTo("http://h3.websim.test:8080/p/" + layout.hostStart(3));
        assertThat(layout.pageUrl(0, 80)).isEqualTo("http://h0.websim.test/p/0");
        assertThatThrownBy(() -> layout.hostOf(10_000)).hasMessageContaining("10000");
    }

    @Test
    void robotsTxtAgreesWithIsDisallowed() {
        WebSimConfig config = CONFIG.toBuilder().robotsDisallowFraction(0.3).crawlDelayFraction(0.2)
                .crawlDelaySeconds(2.5).build();
        SiteLayout layout = SiteLayout.build(60_000, config);
        int withDisallow = 0;
        int withDelay = 0;
        int disallowedPages = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            String robots = layout.robotsTxt(h);
            assertThat(robots).contains("User-agent: *\n");
            String prefix = null;
            for (String line : robots.split("\n")) {
                if (line.startsWith("Disallow:") && line.length() > "Disallow:".length()) {
                    prefix = line.substring("Disallow:".length()).trim();
                }
                if (line.startsWith("Crawl-delay:")) {
                    assertThat(line).isEqualTo("Crawl-delay: 2.5");
                    assertThat(layout.crawlDelaySeconds(h)).isEqualTo(2.5);
                    withDelay++;
                }
            }
            if (prefix != null) {
                withDisallow++;
                assertThat(prefix).startsWith("/p/");
            }
            int matched = 0;
            for (int p = layout.hostStart(h); p < layout.hostEnd(h); p++) {
                boolean matches = prefix != null && ("/p/" + p).startsWith(prefix);
                assertThat(layout.isDisallowed(p)).as("page %d of host %d", p, h).isEqualTo(matches);
                matched += matches ? 1 : 0;
            }
            if (prefix != null) {
                int size = layout.hostEnd(h) - layout.hostStart(h);
                assertThat(matched).isBetween(1, Math.max(1, size / 3));
            }
            disallowedPages += matched;
        }
        double hosts = layout.numHosts();
        assertThat(withDisallow / hosts).isBetween(0.2, 0.4);
        assertThat(withDelay / hosts).isBetween(0.1, 0.3);
        assertThat(layout.disallowedPages().cardinality()).isEqualTo(disallowedPages);
    }

    @Test
    void defaultsHaveNoCrawlDelayAndTenPercentDisallow() {
        SiteLayout layout = SiteLayout.build(100_000, WebSimConfig.defaults());
        long delayed = 0;
        long disallowing = 0;
        for (int h = 0; h < layout.numHosts(); h++) {
            delayed += layout.robotsTxt(h).contains("Crawl-delay") ? 1 : 0;
            disallowing += layout.disallowPath(h) != null ? 1 : 0;
        }
        assertThat(delayed).isZero();
        assertThat(disallowing / (double) layout.numHosts()).isBetween(0.05, 0.15);
    }

    @Test
    void protectedPagesAreNeverDisallowed() {
        WebSimConfig all = CONFIG.toBuilder().robotsDisallowFraction(1.0).build();
        int[] protectedPages = new int[2000];
        for (int i = 0; i < protectedPages.length; i++) {
            protectedPages[i] = i * 7;
        }
        SiteLayout layout = SiteLayout.build(20_000, all, protectedPages);
        for (int p : protectedPages) {
            assertThat(layout.isDisallowed(p)).as("page %d", p).isFalse();
        }
        assertThat(layout.disallowedPages().cardinality()).isPositive();
    }

    @Test
    void hostsFileListsEveryHost(@TempDir Path dir) throws Exception {
        SiteLayout layout = SiteLayout.build(5_000, CONFIG);
        Path file = dir.resolve("sub/websim.hosts");
        layout.writeHostsFile(file);
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.startsWith("#")) {
                String[] f = line.split("\\s+");
                assertThat(f).hasSize(2);
                parsed.put(f[1], f[0]);
            }
        }
        assertThat(parsed).isEqualTo(layout.hostToIp());
        Set<String> ips = new HashSet<>(parsed.values());
        assertThat(ips).hasSize(layout.numIps());
    }
}
