package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fetcher's settings: documented defaults, flags and environment, and errors that name the bad value. */
class FetcherConfigTest {
    @Test
    void defaultsMatchTheDocumentedValues() {
        FetcherConfig c = FetcherConfig.defaults(Map.of());
        assertThat(c.http().userAgent()).isEqualTo("kcrawler/0.1 (+https://github.com/kcrawler)");
        assertThat(c.limits().maxInFlight()).isEqualTo(512);
        assertThat(c.politenessMs()).isEqualTo(1000);
        assertThat(c.robots().maxCrawlDelayMs()).isEqualTo(30_000);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(10 * 1024 * 1024);
        assertThat(c.limits().maxOutlinks()).isEqualTo(5000);
        assertThat(c.followNofollow()).isFalse();
        assertThat(c.limits().maxPages()).isZero();
        assertThat(c.warc().maxBytes()).isEqualTo(1L << 30);
        assertThat(c.http().proxy()).isNull();
        assertThat(c.dns().hostsFile()).isNull();
        assertThat(c.scope().maxDepth()).isEqualTo(20);
    }

    @Test
    void sitemapAndCdxSettingsHaveDefaultsAndRanges() {
        FetcherConfig c = FetcherConfig.defaults(Map.of());
        assertThat(c.warc().cdx()).isTrue();
        assertThat(c.sitemaps()).isEqualTo(io.github.kcrawler.fetcher.sitemap.SitemapSettings.DEFAULT);
        assertThat(c.sitemaps().enabled()).isTrue();
        assertThat(c.sitemaps().maxUrls()).isEqualTo(50_000);
        FetcherConfig set = FetcherConfig.defaults(Map.of("sitemaps", "false", "warc-cdx", "false",
                "sitemap-max-bytes", "2048", "sitemap-max-urls", "7", "sitemap-max-per-host", "0",
                "sitemap-max-depth", "1"));
        assertThat(set.warc().cdx()).isFalse();
        assertThat(set.sitemaps()).isEqualTo(new io.github.kcrawler.fetcher.sitemap.SitemapSettings(false, 2048, 7,
                0, 1));
        for (String[] bad : new String[][] {{"sitemap-max-bytes", "100"}, {"sitemap-max-bytes", "60000000"},
                {"sitemap-max-urls", "0"}, {"sitemap-max-per-host", "1001"}, {"sitemap-max-depth", "0"},
                {"sitemap-max-depth", "6"}}) {
            assertThatThrownBy(() -> FetcherConfig.defaults(Map.of(bad[0], bad[1]))).hasMessageContaining(bad[0])
                    .hasMessageContaining(bad[1]);
        }
    }

    @Test
    void readsFlagsAndEnvironment() {
        Settings s = Settings.parse(FetcherConfig.KEYS, Map.of("CRAWLER_POLITENESS_MS", "250"),
                "--max-in-flight", "64", "--proxy", "127.0.0.1:3128", "--warc-dir", "none",
                "--allow-addresses", "127.0.0.0/8", "--max-depth", "3", "--follow-nofollow");
        FetcherConfig c = FetcherConfig.from(s);
        assertThat(c.politenessMs()).isEqualTo(250);
        assertThat(c.limits().maxInFlight()).isEqualTo(64);
        assertThat(c.http().proxy().getPort()).isEqualTo(3128);
        assertThat(c.warc().dir()).isNull();
        assertThat(c.followNofollow()).isTrue();
        assertThat(c.scope().maxDepth()).isEqualTo(3);
        assertThat(c.addressPolicy().check(java.net.InetAddress.getLoopbackAddress()).permitted()).isTrue();
    }

