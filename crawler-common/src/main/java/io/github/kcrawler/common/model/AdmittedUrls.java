package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * URLs that passed the URL-seen test (never admitted before, or forgotten since), from one
 * {@link DiscoveredUrls} record: one record per partition (issue 19). Topic {@code crawl.urls.admitted}, key: the IP
 * of one of the entries; every entry belongs to the key's partition, so the scheduler task that reads it owns each
 * entry's IP and admits each entry as if it had come alone under its own IP.
 *
 * <pre>{"v":2,"depth":1,"urls":[{"url":"http://b.test/x","ip":"10.0.0.2","fingerprint":-7263...}]}</pre>
 *
 * <p>Format 1 ({@code {"v":1,"url":...,"depth":...,"fingerprint":...}}, one URL a record keyed by its IP) is still
 * read, as a group of one whose entry has no IP: the record key stands in.
 *
 * @param v     payload format version ({@link #VERSION}; 1 when read from a format-1 record)
 * @param depth link distance from a seed, shared by the entries
 * @param urls  the entries, never null
 */
public record AdmittedUrls(int v, int depth, List<Entry> urls) {
    public static final int VERSION = 2;

    /**
     * One admitted URL.
     *
     * @param fingerprint the 64-bit URL fingerprint ({@code Fingerprints.url})
     * @param ip          the IP of its host; null only in a format-1 record (the record key is its IP)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String url, String ip, long fingerprint) {
    }

    public AdmittedUrls {
        urls = urls == null ? List.of() : List.copyOf(urls);
    }

    public static AdmittedUrls of(int depth, List<Entry> urls) {
        return new AdmittedUrls(VERSION, depth, urls);
    }

    /** Reads format 2 and format 1 (a lone {@code url} and {@code fingerprint} become a group of one). */
    @JsonCreator
    static AdmittedUrls json(@JsonProperty("v") int v, @JsonProperty("depth") int depth,
                             @JsonProperty("urls") List<Entry> urls, @JsonProperty("url") String url,
                             @JsonProperty("fingerprint") long fingerprint) {
        if (urls == null && url != null) {
            urls = java.util.Collections.singletonList(new Entry(url, null, fingerprint));
        }
        if (urls != null && urls.contains(null)) {
            urls = urls.stream().map(e -> e == null ? new Entry(null, null, 0) : e).toList(); // validated per entry
        }
        return new AdmittedUrls(v, depth, urls);
    }
}
