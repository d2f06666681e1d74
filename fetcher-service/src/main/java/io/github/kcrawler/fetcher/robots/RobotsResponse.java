package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.common.model.FetchOutcome;

/**
 * What fetching {@code /robots.txt} produced: an HTTP status with its body (redirects already followed by the
 * source), or, when no response arrived at all, the network outcome and a message.
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
}
