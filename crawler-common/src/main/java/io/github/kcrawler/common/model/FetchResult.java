package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * The outcome of one fetch request. Topic {@code crawl.fetch.results}, key: host IP.
 *
 * @param status         HTTP status, or 0 when no response was received
 * @param outcome        reason code
 * @param fetchedAt      epoch millis when the request was sent (0 if never sent)
 * @param dnsMillis      time spent resolving the host
 * @param fetchMillis    time from request sent to body complete
 * @param contentHash    hex fingerprint of the body (128 bits), or null
 * @param length         body bytes received (after decompression)
 * @param contentType    media type, or null
 * @param redirectTarget absolute target of a 3xx, or null
 * @param etag           ETag response header, or null
 * @param lastModified   Last-Modified response header, or null
 * @param outlinks       number of outlinks extracted
 * @param error          human-readable detail when the outcome is not OK, or null
 * @param revisit        the request's revisit state, echoed unchanged by the fetcher (issue 22), or null
 * @param links          the page's link graph (issue 19: one record per page, not a result and a {@link LinkList}):
 *                       for an HTML page, its in-scope outlinks that resolved to an allowed address, in document
 *                       order, as the {@code LinkList} carried them (up to {@code max-link-list-bytes}; links too
 *                       deep to follow included); null for anything that was not parsed as HTML, and left out of
 *                       the JSON then. The ranker reads it.
 * @param localLinkPartitions not 0 when this record also stands for the page's discovered URLs on its own partition
 *                       (issue 19: work whose source and target share a partition is done in place): then every
 *                       link of {@code links} whose IP Kafka's partitioner puts on the same partition as this
 *                       record's key, for this many partitions (the fetcher's {@code partitions}), is a discovered
 *                       URL one level deeper than the page, which dedup admits from here; the fetcher wrote no
 *                       {@code crawl.urls.discovered} record for them. Carrying the count, not a flag, means a reader
 *                       configured with another count still takes exactly the links the fetcher left out (and
 *                       reroutes those its own count puts elsewhere). Set only when the page's links are followable
 *                       and its graph was not cut at {@code max-link-list-bytes} (then the graph holds exactly the
 *                       discovered URLs); 0, and left out of the JSON, otherwise and in results written before it.
 * @param linkShare      the first score each link of {@code links} gets from this page ({@link LinkShare}), set on a
 *                       first fetch whose request carried the scheduler's score; null, and left out of the JSON,
 *                       otherwise and in results written before it
 */
public record FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind,
                          int status, FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis,
                          String contentHash, long length, String contentType, String redirectTarget,
                          String etag, String lastModified, int outlinks, String error, RevisitMemo revisit,
                          @JsonInclude(JsonInclude.Include.NON_NULL) List<LinkList.Link> links,
                          @JsonInclude(JsonInclude.Include.NON_DEFAULT) int localLinkPartitions,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double linkShare) {
    public static final int VERSION = 1;

    public FetchResult {
        links = links == null ? null : LinkList.copyOf(links);
    }

    /** A result without a link share (the form before the thirty-fourth session). */
    public FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind, int status,
                       FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis, String contentHash,
                       long length, String contentType, String redirectTarget, String etag, String lastModified,
                       int outlinks, String error, RevisitMemo revisit, List<LinkList.Link> links,
                       int localLinkPartitions) {
        this(v, url, fingerprint, depth, step, kind, status, outcome, fetchedAt, dnsMillis, fetchMillis, contentHash,
                length, contentType, redirectTarget, etag, lastModified, outlinks, error, revisit, links,
                localLinkPartitions, null);
    }

    /** A result without a link graph (not an HTML page, or written before issue 19's merge). */
    public FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind, int status,
                       FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis, String contentHash,
                       long length, String contentType, String redirectTarget, String etag, String lastModified,
                       int outlinks, String error, RevisitMemo revisit) {
        this(v, url, fingerprint, depth, step, kind, status, outcome, fetchedAt, dnsMillis, fetchMillis, contentHash,
                length, contentType, redirectTarget, etag, lastModified, outlinks, error, revisit, null, 0);
    }

    /** This result carrying {@code graph} as its page's link graph. */
    public FetchResult withLinks(List<LinkList.Link> graph) {
        return withLinks(graph, 0);
    }

    /**
     * This result carrying {@code graph}, which with {@code localPartitions} > 0 also stands for the discovered URLs
     * on the key's partition by that partition count.
     */
    public FetchResult withLinks(List<LinkList.Link> graph, int localPartitions) {
        return withLinks(graph, localPartitions, null);
    }

    /** As {@link #withLinks(List, int)}, with the first score each link of the graph gets ({@link LinkShare}). */
    public FetchResult withLinks(List<LinkList.Link> graph, int localPartitions, Double share) {
        return new FetchResult(v, url, fingerprint, depth, step, kind, status, outcome, fetchedAt, dnsMillis,
                fetchMillis, contentHash, length, contentType, redirectTarget, etag, lastModified, outlinks, error,
                revisit, graph, localPartitions, share);
    }

    /** The page's link graph as the {@link LinkList} the fetcher wrote before issue 19's merge, or null if none. */
    public LinkList linkList() {
        return links == null ? null : new LinkList(LinkList.VERSION, url, fingerprint, links);
    }

    /** A result without revisit state (the form before issue 22). */
    public FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind, int status,
                       FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis, String contentHash,
                       long length, String contentType, String redirectTarget, String etag, String lastModified,
                       int outlinks, String error) {
        this(v, url, fingerprint, depth, step, kind, status, outcome, fetchedAt, dnsMillis, fetchMillis, contentHash,
                length, contentType, redirectTarget, etag, lastModified, outlinks, error, null);
    }
}
