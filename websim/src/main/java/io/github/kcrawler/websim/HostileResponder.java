package io.github.kcrawler.websim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static io.github.kcrawler.websim.HostileReply.html;
import static io.github.kcrawler.websim.HostileReply.notFound;
import static io.github.kcrawler.websim.HostileReply.raw;
import static io.github.kcrawler.websim.HostileReply.redirect;
import static io.github.kcrawler.websim.HostileReply.text;

/**
 * What the host of a {@link HostileMode} answers, for one connection (used on that connection's event loop only).
 *
 * <p>Well-formed answers (index pages, redirects, 429/503, wrong charsets, robots.txt variants; most of them built by
 * {@link HostilePages}) are returned as a {@link FullHttpResponse} and go through the ordinary pipeline. Everything that an HTTP encoder would refuse or
 * repair — a gzip body the client did not ask for, a head cut in the middle, a reset, one byte a second, 100 MiB —
 * is written as raw bytes from the HTTP codec's context towards the socket, bypassing the encoder, the compressor
 * and the aggregator; those connections are closed afterwards. Large bodies are streamed from a shared 64 KiB block
 * only while the channel is writable, so a slow or stalled reader costs the server at most the channel's high
 * water mark, never the whole body.
 */
final class HostileResponder {
    static final int HALF_BODY_DECLARED = 8192;
    static final int HALF_BODY_SENT = 2000;
    static final String SLOW_BODY = "<!DOCTYPE html><html><body><p>worth the wait?</p></body></html>\n";

    private final ChannelHandlerContext ctx;
    private Streamer streamer;
    private ScheduledFuture<?> trickle;

    HostileResponder(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The answer of {@code mode}'s host to {@code target} (path and query as sent). Total: any target answers. */
    HostileReply respond(HostileMode mode, String target) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        if (path.equals("/robots.txt")) {
            return robots(mode);
        }
        if (path.equals("/")) {
            return html(HostilePages.index(mode));
        }
        if (mode.name().startsWith("ROBOTS_")) {
            if (path.equals("/robots-2.txt") && mode == HostileMode.ROBOTS_REDIRECT) {
                return redirect(HttpResponseStatus.MOVED_PERMANENTLY, "/robots-3.txt");
            }
            if (path.equals("/robots-3.txt") && mode == HostileMode.ROBOTS_REDIRECT) {
                return text(HttpResponseStatus.OK, "User-agent: *\nDisallow: /private/\n");
            }
            return path.equals("/a") || path.equals("/private/b") ? html(HostilePages.plainPage(path)) : notFound();
        }
        return switch (mode) {
            case BIG_BODY -> switch (path) {
                case "/big" -> raw(200, () -> stream(head(200, "text/html", HostileContent.BIG_BODY_BYTES, null),
                        HostileContent.bodyBlock64k(), HostileContent.BIG_BODY_BYTES, false));
                case "/big-chunked" -> raw(200, () -> stream(head(200, "text/html", -1, null),
                        HostileContent.bodyBlock64k(), HostileContent.BIG_BODY_BYTES, true));
                default -> notFound();
            };
            case GZIP_BOMB -> path.equals("/bomb") ? raw(200, this::bomb) : notFound();
            case REDIRECT_LOOP -> switch (path) {
                case "/loop/a" -> redirect(HttpResponseStatus.FOUND, "/loop/b");
                case "/loop/b" -> redirect(HttpResponseStatus.FOUND, "/loop/a");
                case "/self" -> redirect(HttpResponseStatus.FOUND, "/self");
                default -> notFound();
            };
            case REDIRECT_CHAIN -> HostilePages.chain(path);
            case SLOW -> path.equals("/slow") ? raw(200, this::slow) : notFound();
            case RESET -> switch (path) {
                case "/reset" -> raw(0, this::reset);
                case "/reset-mid" -> raw(200, () -> {
                    write(head(200, "text/html", HALF_BODY_DECLARED, null));
                    ChannelHandlerContext out = out();
                    if (out == null) {
                        reset();
                        return;
                    }
                    out.writeAndFlush(Unpooled.wrappedBuffer(HostileContent.bodyBlock64k(), 0, 1000))
                            .addListener(f -> reset());
                });
                default -> notFound();
            };
            case HALF_HEAD -> path.equals("/half-head") ? raw(200, () -> {
                write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Len".getBytes(StandardCharsets.US_ASCII));
                finish();
            }) : notFound();
            case HALF_BODY -> path.equals("/half-body") ? raw(200, () -> {
                write(head(200, "text/html", HALF_BODY_DECLARED, null));
                write(java.util.Arrays.copyOf(HostileContent.bodyBlock64k(), HALF_BODY_SENT));
                finish();
            }) : notFound();
            case CALENDAR_TRAP -> HostilePages.calendar(path);
            case SESSION_TRAP -> HostilePages.session(path, query);
            case MANY_LINKS -> manyLinks(path);
            case BAD_UTF8 -> path.equals("/bad-utf8") ? HostilePages.badUtf8() : HostilePages.ok(path);
            case WRONG_CHARSET -> HostilePages.wrongCharset(path);
            case THROTTLE_429_RETRY_AFTER, THROTTLE_429, THROTTLE_503_RETRY_AFTER, THROTTLE_503 ->
                    HostilePages.throttle(mode, path);
            case OVERSIZED_HEADERS -> HostilePages.oversizedHeaders(path);
            case OVERSIZED_REDIRECT -> HostilePages.oversizedRedirect(path);
            case NON_ASCII_HEADERS -> nonAsciiHeaders(path);
            default -> notFound();
        };
    }

