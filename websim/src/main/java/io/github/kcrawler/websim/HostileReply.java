package io.github.kcrawler.websim;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;

/**
 * What a hostile host answers to one request: a well-formed {@link FullHttpResponse} for the ordinary pipeline, or a
 * raw action that takes over the connection ({@link HostileResponder}); the status is for the access log.
 */
record HostileReply(FullHttpResponse response, int status, Runnable raw) {
    static final String HTML = "text/html; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";

    static HostileReply redirect(HttpResponseStatus status, String location) {
        HostileReply r = text(status, "moved to " + location + "\n");
        r.response().headers().set(HttpHeaderNames.LOCATION, location);
        return r;
    }

    static HostileReply notFound() {
        return text(HttpResponseStatus.NOT_FOUND, "not found\n");
    }

    static HostileReply html(String html) {
        return full(HttpResponseStatus.OK, HTML, html.getBytes(StandardCharsets.UTF_8));
    }

    static HostileReply text(HttpResponseStatus status, String text) {
        return full(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    static HostileReply full(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return new HostileReply(response, status.code(), null);
    }

    static HostileReply raw(int status, Runnable action) {
        return new HostileReply(null, status, action);
    }
}
