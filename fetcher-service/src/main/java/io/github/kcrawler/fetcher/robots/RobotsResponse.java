package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.common.model.FetchOutcome;

/**
 * What fetching {@code /robots.txt} produced: an HTTP status with its body (redirects already followed by the
 * source), or, when no response arrived at all, the network outcome and a message — or {@link #notFetched()}: the
 * source did not send the request because no request waiting for it is this instance's to fetch any more (their
 * partition moved to another fetcher, which reads robots.txt itself).
 *
 * @param status          final HTTP status, 0 when there was no response
 * @param networkFailure  why no response arrived (DNS_FAILURE, CONNECT_FAILURE, TIMEOUT, PROTOCOL_ERROR, ...),
 *                        or null
 */
public record RobotsResponse(int status, byte[] body, String contentType, FetchOutcome networkFailure,
                             String error) {
    public static RobotsResponse http(int status, byte[] body, String contentType) {
        return new RobotsResponse(status, body == null ? new byte[0] : body, contentType, null, null);
    }

    public static RobotsResponse failed(FetchOutcome networkFailure, String error) {
        return new RobotsResponse(0, new byte[0], null, networkFailure, error);
    }

    private static final RobotsResponse NOT_FETCHED = new RobotsResponse(-1, new byte[0], null, null,
            "not fetched: the partition of the request that asked for it moved");

    /** Not sent: the request that asked for it is no longer this instance's (see the class comment). */
    public static RobotsResponse notFetched() {
        return NOT_FETCHED;
    }

    /** True for {@link #notFetched()}: there is no verdict, nothing is cached. */
    public boolean isNotFetched() {
        return this == NOT_FETCHED;
    }
}