    @Test
    void valueBoundsAreSettingsWithDefaultsAndRanges() {
        FetcherConfig c = FetcherConfig.defaults(Map.of());
        assertThat(c.limits().bounds()).isEqualTo(io.github.kcrawler.fetcher.http.ValueBounds.Limits.DEFAULTS);
        assertThat(c.limits().bounds().urlLength()).isEqualTo(c.scope().maxUrlLength());
        FetcherConfig set = FetcherConfig.defaults(Map.of("max-etag-bytes", "0", "max-content-type-bytes", "100",
                "max-url-length", "4096", "max-link-list-bytes", "65536"));
        assertThat(set.limits().bounds().etagBytes()).isZero();
        assertThat(set.limits().bounds().contentTypeBytes()).isEqualTo(100);
        assertThat(set.limits().bounds().urlLength()).isEqualTo(4096);
        assertThat(set.limits().bounds().linkListBytes()).isEqualTo(65_536);
        for (String key : new String[] {"max-etag-bytes", "max-last-modified-bytes", "max-content-type-bytes",
                "max-retry-after-bytes", "max-error-bytes", "max-link-list-bytes"}) {
            assertThat(FetcherConfig.DEFAULTS).containsKey(key);
            assertThatThrownBy(() -> FetcherConfig.defaults(Map.of(key, "99999999"))).hasMessageContaining(key)
                    .hasMessageContaining("99999999");
            assertThatThrownBy(() -> FetcherConfig.defaults(Map.of(key, "-1"))).hasMessageContaining(key);
        }
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("max-in-flight", "0")))
                .hasMessageContaining("max-in-flight").hasMessageContaining("0");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("proxy", "nohost")))
                .hasMessageContaining("proxy").hasMessageContaining("nohost");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("warc-gzip-level", "12")))
                .hasMessageContaining("warc-gzip-level");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("user-agent", " ")))
                .hasMessageContaining("user-agent");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("total-timeout-ms", "5", "connect-timeout-ms", "10")))
                .hasMessageContaining("total-timeout-ms");
        assertThatThrownBy(() -> Settings.parse(FetcherConfig.KEYS, Map.of(), "--politness-ms", "5"))
                .hasMessageContaining("politness-ms");
    }

    @Test
    void intervalIsTheLargerOfTAndTheClampedCrawlDelay() {
        FetcherConfig c = FetcherConfig.defaults(Map.of("politeness-ms", "1000", "max-crawl-delay-ms", "5000"));
        assertThat(c.intervalFor(0)).isEqualTo(1000);
        assertThat(c.intervalFor(3000)).isEqualTo(3000);
        assertThat(c.intervalFor(60_000)).isEqualTo(5000);
    }

    @Test
    void helpListsEveryKeyWithItsDefault() {
        String help = FetcherConfig.help();
        for (String key : FetcherConfig.KEYS) {
            assertThat(help).contains("--" + key);
        }
        assertThat(help).contains("CRAWLER_POLITENESS_MS").contains("kcrawler/0.1");
    }

    @Test
    void instanceIdIsAutomaticByDefaultAndMustBeASafeName() {
        assertThat(FetcherConfig.defaults(Map.of()).instanceId()).isEmpty();
        assertThat(FetcherConfig.defaults(Map.of("instance-id", "fetcher-2")).instanceId()).isEqualTo("fetcher-2");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("instance-id", "a b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("instance-id")
                .hasMessageContaining("a b");
    }

    @Test
    void eachKeyLandsInItsGroup_andEveryGroupKeyIsAFetcherKey() {
        FetcherConfig c = FetcherConfig.defaults(Map.ofEntries(Map.entry("connect-timeout-ms", "111"),
                Map.entry("max-redirects", "3"), Map.entry("dns-max-concurrent", "7"), Map.entry("dns-max-ttl-s", "9"),
                Map.entry("robots-agent", "bot"), Map.entry("robots-ttl-ms", "5000"), Map.entry("warc-prefix", "w"),
                Map.entry("warc-gzip-level", "6"), Map.entry("max-pending", "600"), Map.entry("max-backoff-ms", "7000"),
                Map.entry("max-error-bytes", "128"), Map.entry("io-threads", "2"), Map.entry("instance-id", "f-1")));
        assertThat(c.http().connectTimeoutMs()).isEqualTo(111);
        assertThat(c.http().maxRedirects()).isEqualTo(3);
        assertThat(c.dns().maxConcurrent()).isEqualTo(7);
        assertThat(c.dns().maxTtlSeconds()).isEqualTo(9);
        assertThat(c.robots().agent()).isEqualTo("bot");
        assertThat(c.robots().ttlMs()).isEqualTo(5000);
        assertThat(c.warc().prefix()).isEqualTo("w");
        assertThat(c.warc().gzipLevel()).isEqualTo(6);
        assertThat(c.limits().maxPending()).isEqualTo(600);
        assertThat(c.limits().maxBackoffMs()).isEqualTo(7000);
        assertThat(c.limits().bounds().errorBytes()).isEqualTo(128);
        assertThat(c.ioThreads()).isEqualTo(2);
        assertThat(c.instanceId()).isEqualTo("f-1");
        for (io.github.kcrawler.common.config.SettingSet group : java.util.List.of(FetcherConfig.Http.SETTINGS,
                FetcherConfig.Dns.SETTINGS, FetcherConfig.Robots.SETTINGS, FetcherConfig.Warc.SETTINGS,
                FetcherConfig.Limits.SETTINGS)) {
            assertThat(FetcherConfig.KEYS).containsAll(group.keys());
        }
        // the cross-group rules keep their messages
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("max-pending", "10")))
                .hasMessage("max-pending must be in max-in-flight (512)..10000000, was 10");
        assertThatThrownBy(() -> FetcherConfig.defaults(Map.of("politeness-ms", "5000", "max-backoff-ms", "4000")))
                .hasMessage("max-backoff-ms (4000) must be >= politeness-ms (5000)");
    }
}
