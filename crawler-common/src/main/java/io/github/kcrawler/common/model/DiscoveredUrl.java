package io.github.kcrawler.common.model;

/**
 * A URL found by a fetcher (an outlink or a redirect target) or given as a seed, on its way to the URL-seen test.
 * Topic {@code crawl.urls.discovered}, key: the IP its host resolves to. The URL is already normalised.
 *
 * @param v         payload format version ({@link #VERSION})
 * @param url       normalised absolute URL
 * @param depth     link distance from a seed (seeds are 0)
 * @param source    the page it was found on, or null for a seed
 * @param discoveredAt epoch millis at discovery
 */
public record DiscoveredUrl(int v, String url, int depth, String source, long discoveredAt) {
    public static final int VERSION = 1;

    public static DiscoveredUrl of(String url, int depth, String source, long discoveredAt) {
        return new DiscoveredUrl(VERSION, url, depth, source, discoveredAt);
    }
}
