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
 * <pre>{"v":2,"depth":1,"urls":[{"url":"http://b.test/x","ip":"10.0.0.2","fingerprint":-7263...}],"share":0.25}</pre>
 *
 * <p>Format 1 ({@code {"v":1,"url":...,"depth":...,"fingerprint":...}}, one URL a record keyed by its IP) is still
 * read, as a group of one whose entry has no IP: the record key stands in.
 *
 * @param v     payload format version ({@link #VERSION}; 1 when read from a format-1 record)
 * @param depth link distance from a seed, shared by the entries
 * @param urls  the entries, never null
 * @param share the first score each entry gets from the page it was found on ({@link LinkShare}), or null (none
 *              known, or a record written before the field existed): the scheduler admits the entries with it
 */
public record AdmittedUrls(int v, int depth, List<Entry> urls,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Double share) {
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

    /** A record without a share (the form before the thirty-fourth session). */
    public AdmittedUrls(int v, int depth, List<Entry> urls) {
        this(v, depth, urls, null);
    }

    public static AdmittedUrls of(int depth, List<Entry> urls) {
        return new AdmittedUrls(VERSION, depth, urls, null);
    }

    /** Entries admitted from one page, each with {@code share} (or null) as its first score. */
    public static AdmittedUrls of(int depth, List<Entry> urls, Double share) {
        return new AdmittedUrls(VERSION, depth, urls, share);
    }

    /** Reads format 2 and format 1 (a lone {@code url} and {@code fingerprint} become a group of one). */
    @JsonCreator
    static AdmittedUrls json(@JsonProperty("v") int v, @JsonProperty("depth") int depth,
                             @JsonProperty("urls") List<Entry> urls, @JsonProperty("url") String url,
                             @JsonProperty("fingerprint") long fingerprint, @JsonProperty("share") Double share) {
        if (urls == null && url != null) {
            urls = java.util.Collections.singletonList(new Entry(url, null, fingerprint));
        }
        if (urls != null && urls.contains(null)) {
            urls = urls.stream().map(e -> e == null ? new Entry(null, null, 0) : e).toList(); // validated per entry
        }
        return new AdmittedUrls(v, depth, urls, share);
    }
}