    private HostileReply robots(HostileMode mode) {
        return switch (mode) {
            case ROBOTS_HTML -> html("<!DOCTYPE html>\n<html><head><title>Page not found</title></head><body>"
                    + "<h1>Oops</h1><p>We could not find robots.txt, but here is our home page.</p>"
                    + "<a href=\"/\">home</a></body></html>\n");
            case ROBOTS_5XX -> text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error\n");
            case ROBOTS_4XX -> text(HttpResponseStatus.FORBIDDEN, "forbidden\n");
            case ROBOTS_HUGE -> raw(200, () -> {
                byte[] head = HostileContent.HUGE_ROBOTS_HEAD.getBytes(StandardCharsets.US_ASCII);
                write(head(200, "text/plain", HostileContent.HUGE_ROBOTS_BYTES, null));
                write(head);
                stream(null, HostileContent.robotsBlock64k(), HostileContent.HUGE_ROBOTS_BYTES - head.length, false);
            });
            case ROBOTS_REDIRECT -> redirect(HttpResponseStatus.MOVED_PERMANENTLY, "/robots-2.txt");
            case ROBOTS_TIMEOUT -> raw(0, () -> { }); // never answer; the connection stays open until the client gives up
            default -> text(HttpResponseStatus.OK, "User-agent: *\nDisallow:\n");
        };
    }

    private HostileReply manyLinks(String path) {
        if (path.equals("/many")) {
            return raw(200, () -> {
                CompletableFuture<byte[]> page = HostileContent.manyLinksPage();
                page.whenComplete((bytes, error) -> ctx.executor().execute(() -> {
                    if (error != null || !ctx.channel().isActive()) {
                        ctx.close();
                        return;
                    }
                    write(head(200, HostileReply.HTML, bytes.length, null));
                    write(bytes);
                    finish();
                }));
            });
        }
        return path.startsWith("/many/") ? html(HostilePages.plainPage(path)) : notFound();
    }

    /**
     * Header values that are not ASCII, written as raw bytes (past the encoder, which would be free to reject or
     * repair them): {@code /latin1-bytes} carries every byte 0x80–0xFF, {@code /utf8-value} UTF-8 multi-byte text.
     */
    private HostileReply nonAsciiHeaders(String path) {
        if (!path.equals("/latin1-bytes") && !path.equals("/utf8-value")) {
            return HostilePages.ok(path);
        }
        return raw(200, () -> {
            byte[] response = nonAsciiResponse(path);
            write(response);
            finish();
        });
    }

