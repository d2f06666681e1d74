package io.github.kcrawler.common.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One fetch handed to the fetchers by the scheduler. Topic {@code crawl.fetch.requests}, key: host IP.
 *
 * @param step          scheduler step that released it (for the step-completion protocol)
 * @param notBefore     epoch millis before which the fetcher must not send the request
 * @param etag          validator for a conditional GET, or null; null on a REVISIT whose {@code revisit} memo carries
 *                      the validators (each is sent once; the fetcher reads it from either, this field first)
 * @param lastModified  validator for a conditional GET (HTTP date), or null; likewise
 * @param revisit       the page's revisit state on a REVISIT request (issue 22), echoed into the result; null on a
 *                      first fetch and in records written before the field existed
 * @param score         the URL's score in the scheduler when it was released, on a first fetch ({@link LinkShare}:
 *                      the fetcher derives its links' first score from it); null on a REVISIT, and in records
 *                      written before the field existed
 */
public record FetchRequest(int v, String url, long fingerprint, int depth, long step, long notBefore,
                           String etag, String lastModified, FetchKind kind, RevisitMemo revisit,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Double score) {
    public static final int VERSION = 1;

    /** A request without revisit state (the form before issue 22). */
    public FetchRequest(int v, String url, long fingerprint, int depth, long step, long notBefore, String etag,
                        String lastModified, FetchKind kind) {
        this(v, url, fingerprint, depth, step, notBefore, etag, lastModified, kind, null, null);
    }

    /** A request without the scheduler's score (the form before the thirty-fourth session). */
    public FetchRequest(int v, String url, long fingerprint, int depth, long step, long notBefore, String etag,
                        String lastModified, FetchKind kind, RevisitMemo revisit) {
        this(v, url, fingerprint, depth, step, notBefore, etag, lastModified, kind, revisit, null);
    }

    public static FetchRequest fresh(String url, long fingerprint, int depth, long step, long notBefore) {
        return new FetchRequest(VERSION, url, fingerprint, depth, step, notBefore, null, null, FetchKind.NEW);
    }

    /** A first fetch of a URL the scheduler held at {@code score}. */
    public static FetchRequest fresh(String url, long fingerprint, int depth, long step, long notBefore,
                                     double score) {
        return new FetchRequest(VERSION, url, fingerprint, depth, step, notBefore, null, null, FetchKind.NEW, null,
                score);
    }

    /** A REVISIT request; the validators travel once, in {@code memo} when there is one, else as etag/lastModified. */
    public static FetchRequest revisit(String url, long fingerprint, int depth, long step, long notBefore,
                                       String etag, String lastModified, RevisitMemo memo) {
        return new FetchRequest(VERSION, url, fingerprint, depth, step, notBefore, etag, lastModified,
                FetchKind.REVISIT, memo);
    }
}
