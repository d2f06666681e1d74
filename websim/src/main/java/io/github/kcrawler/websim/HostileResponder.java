package io.github.kcrawler.websim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the host of a {@link HostileMode} answers, for one connection (used on that connection's event loop only).
 *
 * <p>Well-formed answers (index pages, redirects, 429/503, wrong charsets, robots.txt variants) are returned as a
 * {@link FullHttpResponse} and go through the ordinary pipeline. Everything that an HTTP encoder would refuse or
 * repair — a gzip body the client did not ask for, a head cut in the middle, a reset, one byte a second, 100 MiB —
 * is written as raw bytes from the HTTP codec's context towards the socket, bypassing the encoder, the compressor
 * and the aggregator; those connections are closed afterwards. Large bodies are streamed from a shared 64 KiB block
 * only while the channel is writable, so a slow or stalled reader costs the server at most the channel's high
 * water mark, never the whole body.
 */
final class HostileResponder {

    /** A response for the pipeline, or a raw action that takes over the connection; the status is for the log. */
    record Reply(FullHttpResponse response, int status, Runnable raw) {
    }

    static final int CHAIN_LENGTH = 40;
    /** Query parameters the session trap's "sort by date" link adds to the page's own. */
    static final int SESSION_PARAMS_PER_HOP = 8;
    static final int HALF_BODY_DECLARED = 8192;
    static final int HALF_BODY_SENT = 2000;
    static final String SLOW_BODY = "<!DOCTYPE html><html><body><p>worth the wait?</p></body></html>\n";
    /** The Retry-After value of the throttling modes that send one, seconds (small so that a demo finishes). */
    static final int RETRY_AFTER_SECONDS = 1;

    private static final String HTML = "text/html; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final ChannelHandlerContext ctx;
    private Streamer streamer;
    private ScheduledFuture<?> trickle;

    HostileResponder(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The paths the index page of {@code mode} links to. */
    static List<String> entryPaths(HostileMode mode) {
        return switch (mode) {
            case BIG_BODY -> List.of("/big", "/big-chunked");
            case GZIP_BOMB -> List.of("/bomb");
            case REDIRECT_LOOP -> List.of("/loop/a", "/self");
            case REDIRECT_CHAIN -> List.of("/chain/0");
            case SLOW -> List.of("/slow");
            case RESET -> List.of("/reset", "/reset-mid");
            case HALF_HEAD -> List.of("/half-head");
            case HALF_BODY -> List.of("/half-body");
            case CALENDAR_TRAP -> List.of("/cal/2026/11/");
            case SESSION_TRAP -> List.of("/s/0?sid=" + sessionId(0, ""));
            case MANY_LINKS -> List.of("/many");
            case BAD_UTF8 -> List.of("/bad-utf8");
            case WRONG_CHARSET -> List.of("/latin1", "/utf16", "/bogus", "/meta");
            case ROBOTS_HTML, ROBOTS_5XX, ROBOTS_4XX, ROBOTS_HUGE, ROBOTS_REDIRECT, ROBOTS_TIMEOUT ->
                    List.of("/a", "/private/b");
            case THROTTLE_429_RETRY_AFTER, THROTTLE_429, THROTTLE_503_RETRY_AFTER, THROTTLE_503 ->
                    List.of("/t/0", "/t/1", "/t/2");
        };
    }

    /** The answer of {@code mode}'s host to {@code target} (path and query as sent). Total: any target answers. */
    Reply respond(HostileMode mode, String target) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        if (path.equals("/robots.txt")) {
            return robots(mode);
        }
        if (path.equals("/")) {
            return html(index(mode));
        }
        if (mode.name().startsWith("ROBOTS_")) {
            if (path.equals("/robots-2.txt") && mode == HostileMode.ROBOTS_REDIRECT) {
                return redirect(HttpResponseStatus.MOVED_PERMANENTLY, "/robots-3.txt");
            }
            if (path.equals("/robots-3.txt") && mode == HostileMode.ROBOTS_REDIRECT) {
                return text(HttpResponseStatus.OK, "User-agent: *\nDisallow: /private/\n");
            }
            return path.equals("/a") || path.equals("/private/b") ? html(plainPage(path)) : notFound();
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
            case REDIRECT_CHAIN -> chain(path);
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
            case CALENDAR_TRAP -> calendar(path);
            case SESSION_TRAP -> session(path, query);
            case MANY_LINKS -> manyLinks(path);
            case BAD_UTF8 -> path.equals("/bad-utf8") ? badUtf8() : ok(path);
            case WRONG_CHARSET -> wrongCharset(path);
            case THROTTLE_429_RETRY_AFTER, THROTTLE_429, THROTTLE_503_RETRY_AFTER, THROTTLE_503 -> throttle(mode, path);
            default -> notFound();
        };
    }

    // ---------------------------------------------------------------- well-formed answers

    private static String index(HostileMode mode) {
        StringBuilder sb = new StringBuilder(512);
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hostile host: ").append(mode.label())
                .append("</title></head><body>\n<h1>").append(mode.label()).append("</h1>\n<ul>\n");
        for (String p : entryPaths(mode)) {
            sb.append("<li><a href=\"").append(p.replace("&", "&amp;")).append("\">").append(p).append("</a></li>\n");
        }
        return sb.append("</ul>\n</body></html>\n").toString();
    }

    private static String plainPage(String path) {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + path + "</title></head>"
                + "<body><p>an ordinary page at " + path + "</p></body></html>\n";
    }

    private Reply robots(HostileMode mode) {
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

    private static Reply chain(String path) {
        if (!path.startsWith("/chain/")) {
            return notFound();
        }
        int n = WebSimHandler.parsePageId("/p/" + path.substring("/chain/".length()));
        if (n < 0 || n > CHAIN_LENGTH) {
            return notFound();
        }
        return n < CHAIN_LENGTH ? redirect(HttpResponseStatus.FOUND, "/chain/" + (n + 1))
                : html(plainPage(path));
    }

    /** {@code /cal/<year>/<month>/} followed by any number of {@code events/}: prev, next and a nested link. */
    private static Reply calendar(String path) {
        String[] parts = path.split("/", -1); // "", "cal", year, month, ["events"...], ""
        if (parts.length < 5 || !parts[1].equals("cal") || !parts[parts.length - 1].isEmpty()) {
            return notFound();
        }
        int year = WebSimHandler.parsePageId("/p/" + parts[2]);
        int month = WebSimHandler.parsePageId("/p/" + parts[3]);
        if (year < 1 || year > 9999 || month < 1 || month > 12) {
            return notFound();
        }
        for (int i = 4; i < parts.length - 1; i++) {
            if (!parts[i].equals("events")) {
                return notFound();
            }
        }
        int prevY = month == 1 ? year - 1 : year;
        int prevM = month == 1 ? 12 : month - 1;
        int nextY = month == 12 ? year + 1 : year;
        int nextM = month == 12 ? 1 : month + 1;
        StringBuilder sb = new StringBuilder(512);
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>calendar ").append(year).append('-')
                .append(month).append("</title></head><body>\n");
        if (prevY >= 1) {
            sb.append("<a href=\"/cal/").append(prevY).append('/').append(prevM).append("/\">previous month</a>\n");
        }
        if (nextY <= 9999) {
            sb.append("<a href=\"/cal/").append(nextY).append('/').append(nextM).append("/\">next month</a>\n");
        }
        sb.append("<a href=\"events/\">events</a>\n</body></html>\n");
        return html(sb.toString());
    }

    /**
     * {@code /s/<n>?sid=…[&x…=…]}: links to {@code /s/<n+1>} with a fresh session id, and to itself with
     * {@value #SESSION_PARAMS_PER_HOP} more query parameters (a query-parameter explosion: after four such hops a URL
     * has more than 32). The session id is a hash of (n, query), so the web is deterministic yet every page differs.
     */
    private static Reply session(String path, String query) {
        if (!path.startsWith("/s/")) {
            return notFound();
        }
        int n = WebSimHandler.parsePageId("/p/" + path.substring(3));
        if (n < 0 || query.length() > 8192) {
            return notFound();
        }
        int params = query.isEmpty() ? 0 : query.split("&", -1).length;
        String next = "/s/" + (n + 1) + "?sid=" + sessionId(n + 1, query);
        StringBuilder more = new StringBuilder(path).append('?')
                .append(query.isEmpty() ? "sid=" + sessionId(n, "") : query);
        for (int i = 0; i < SESSION_PARAMS_PER_HOP; i++) {
            more.append("&x").append(params + i).append('=').append(params + i);
        }
        return html("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>session page " + n + "</title></head>"
                + "<body>\n<a href=\"" + next.replace("&", "&amp;") + "\">next</a>\n<a href=\""
                + more.toString().replace("&", "&amp;") + "\">sort by date</a>\n</body></html>\n");
    }

    static String sessionId(int n, String query) {
        return Long.toHexString(Mix.hash(0x5E55_1011L, n, query.hashCode()) | (1L << 60));
    }

    private Reply manyLinks(String path) {
        if (path.equals("/many")) {
            return raw(200, () -> {
                CompletableFuture<byte[]> page = HostileContent.manyLinksPage();
                page.whenComplete((bytes, error) -> ctx.executor().execute(() -> {
                    if (error != null || !ctx.channel().isActive()) {
                        ctx.close();
                        return;
                    }
                    write(head(200, HTML, bytes.length, null));
                    write(bytes);
                    finish();
                }));
            });
        }
        return path.startsWith("/many/") ? html(plainPage(path)) : notFound();
    }

    /** Declared UTF-8 with overlong forms, lone continuation bytes, surrogates, 0xFF and a cut sequence at the end. */
    private static Reply badUtf8() {
        byte[][] parts = {
            "<!DOCTYPE html>\n<html><head><title>bad \u00e9 ".getBytes(StandardCharsets.UTF_8),
            {(byte) 0xC3, 0x28, (byte) 0xA0, (byte) 0xA1},
            "</title></head><body><p>overlong: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xC0, (byte) 0xAF, (byte) 0xE0, (byte) 0x80, (byte) 0xAF},
            " surrogate: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            " ff: ".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xFF, (byte) 0xFE, (byte) 0xFD},
            "</p><a href=\"/ok/".getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xE2, (byte) 0x82},
            "1\">link with a broken sequence</a> <a href=\"/ok/2\">a clean link</a></body></html>"
                    .getBytes(StandardCharsets.US_ASCII),
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
        };
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] body = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, body, at, p.length);
            at += p.length;
        }
        return full(HttpResponseStatus.OK, HTML, body);
    }

    private static Reply wrongCharset(String path) {
        String page = "<!DOCTYPE html>\n<html><head>%s<title>caf\u00e9 na\u00efve Gr\u00f6\u00dfe</title></head><body>"
                + "<p>d\u00e9j\u00e0 vu \u2014 r\u00e9sum\u00e9</p><a href=\"/ok/caf\u00e9\">caf\u00e9</a> "
                + "<a href=\"/ok/3\">three</a></body></html>\n";
        return switch (path) {
            case "/latin1" -> full(HttpResponseStatus.OK, "text/html; charset=utf-8",
                    String.format(page, "").replace('\u2014', '-').getBytes(StandardCharsets.ISO_8859_1));
            case "/utf16" -> full(HttpResponseStatus.OK, "text/html; charset=utf-16",
                    String.format(page, "").getBytes(StandardCharsets.UTF_8));
            case "/bogus" -> full(HttpResponseStatus.OK, "text/html; charset=x-no-such-charset-\u00e9",
                    String.format(page, "").getBytes(StandardCharsets.UTF_8));
            case "/meta" -> full(HttpResponseStatus.OK, "text/html; charset=iso-8859-1",
                    String.format(page, "<meta charset=\"shift_jis\">").getBytes(StandardCharsets.UTF_8));
            default -> ok(path);
        };
    }

    private static Reply throttle(HostileMode mode, String path) {
        if (!path.startsWith("/t/")) {
            return ok(path);
        }
        boolean tooMany = mode == HostileMode.THROTTLE_429 || mode == HostileMode.THROTTLE_429_RETRY_AFTER;
        boolean retryAfter = mode == HostileMode.THROTTLE_429_RETRY_AFTER
                || mode == HostileMode.THROTTLE_503_RETRY_AFTER;
        Reply r = text(tooMany ? HttpResponseStatus.TOO_MANY_REQUESTS : HttpResponseStatus.SERVICE_UNAVAILABLE,
                "slow down\n");
        if (retryAfter) {
            r.response().headers().setInt(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return r;
    }

    /** {@code /ok/…}: a small page, the target of the links on the charset pages. */
    private static Reply ok(String path) {
        return path.startsWith("/ok/") ? html(plainPage("/ok/")) : notFound();
    }

    private static Reply redirect(HttpResponseStatus status, String location) {
        Reply r = text(status, "moved to " + location + "\n");
        r.response().headers().set(HttpHeaderNames.LOCATION, location);
        return r;
    }

    private static Reply notFound() {
        return text(HttpResponseStatus.NOT_FOUND, "not found\n");
    }

    private static Reply html(String html) {
        return full(HttpResponseStatus.OK, HTML, html.getBytes(StandardCharsets.UTF_8));
    }

    private static Reply text(HttpResponseStatus status, String text) {
        return full(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    private static Reply full(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return new Reply(response, status.code(), null);
    }

    private static Reply raw(int status, Runnable action) {
        return new Reply(null, status, action);
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
            write(head(200, HTML, bytes.length, "Content-Encoding: gzip\r\n"));
            write(bytes);
            finish();
        }));
    }

    private void slow() {
        byte[] bytes = concat(head(200, HTML, SLOW_BODY.length(), null), SLOW_BODY.getBytes(StandardCharsets.US_ASCII));
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
