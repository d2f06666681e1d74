package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * URLs found on one page (its outlinks, or the target of its redirect) or given as seeds, on their way to the
 * URL-seen test: one record per target partition, not one per URL (issue 19). Topic {@code crawl.urls.discovered},
 * key: the IP of one of the entries — all entries of a record belong to the key's partition (grouped with
 * {@link io.github.kcrawler.common.topic.KeyPartitioner}, see {@link io.github.kcrawler.common.topic.UrlBatches}), so
 * the dedup task that reads the record owns every entry's host. The URLs are already normalised.
 *
 * <pre>{"v":2,"source":"http://a.test/","depth":1,"discoveredAt":1700000000000,
 *  "urls":[{"url":"http://b.test/x","ip":"10.0.0.2"},{"url":"http://c.test/","ip":"10.0.0.9"}],"share":0.25}</pre>
 *
 * <p>Format 1 (one URL a record, {@code {"v":1,"url":...,"depth":...,"source":...,"discoveredAt":...}}, keyed by
 * its IP) is still read: as a group of one whose entry has no IP of its own, so the record key stands in.
 *
 * @param v            payload format version ({@link #VERSION}; 1 when read from a format-1 record)
 * @param source       the page the URLs were found on, or null for seeds
 * @param depth        link distance from a seed shared by every entry (seeds 0; a redirect target keeps its page's)
 * @param discoveredAt epoch millis at discovery
 * @param urls         the entries, never null (may be empty only in a malformed record)
 * @param share        the first score each entry gets from {@code source} ({@link LinkShare}), or null: seeds,
 *                     redirect targets, links found on a revisit or by a request without the scheduler's score,
 *                     and records written before the field existed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DiscoveredUrls(int v, String source, int depth, long discoveredAt, List<Entry> urls, Double share) {
    public static final int VERSION = 2;

    /**
     * One discovered URL and the IP its host resolved to (the key it would travel under alone); {@code ip} is null
     * only in a format-1 record, where the record key is its IP.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String url, String ip) {
    }

    public DiscoveredUrls {
        urls = urls == null ? List.of() : List.copyOf(urls);
    }

    /** A record without a share (the form before the thirty-fourth session). */
    public DiscoveredUrls(int v, String source, int depth, long discoveredAt, List<Entry> urls) {
        this(v, source, depth, discoveredAt, urls, null);
    }

    public static DiscoveredUrls of(String source, int depth, long discoveredAt, List<Entry> urls) {
        return new DiscoveredUrls(VERSION, source, depth, discoveredAt, urls, null);
    }

    /** URLs found on {@code source}, each getting {@code share} (or null) as its first score. */
    public static DiscoveredUrls of(String source, int depth, long discoveredAt, List<Entry> urls, Double share) {
        return new DiscoveredUrls(VERSION, source, depth, discoveredAt, urls, share);
    }

    /** Reads format 2 and format 1 (a lone {@code url} becomes a group of one without an IP). */
    @JsonCreator
    static DiscoveredUrls json(@JsonProperty("v") int v, @JsonProperty("source") String source,
                               @JsonProperty("depth") int depth, @JsonProperty("discoveredAt") long discoveredAt,
                               @JsonProperty("urls") List<Entry> urls, @JsonProperty("url") String url,
                               @JsonProperty("share") Double share) {
        if (urls == null && url != null) {
            urls = java.util.Collections.singletonList(new Entry(url, null));
        }
        if (urls != null && urls.contains(null)) {
            urls = urls.stream().map(e -> e == null ? new Entry(null, null) : e).toList(); // validated per entry
        }
        return new DiscoveredUrls(v, source, depth, discoveredAt, urls, share);
    }
}
