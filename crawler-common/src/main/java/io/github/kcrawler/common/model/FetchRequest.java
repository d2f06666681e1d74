package io.github.kcrawler.common.model;

/**
 * One fetch handed to the fetchers by the scheduler. Topic {@code crawl.fetch.requests}, key: host IP.
 *
 * @param step          scheduler step that released it (for the step-completion protocol)
 * @param notBefore     epoch millis before which the fetcher must not send the request
 * @param etag          validator for a conditional GET, or null
 * @param lastModified  validator for a conditional GET (HTTP date), or null
 */
public record FetchRequest(int v, String url, long fingerprint, int depth, long step, long notBefore,
                           String etag, String lastModified, FetchKind kind) {
    public static final int VERSION = 1;

    public static FetchRequest fresh(String url, long fingerprint, int depth, long step, long notBefore) {
        return new FetchRequest(VERSION, url, fingerprint, depth, step, notBefore, null, null, FetchKind.NEW);
    }
}
