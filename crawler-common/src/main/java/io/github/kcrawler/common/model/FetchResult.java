package io.github.kcrawler.common.model;

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
 */
public record FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind,
                          int status, FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis,
                          String contentHash, long length, String contentType, String redirectTarget,
                          String etag, String lastModified, int outlinks, String error, RevisitMemo revisit) {
    public static final int VERSION = 1;

    /** A result without revisit state (the form before issue 22). */
    public FetchResult(int v, String url, long fingerprint, int depth, long step, FetchKind kind, int status,
                       FetchOutcome outcome, long fetchedAt, long dnsMillis, long fetchMillis, String contentHash,
                       long length, String contentType, String redirectTarget, String etag, String lastModified,
                       int outlinks, String error) {
        this(v, url, fingerprint, depth, step, kind, status, outcome, fetchedAt, dnsMillis, fetchMillis, contentHash,
                length, contentType, redirectTarget, etag, lastModified, outlinks, error, null);
    }
}
