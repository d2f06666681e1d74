package io.github.kcrawler.common.archfixture;

import io.netty.buffer.Unpooled;

/** Breaks LayeringTest's Netty rule on purpose: Netty outside fetcher.http and websim. */
public final class CommonUsesNetty {
    public static int empty() {
        return Unpooled.EMPTY_BUFFER.readableBytes();
    }
}
