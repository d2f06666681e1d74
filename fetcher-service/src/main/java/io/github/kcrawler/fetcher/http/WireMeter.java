package io.github.kcrawler.fetcher.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Sits between the HTTP codec and the decompressor and records, for the response being read, its
 * {@code Content-Encoding} (which the decompressor removes) and how many body bytes arrived on the wire before
 * decoding. {@link ExchangeHandler} uses both to tell a compression bomb from a plain large body and to report how
 * little of it was read. Event-loop confined; passes every message on unchanged.
 */
final class WireMeter extends ChannelInboundHandlerAdapter {
    private String encoding;
    private long wireBytes;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpResponse r) {
            String e = r.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            encoding = e == null || e.isBlank() || e.trim().equalsIgnoreCase("identity") ? null : e.trim();
            wireBytes = 0;
        }
        if (msg instanceof HttpContent c) {
            wireBytes += c.content().readableBytes();
        }
        ctx.fireChannelRead(msg);
    }

    /** The encoding of the current response, or null when it was sent as is. */
    String encoding() {
        return encoding;
    }

    /** Body bytes of the current response received so far, before decoding. */
    long wireBytes() {
        return wireBytes;
    }
}
