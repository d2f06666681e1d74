package io.github.kcrawler.fetcher.http;

import java.util.List;
import java.util.Map;

/**
 * The outcome of one {@link HttpFetch}: a complete response ({@code failure == null}), a response cut at the body
 * cap ({@link HttpFailure#TOO_LARGE}, status and headers known), or no response at all (status 0).
 *
 * @param body           the decoded payload; only the first {@code bodyLength} bytes are meaningful
 * @param sentAtMillis   when the request was written to the connection (clock millis), or -1 if it never was
 * @param requestHeaders the headers sent, in order (for the WARC request record)
 */
public record HttpFetchResponse(int status, String reason, List<Map.Entry<String, String>> headers, byte[] body,
                                int bodyLength, HttpFailure failure, String error, long sentAtMillis,
                                long completedAtMillis, boolean reusedConnection,
                                List<Map.Entry<String, String>> requestHeaders) {
    private static final byte[] EMPTY = new byte[0];

    static HttpFetchResponse failed(HttpFailure failure, String error, long sentAt, long now,
                                    List<Map.Entry<String, String>> requestHeaders) {
        return new HttpFetchResponse(0, null, List.of(), EMPTY, 0, failure, error, sentAt, now, false,
                requestHeaders);
    }

    public boolean complete() {
        return failure == null;
    }

    /** First value of a header, case-insensitive, or null. */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }
}
