package io.github.kcrawler.fetcher.http;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One request on its way through {@link NettyHttpClient}: the request, its future, and the response as it is
 * read. The response fields are touched only on the event loop of the connection currently carrying the exchange;
 * completion is first-wins, so a total timeout racing the last byte completes the future exactly once.
 */
final class Exchange {
    final NettyHttpClient client;
    final HttpFetch fetch;
    final List<Map.Entry<String, String>> requestHeaders;
    final CompletableFuture<HttpFetchResponse> future = new CompletableFuture<>();
    volatile Channel channel;
    volatile long sentAt = -1;
    private volatile ScheduledFuture<?> totalTimer;
    boolean retried;
    boolean reused;

    Exchange(NettyHttpClient client, HttpFetch fetch, List<Map.Entry<String, String>> requestHeaders) {
        this.client = client;
        this.fetch = fetch;
        this.requestHeaders = requestHeaders;
    }

    void armTotalTimeout(EventLoop loop, long millis) {
        totalTimer = loop.schedule(() -> {
            if (fail(HttpFailure.TIMEOUT, "total timeout after " + millis + " ms")) {
                Channel ch = channel;
                if (ch != null) {
                    ch.close();
                }
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    boolean fail(HttpFailure failure, String error) {
        return finish(HttpFetchResponse.failed(failure, error, sentAt, client.clock().millis(), requestHeaders));
    }

    boolean finish(HttpFetchResponse response) {
        if (future.isDone()) {
            return false;
        }
        ScheduledFuture<?> t = totalTimer;
        if (t != null) {
            t.cancel(false);
        }
        return future.complete(response);
    }

    boolean isDone() {
        return future.isDone();
    }
}
