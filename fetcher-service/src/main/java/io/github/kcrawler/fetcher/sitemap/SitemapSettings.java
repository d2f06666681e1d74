package io.github.kcrawler.fetcher.sitemap;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fetcher's sitemap settings (issue 23), one group of {@code FetcherConfig}: every key, default and limit is
 * declared here once.
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
    /** Every key with its default, in the order {@code --help} prints them. */
    public static final Map<String, String> DEFAULTS = defaults();
    public static final int MAX_BYTES_LIMIT = 50 * 1024 * 1024;
    public static final SitemapSettings DEFAULT = new SitemapSettings(true, 10 * 1024 * 1024, 50_000, 10, 2);

    public SitemapSettings {
        check(maxBytes >= 1024 && maxBytes <= MAX_BYTES_LIMIT,
                "sitemap-max-bytes must be in 1024.." + MAX_BYTES_LIMIT + ", was " + maxBytes);
        check(maxUrls >= 1 && maxUrls <= 1_000_000, "sitemap-max-urls must be in 1..1000000, was " + maxUrls);
        check(maxPerHost >= 0 && maxPerHost <= 1_000, "sitemap-max-per-host must be in 0..1000, was " + maxPerHost);
        check(maxDepth >= 1 && maxDepth <= 5, "sitemap-max-depth must be in 1..5, was " + maxDepth);
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("sitemaps", "true");
        d.put("sitemap-max-bytes", String.valueOf(10 * 1024 * 1024));
        d.put("sitemap-max-urls", "50000");
        d.put("sitemap-max-per-host", "10");
        d.put("sitemap-max-depth", "2");
        return java.util.Collections.unmodifiableMap(d);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
