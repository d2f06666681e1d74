package io.github.kcrawler.fetcher.sitemap;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;

import java.util.Map;

/**
 * The fetcher's sitemap settings (issue 23), one group of {@code FetcherConfig}: every key, default and limit is
 * declared here once, as a {@link Setting}.
 *
 * @param enabled    {@code sitemaps}: read the sitemaps a site's robots.txt names (default true)
 * @param maxBytes   {@code sitemap-max-bytes}: a sitemap file is read up to this many bytes, after gzip is
 *                   undone (gzip inside the file or as Content-Encoding); what lies beyond is not read (reason
 *                   {@code too_large} / {@code inflated_too_large}, the prefix is still parsed). The protocol allows
 *                   50 MiB; 10 MiB by default (a sitemap of 50,000 URLs is 3–10 MiB), 1 KiB..50 MiB
 * @param maxUrls    {@code sitemap-max-urls}: URLs taken from one sitemap file (the protocol's 50,000 by default;
 *                   1..1,000,000); the rest are counted ({@code limit}) and dropped
 * @param maxPerHost {@code sitemap-max-per-host}: sitemap files (index files included) fetched for one host each
 *                   time its robots.txt is read (default 10; 0..1,000)
 * @param maxDepth   {@code sitemap-max-depth}: levels of sitemap files followed from robots.txt: 1 = only the files
 *                   robots.txt names; 2 (default) = also the files a sitemap index names (the protocol forbids an
 *                   index of indexes); 1..5
 */
public record SitemapSettings(boolean enabled, int maxBytes, int maxUrls, int maxPerHost, int maxDepth) {
    public static final int MAX_BYTES_LIMIT = 50 * 1024 * 1024;
    public static final Setting<Boolean> ENABLED = Setting.bool("sitemaps", true,
            "read the sitemaps a site's robots.txt names (gzip, indexes; paced like pages)");
    public static final Setting<Integer> MAX_BYTES = Setting.integer("sitemap-max-bytes", 10 * 1024 * 1024,
            Check.range(1024, MAX_BYTES_LIMIT), "a sitemap file is read up to this many bytes after gzip is undone");
    public static final Setting<Integer> MAX_URLS = Setting.integer("sitemap-max-urls", 50_000,
            Check.range(1, 1_000_000), "URLs taken from one sitemap file; the rest are counted and dropped");
    public static final Setting<Integer> MAX_PER_HOST = Setting.integer("sitemap-max-per-host", 10,
            Check.range(0, 1_000), "sitemap files (indexes included) fetched for one host per robots.txt read");
    public static final Setting<Integer> MAX_DEPTH = Setting.integer("sitemap-max-depth", 2, Check.range(1, 5),
            "levels of sitemap files followed from robots.txt (2: also the files an index names)");
    /** The sitemap keys, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(ENABLED, MAX_BYTES, MAX_URLS, MAX_PER_HOST, MAX_DEPTH);
    /** Every key with its default, in the order {@code --help} prints them. */
    public static final Map<String, String> DEFAULTS = SETTINGS.defaults();
    public static final SitemapSettings DEFAULT = from(Settings.empty());

    public SitemapSettings {
        MAX_BYTES.check(maxBytes);
        MAX_URLS.check(maxUrls);
        MAX_PER_HOST.check(maxPerHost);
        MAX_DEPTH.check(maxDepth);
    }

    /** Reads the sitemap keys (defaults where unset). */
    public static SitemapSettings from(Settings s) {
        return new SitemapSettings(s.get(ENABLED), s.get(MAX_BYTES), s.get(MAX_URLS), s.get(MAX_PER_HOST),
                s.get(MAX_DEPTH));
    }
}
