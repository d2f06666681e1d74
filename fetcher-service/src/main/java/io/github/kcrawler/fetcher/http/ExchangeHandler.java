package io.github.kcrawler.fetcher.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.proxy.ProxyConnectException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The last handler of a client connection: sends the current exchange's request, reads the (decoded) response
 * into a byte array up to the body cap, and decides what happens to the connection afterwards — back to the pool
 * after a complete keep-alive response, closed after anything else. Runs on the connection's event loop only.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {
    private static final int INITIAL_BODY = 16 * 1024;

    private final NettyHttpClient client;
    private final NettyHttpClient.Route route;
    private ChannelHandlerContext ctx;
    private IdleStateHandler idle;
    private WireMeter wire;
    private io.netty.util.concurrent.ScheduledFuture<?> firstByteTimer;
    private Exchange current;
    private long idleSince;
    // response state of the current exchange
    private boolean headSeen;
    private boolean interim;
    private int status;
    private String reason;
    private List<Map.Entry<String, String>> headers;
    private boolean keepAlive;
    private byte[] body;
    private int length;

    ExchangeHandler(NettyHttpClient client, NettyHttpClient.Route route) {
        this.client = client;
        this.route = route;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.idle = ctx.pipeline().get(IdleStateHandler.class);
        this.wire = ctx.pipeline().get(WireMeter.class);
    }

    /** Starts the exchange on this connection; {@code reused} if it came from the pool. */
    void start(Exchange ex, boolean reused) {
        Channel ch = ctx.channel();
        if (ex.isDone()) { // timed out before the connection was ready
            release(ch);
            return;
        }
        if (!ch.isActive()) {
            if (reused && !ex.retried) {
                ex.retried = true;
                client.connect(ex, route);
            } else {
                ex.fail(HttpFailure.PROTOCOL, "connection closed before the request was sent");
            }
            return;
        }
        current = ex;
        ex.channel = ch;
        ex.reused = reused;
        if (idle != null) {
            idle.resetReadTimeout(); // the read timeout counts from now, not from the last exchange on this connection
        }
        headSeen = false;
        interim = false;
        status = 0;
        reason = null;
        headers = List.of();
        keepAlive = false;
        body = null;
        length = 0;
        FullHttpRequest request;
        try {
            String target = client.absoluteForm(route) ? "http://" + ex.fetch.hostHeader() + ex.fetch.requestTarget()
                    : ex.fetch.requestTarget();
            request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target, Unpooled.EMPTY_BUFFER);
            for (Map.Entry<String, String> h : ex.requestHeaders) {
                request.headers().add(h.getKey(), h.getValue());
            }
        } catch (IllegalArgumentException e) {
            fail(HttpFailure.PROTOCOL, "request not expressible in HTTP/1.1: " + e.getMessage());
            return;
        }
        ch.writeAndFlush(request).addListener(f -> {
            if (f.isSuccess()) {
                ex.sentAt = client.clock().millis();
                armFirstByteTimeout(ex);
            } else if (current == ex) {
                failOrRetry(f.cause());
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            Exchange ex = current;
            if (ex == null || ex.isDone()) {
                // bytes nobody asked for (or for an exchange that already timed out): the connection is unusable
                current = null;
                ctx.close();
                return;
            }
            if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                Throwable cause = o.decoderResult().cause();
                if (cause instanceof io.netty.handler.codec.PrematureChannelClosureException) {
                    // the codec's way of saying the peer closed with the head or body half written
                    fail(HttpFailure.RESET, (headSeen ? "connection closed mid-response after " + length
                            + " body bytes" : "connection closed before a complete response head") + ": "
                            + cause.getMessage());
                } else {
                    fail(HttpFailure.PROTOCOL, "malformed response: " + NettyHttpClient.message(cause));
                }
                return;
            }
            if (msg instanceof HttpResponse r) {
                onHead(r);
                if (current == null) {
                    return;
                }
            }
            if (msg instanceof HttpContent c) {
                if (interim) {
                    if (msg instanceof LastHttpContent) {
                        interim = false; // 1xx done; the real response follows
                    }
                    return;
                }
                if (!appendBody(c.content())) {
                    return;
                }
                if (msg instanceof LastHttpContent) {
                    complete();
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** A server that accepts the request and never answers is cut after the first-byte timeout. */
    private void armFirstByteTimeout(Exchange ex) {
        long ms = client.settings().firstByteTimeoutMillis();
        if (ms >= client.settings().totalTimeoutMillis()) {
            return; // the total timeout comes first anyway
        }
        firstByteTimer = ctx.executor().schedule(() -> {
            if (current == ex && !headSeen && !interim) {
                fail(HttpFailure.TIMEOUT, "first-byte timeout: no response head " + ms + " ms after the request");
            }
        }, ms, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    private void cancelFirstByteTimeout() {
        if (firstByteTimer != null) {
            firstByteTimer.cancel(false);
            firstByteTimer = null;
        }
    }

    private void onHead(HttpResponse r) {
        cancelFirstByteTimeout();
        int code = r.status().code();
        if (code < 100 || code > 999) {
            // Netty parses "HTTP/1.1 0" happily; a status outside three digits is not HTTP (found by fuzzing)
            fail(HttpFailure.PROTOCOL, "malformed response: status code " + code);
            return;
        }
        if (code >= 100 && code < 200 && code != 101) {
            interim = true;
            return;
        }
        headSeen = true;
        status = code;
        reason = r.status().reasonPhrase();
        List<Map.Entry<String, String>> hs = new ArrayList<>(r.headers().size());
        for (Map.Entry<String, String> e : r.headers()) {
            hs.add(NettyHttpClient.header(e.getKey(), e.getValue()));
        }
        headers = hs;
        keepAlive = HttpUtil.isKeepAlive(r);
        long declared = HttpUtil.getContentLength(r, -1L);
        int max = current.fetch.maxBodyBytes();
        if (declared > max && !current.fetch.readPrefix()) {
            tooLarge("declared Content-Length " + declared + " exceeds " + max + " bytes");
            return;
        }
        body = new byte[(int) Math.min(max, declared >= 0 ? declared : INITIAL_BODY)];
    }

    /** Appends within the cap; false if the exchange ended (too large). */
    private boolean appendBody(ByteBuf content) {
        int n = content.readableBytes();
        if (n == 0) {
            return true;
        }
        int max = current.fetch.maxBodyBytes();
        int take = Math.min(n, max - length);
        if (length + take > body.length) {
            body = Arrays.copyOf(body, (int) Math.min(max, Math.max((long) body.length * 2, length + take)));
        }
        content.readBytes(body, length, take);
        length += take;
        if (take < n) {
            tooLarge("body exceeds " + max + " bytes");
            return false;
        }
        return true;
    }

    private void complete() {
        Exchange ex = current;
        current = null;
        HttpFetchResponse r = new HttpFetchResponse(status, reason, headers, body == null ? new byte[0] : body,
                length, null, null, ex.sentAt, client.clock().millis(), ex.reused, ex.requestHeaders);
        body = null;
        Channel ch = ctx.channel();
        // Pool first, then complete: the next request to this route (released by the completion) finds it.
        if (keepAlive && !ex.isDone()) {
            release(ch);
        } else {
            ch.close();
        }
        ex.finish(r);
    }

    private void tooLarge(String error) {
        Exchange ex = current;
        current = null;
        HttpFailure failure = HttpFailure.TOO_LARGE;
        if (wire != null && wire.encoding() != null && headSeen && body != null) {
            failure = HttpFailure.INFLATED_TOO_LARGE;
            error = wire.encoding() + " body inflated beyond " + ex.fetch.maxBodyBytes() + " bytes after "
                    + wire.wireBytes() + " bytes on the wire; decoding stopped";
        }
        ex.finish(new HttpFetchResponse(status, reason, headers, body == null ? new byte[0] : body, length,
                failure, error, ex.sentAt, client.clock().millis(), ex.reused, ex.requestHeaders));
        body = null;
        ctx.close();
    }

    private void release(Channel ch) {
        idleSince = client.clock().millis();
        if (!client.offerIdle(route, ch)) {
            ch.close();
        }
    }

    private void fail(HttpFailure failure, String error) {
        cancelFirstByteTimeout();
        Exchange ex = current;
        current = null;
        body = null;
        if (ex != null) {
            ex.fail(failure, error);
        }
        ctx.close();
    }

    /**
     * A reused connection that died before any response is stale keep-alive: retry once on a fresh one. If the
     * request had been written, the server may have read it (and counted it against its rate limit), so the retry
     * waits {@link HttpClientSettings#resendDelayMillis()} (T): a resend must not be a second request within T.
     */
    private void failOrRetry(Throwable cause) {
        Exchange ex = current;
        if (ex != null && ex.reused && !headSeen && !ex.retried && !ex.isDone()) {
            current = null;
            ex.retried = true;
            long delay = ex.sentAt >= 0 ? client.settings().resendDelayMillis() : 0;
            Channel channel = ctx.channel();
            ctx.close();
            if (delay > 0) {
                channel.eventLoop().schedule(() -> {
                    if (!ex.isDone()) {
                        client.connect(ex, route);
                    }
                }, delay, TimeUnit.MILLISECONDS);
            } else {
                client.connect(ex, route);
            }
            return;
        }
        fail(classify(cause), describe(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            failOrRetry(new ConnectionLost(headSeen ? "connection closed mid-response after " + length
                    + " body bytes" : "connection closed before a complete response head"));
        } else {
            client.removeIdle(route, ctx.channel());
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (current != null) {
            failOrRetry(cause);
        } else {
            ctx.close();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            if (current != null) {
                fail(HttpFailure.TIMEOUT, "read timeout: no data for " + client.settings().readTimeoutMillis() + " ms");
            } else if (client.clock().millis() - idleSince >= client.settings().keepAliveMillis()) {
                ctx.close();
            }
            return;
        }
        if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess() && current != null) {
            fail(HttpFailure.TLS, "TLS handshake failed: " + NettyHttpClient.message(rootCause(e.cause())));
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    private static HttpFailure classify(Throwable cause) {
        Throwable root = rootCause(cause);
        if (cause instanceof ProxyConnectException || root instanceof ProxyConnectException) {
            return HttpFailure.CONNECT;
        }
        if (root instanceof SSLException || cause instanceof SSLException) {
            return HttpFailure.TLS;
        }
        if (cause instanceof DecoderException && root instanceof SSLException) {
            return HttpFailure.TLS;
        }
        if (cause instanceof DecoderException) {
            return HttpFailure.PROTOCOL; // includes a corrupt gzip stream
        }
        if (cause instanceof IOException || root instanceof IOException) {
            return HttpFailure.RESET; // ECONNRESET, broken pipe, closed mid-response
        }
        return HttpFailure.PROTOCOL;
    }

    /** The peer closed the connection before the response was complete. */
    private static final class ConnectionLost extends IOException {
        ConnectionLost(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // an expected event, not a bug: no stack to capture
        }
    }

    private static String describe(Throwable cause) {
        return NettyHttpClient.message(rootCause(cause));
    }

    private static Throwable rootCause(Throwable t) {
        Throwable r = t;
        while (r != null && r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r;
    }
}