    /** The whole response of a {@link HostileMode#NON_ASCII_HEADERS} page (tests read it back byte for byte). */
    static byte[] nonAsciiResponse(String path) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(1024);
        byte[] body = ("<!DOCTYPE html>\n<html><head><title>" + path + "</title></head><body><p>headers that are"
                + " not ASCII</p><a href=\"/ok" + path + "\">next</a></body></html>\n")
                .getBytes(StandardCharsets.US_ASCII);
        ascii(out, "HTTP/1.1 200 OK\r\nServer: websim\r\n");
        if (path.equals("/latin1-bytes")) {
            byte[] high = new byte[0x80];
            for (int i = 0; i < high.length; i++) {
                high[i] = (byte) (0x80 + i);
            }
            ascii(out, "Content-Type: text/html; charset=utf-8\r\nETag: \"");
            out.writeBytes(high);
            ascii(out, "\"\r\nLast-Modified: Tue, 15 Nov 1994 ");
            out.writeBytes(high);
            ascii(out, "\r\nX-Raw: ");
            out.writeBytes(high);
            ascii(out, "\r\n");
        } else {
            ascii(out, "Content-Type: text/html; charset=utf-8; title=\"");
            out.writeBytes("Grüße 日本 😀".getBytes(StandardCharsets.UTF_8));
            ascii(out, "\"\r\nETag: \"");
            out.writeBytes("é-😀".getBytes(StandardCharsets.UTF_8));
            ascii(out, "\"\r\n");
        }
        ascii(out, "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n");
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static void ascii(java.io.ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    // ---------------------------------------------------------------- raw writers

    /** A response head; {@code contentLength} < 0 means chunked. */
    private static byte[] head(int status, String contentType, long contentLength, String extra) {
        StringBuilder sb = new StringBuilder(160);
        sb.append("HTTP/1.1 ").append(status).append(status == 200 ? " OK" : " X").append("\r\n")
                .append("Server: websim\r\nContent-Type: ").append(contentType).append("\r\n");
        if (contentLength >= 0) {
            sb.append("Content-Length: ").append(contentLength).append("\r\n");
        } else {
            sb.append("Transfer-Encoding: chunked\r\n");
        }
        if (extra != null) {
            sb.append(extra);
        }
        return sb.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private void bomb() {
        HostileContent.gzipBomb().whenComplete((bytes, error) -> ctx.executor().execute(() -> {
            if (error != null || !ctx.channel().isActive()) {
                ctx.close();
                return;
            }
            write(head(200, HostileReply.HTML, bytes.length, "Content-Encoding: gzip\r\n"));
            write(bytes);
            finish();
        }));
    }

    private void slow() {
        byte[] bytes = concat(head(200, HostileReply.HTML, SLOW_BODY.length(), null),
                SLOW_BODY.getBytes(StandardCharsets.US_ASCII));
        int[] next = {0};
        trickle = ctx.executor().scheduleAtFixedRate(() -> {
            if (!ctx.channel().isActive() || next[0] >= bytes.length) {
                trickle.cancel(false);
                ctx.close();
                return;
            }
            write(new byte[] {bytes[next[0]++]});
        }, 0, 1, TimeUnit.SECONDS);
    }

    /** RST: SO_LINGER 0, then close. */
    private void reset() {
        if (ctx.channel().isActive()) {
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        }
        ctx.channel().close();
    }

    /** The context raw bytes are written from: the HTTP codec's, so they go straight to the socket; or null. */
    private ChannelHandlerContext out() {
        return ctx.pipeline().context(HttpServerCodec.class);
    }

    private void write(byte[] bytes) {
        ChannelHandlerContext out = out();
        if (out != null) {
            out.writeAndFlush(Unpooled.wrappedBuffer(bytes));
        }
    }

    /** Closes the connection (FIN) once everything written so far is flushed. */
    private void finish() {
        ChannelHandlerContext out = out();
        if (out == null) {
            ctx.close();
            return;
        }
        out.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    private void stream(byte[] head, byte[] block, long length, boolean chunked) {
        if (head != null) {
            write(head);
        }
        streamer = new Streamer(block, length, chunked);
        streamer.pump();
    }

    /** Called when the channel's writability changes: a stalled stream goes on once the socket drains. */
    void writabilityChanged() {
        if (streamer != null) {
            streamer.pump();
        }
    }

    /** The connection closed: stop streaming and trickling. */
    void closed() {
        if (trickle != null) {
            trickle.cancel(false);
        }
        streamer = null;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Writes {@code length} bytes of {@code block} repeated, only while the channel is writable. */
    private final class Streamer {
        private final byte[] block;
        private final boolean chunked;
        private long remaining;

        Streamer(byte[] block, long length, boolean chunked) {
            this.block = block;
            this.remaining = length;
            this.chunked = chunked;
        }

        void pump() {
            ChannelHandlerContext out = out();
            if (out == null || !ctx.channel().isActive()) {
                streamer = null;
                return;
            }
            while (remaining > 0 && ctx.channel().isWritable()) {
                int n = (int) Math.min(block.length, remaining);
                ByteBuf piece = Unpooled.wrappedBuffer(block, 0, n);
                if (chunked) {
                    out.write(Unpooled.wrappedBuffer((Integer.toHexString(n) + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII)));
                    out.write(piece);
                    out.write(Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}));
                } else {
                    out.write(piece);
                }
                remaining -= n;
            }
            out.flush();
            if (remaining == 0) {
                streamer = null;
                if (chunked) {
                    write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                finish();
            }
        }
    }
}
