package io.github.kcrawler.websim;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one connection's requests: {@code /robots.txt} and {@code /p/<id>} of the host named by the Host header
 * (or by an absolute-form request target), provided that host lives on the address the connection arrived on;
 * everything else is 404. Pages carry ETag and Last-Modified and answer conditional requests with 304. Every
 * request is reported to the {@link AccessRecorder} with its arrival time before the response is (possibly
 * after a delay) written. One instance per connection, always used on that connection's event loop.
 */
final class WebSimHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(WebSimHandler.class);
    private static final String HTML = "text/html; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final byte[] NOT_FOUND = "not found\n".getBytes(StandardCharsets.US_ASCII);

    private final WebSimServer server;
    private final SiteLayout layout;
    private int ipIndex = -1;
    private HostileMode hostileMode;
    private HostileResponder hostile;
    private int port;
    private boolean flushPending;

    WebSimHandler(WebSimServer server) {
        this.server = server;
        this.layout = server.layout();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
        ipIndex = server.ipIndex(local.getAddress());
        port = local.getPort();
        if (ipIndex < 0) {
            LOG.warn("connection on unexpected local address {}; closing", local);
            ctx.close();
            return;
        }
        hostileMode = server.recorder().hostileMode(ipIndex);
        server.recorder().connectionOpened();
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        long arrival = System.nanoTime();
        String target = request.uri();
        String hostHeader = request.headers().get(HttpHeaderNames.HOST);
        if (target.regionMatches(true, 0, "http://", 0, 7)) { // absolute-form (RFC 9112 3.2.2): it names the host
            int slash = target.indexOf('/', 7);
            hostHeader = slash < 0 ? target.substring(7) : target.substring(7, slash);
            target = slash < 0 ? "/" : target.substring(slash);
        }
        String method = request.method().name();
        String hostName = hostHeader == null ? "-" : stripPort(hostHeader);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        FullHttpResponse response;
        Access.Kind kind = Access.Kind.OTHER;
        int page = -1;
        if (!request.decoderResult().isSuccess()) {
            response = text(HttpResponseStatus.BAD_REQUEST, "bad request\n".getBytes(StandardCharsets.US_ASCII));
            keepAlive = false;
        } else if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
            response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET or HEAD\n".getBytes(StandardCharsets.US_ASCII));
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        } else if (hostileMode != null) {
            kind = Access.Kind.HOSTILE;
            // Hostile hosts close after every answer, so each hostile response meets a fresh connection: a client
            // that resends a request when a kept-alive connection dies before the response head (the fetcher's
            // stale-connection retry) would otherwise hit the resetting and cut-head hosts twice within T.
            keepAlive = false;
            if (HostileMode.ofHost(hostHeader) != hostileMode) {
                response = notFound();
            } else {
                if (hostile == null) {
                    hostile = new HostileResponder(ctx);
                }
                HostileReply reply = hostile.respond(hostileMode, target);
                if (reply.response() == null) { // the responder takes the connection over: raw bytes, then closed
                    server.recorder().record(arrival, ipIndex, hostName, method, target, reply.status(), kind, page);
                    server.recorder().hostile(hostileMode);
                    reply.raw().run();
                    return;
                }
                response = reply.response();
            }
        } else {
            int host = layout.hostIndex(hostHeader);
            if (host < 0 || layout.ipIndexOfHost(host) != ipIndex) {
                response = notFound();
            } else if (target.equals("/robots.txt")) {
                kind = Access.Kind.ROBOTS;
                response = text(HttpResponseStatus.OK, layout.robotsTxt(host).getBytes(StandardCharsets.UTF_8));
            } else {
                int id = target.startsWith("/p/") ? parsePageId(target) : -1;
                if (id >= 0 && id < layout.numPages() && layout.hostOf(id) == host) {
                    kind = Access.Kind.PAGE;
                    page = id;
                    response = page(request, id);
                } else {
                    response = notFound();
                }
            }
        }
        if (request.method() == HttpMethod.HEAD) {
            FullHttpResponse full = response;
            response = full.replace(Unpooled.EMPTY_BUFFER);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, full.content().readableBytes());
            full.release();
        }
        server.recorder().record(arrival, ipIndex, hostName, method, target, response.status().code(), kind, page);
        if (hostileMode != null) {
            server.recorder().hostile(hostileMode);
        }
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.SERVER, "websim");
        headers.set(HttpHeaderNames.DATE, DateFormatter.format(new Date(server.changes().nowMillis())));
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        send(ctx, response, keepAlive);
    }

    private void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        int latency = server.latencyMs();
        if (latency > 0) {
            ctx.executor().schedule(() -> {
                var future = ctx.writeAndFlush(response);
                if (!keepAlive) {
                    future.addListener(ChannelFutureListener.CLOSE);
                }
            }, latency, TimeUnit.MILLISECONDS);
        } else if (keepAlive) {
            ctx.write(response);
            flushPending = true;
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private FullHttpResponse page(FullHttpRequest request, int id) {
        PageRenderer renderer = server.renderer();
        ChangeSchedule changes = server.changes();
        boolean changing = changes.changing();
        long version = changing ? changes.version(id, changes.nowMillis()) : 0;
        String etag = changing ? renderer.etag(id, port, version) : renderer.etag(id, port);
        long lastModified = changing ? changes.lastModifiedMillis(id, version) : renderer.lastModifiedMillis(id);
        HttpHeaders requestHeaders = request.headers();
        boolean conditional = requestHeaders.contains(HttpHeaderNames.IF_NONE_MATCH)
                || requestHeaders.contains(HttpHeaderNames.IF_MODIFIED_SINCE);
        boolean notModified = notModified(requestHeaders, etag, lastModified);
        if (conditional) {
            server.recorder().conditional(notModified,
                    !notModified && changedSince(requestHeaders, renderer, id, version, lastModified));
        }
        FullHttpResponse response;
        if (notModified) {
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED,
                    Unpooled.EMPTY_BUFFER);
        } else {
            byte[] body = changing ? renderer.render(id, port, version) : renderer.render(id, port);
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HTML);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        }
        response.headers().set(HttpHeaderNames.ETAG, etag);
        response.headers().set(HttpHeaderNames.LAST_MODIFIED, DateFormatter.format(new Date(lastModified)));
        return response;
    }

    /**
     * Whether a conditional request that is not answered 304 names an earlier version of the page: an If-None-Match
     * tag of an earlier version (a foreign or malformed tag does not count), or, without If-None-Match, an
     * If-Modified-Since date before the current Last-Modified (the page was modified after that date).
     */
    private boolean changedSince(HttpHeaders headers, PageRenderer renderer, int id, long version,
            long lastModifiedMillis) {
        String ifNoneMatch = headers.get(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            if (!server.changes().changing()) {
                return false;
            }
            for (String tag : ifNoneMatch.split(",")) {
                String t = tag.trim();
                if (t.startsWith("W/")) {
                    t = t.substring(2);
                }
                long v = renderer.etagVersion(id, port, t);
                if (v != Long.MIN_VALUE && v < version) {
                    return true;
                }
            }
            return false;
        }
        Date since = DateFormatter.parseHttpDate(headers.get(HttpHeaderNames.IF_MODIFIED_SINCE));
        return since != null && since.getTime() < lastModifiedMillis;
    }

    /** RFC 9110 13.1: If-None-Match (weak comparison) wins over If-Modified-Since. */
    static boolean notModified(HttpHeaders headers, String etag, long lastModifiedMillis) {
        String ifNoneMatch = headers.get(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            for (String tag : ifNoneMatch.split(",")) {
                String t = tag.trim();
                if (t.startsWith("W/")) {
                    t = t.substring(2);
                }
                if (t.equals("*") || t.equals(etag)) {
                    return true;
                }
            }
            return false;
        }
        String ifModifiedSince = headers.get(HttpHeaderNames.IF_MODIFIED_SINCE);
        if (ifModifiedSince != null) {
            Date since = DateFormatter.parseHttpDate(ifModifiedSince);
            return since != null && lastModifiedMillis <= since.getTime();
        }
        return false;
    }

    /** The decimal id after "/p/", or -1 unless the rest is a canonical non-negative int (no sign, no leading 0). */
    static int parsePageId(String target) {
        int len = target.length();
        if (len <= 3 || len > 13 || (target.charAt(3) == '0' && len > 4)) {
            return -1;
        }
        long id = 0;
        for (int i = 3; i < len; i++) {
            char c = target.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            id = id * 10 + (c - '0');
        }
        return id > Integer.MAX_VALUE ? -1 : (int) id;
    }

    private static String stripPort(String hostHeader) {
        int colon = hostHeader.lastIndexOf(':');
        String host = colon >= 0 && hostHeader.indexOf(']') < colon ? hostHeader.substring(0, colon) : hostHeader;
        return host.length() > 255 ? host.substring(0, 255) : host;
    }

    private static FullHttpResponse notFound() {
        return text(HttpResponseStatus.NOT_FOUND, NOT_FOUND);
    }

    private static FullHttpResponse text(HttpResponseStatus status, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, TEXT);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (hostile != null) {
            hostile.writabilityChanged();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (hostile != null) {
            hostile.closed();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else {
            super.userEventTriggered(ctx, evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing connection after error", cause);
        ctx.close();
    }
}
