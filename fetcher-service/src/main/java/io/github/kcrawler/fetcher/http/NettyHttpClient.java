package io.github.kcrawler.fetcher.http;

import io.github.kcrawler.common.time.CrawlClock;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContentDecompressor;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;

import javax.net.ssl.SSLException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fetcher's asynchronous HTTP/1.1 client on Netty. One request per connection at a time (no pipelining); a
 * connection whose response was read completely and that both sides agree to keep alive goes back to a pool
 * keyed by route — (scheme, IP, port), plus the TLS host for https because a TLS session is bound to its SNI
 * name — and is reused by the next request to that route; any error closes it. A reused connection that the
 * server had already closed fails before a byte of response arrives: such a request is retried once on a fresh
 * connection, so stale keep-alive never surfaces as a fetch failure.
 *
 * <p>Each request carries Host, User-Agent, Accept, {@code Accept-Encoding: gzip, deflate} (decoded by
 * {@link HttpContentDecompressor}; the body cap applies to decoded bytes, which defuses compression bombs) and
 * {@code Connection: keep-alive}. Timeouts: connect ({@link ChannelOption#CONNECT_TIMEOUT_MILLIS}), read (no
 * bytes for that long), first byte (request written to response head) and total (request start to last byte); a
 * server trickling one byte a second is cut at the total timeout. Inflation is streamed by Netty in bounded pieces
 * and {@link WireMeter} remembers the encoding, so a compressed body that grows past the cap ends as
 * {@link HttpFailure#INFLATED_TOO_LARGE} after inflating only about the cap, whatever the bomb's full size. TLS uses the JDK trust store with SNI and
 * hostname verification ({@code HTTPS} endpoint identification). With an HTTP proxy, https goes through a CONNECT
 * tunnel to the target's IP and http is sent to the proxy in absolute form ({@code GET http://host/path}), the way
 * every HTTP proxy accepts it (many refuse CONNECT to port 80). Redirects are not followed: a 3xx is a response
 * like any other.
 *
 * <p>Results never fail exceptionally: every outcome is an {@link HttpFetchResponse}.
 */
public final class NettyHttpClient implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(NettyHttpClient.class);
    private static final String ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    private final NettyTransport transport;
    private final HttpClientSettings settings;
    private final CrawlClock clock;
    private final SslContext ssl;
    private final Bootstrap bootstrap;
    private final List<Map.Entry<String, String>> fixedHeaders;
    private final ConcurrentHashMap<Route, ArrayDeque<Channel>> idle = new ConcurrentHashMap<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private final AtomicInteger openConnections = new AtomicInteger();
    private volatile boolean closed;

    /** A pool key: where a connection goes and, for TLS, which name it was verified for. */
    record Route(boolean https, InetAddress address, int port, String tlsHost) {
        static Route of(HttpFetch f) {
            return new Route(f.https(), f.address(), f.port(), f.https() ? f.host() : null);
        }
    }

    public NettyHttpClient(NettyTransport transport, HttpClientSettings settings, CrawlClock clock) {
        this.transport = transport;
        this.settings = settings;
        this.clock = clock;
        try {
            SslContextBuilder b = SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS");
            if (settings.insecureTls()) {
                LOG.warn("TLS verification is OFF (tls-insecure=true): certificates and host names are not checked; "
                        + "any network attacker can impersonate any https site. Use it only for servers you run.");
                b.endpointIdentificationAlgorithm(null)
                        .trustManager(io.netty.handler.ssl.util.InsecureTrustManagerFactory.INSTANCE);
            } else if (!settings.trustedCertificates().isEmpty()) {
                b.trustManager(settings.trustedCertificates().toArray(new X509Certificate[0]));
            }
            this.ssl = b.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot initialise TLS", e);
        }
        this.bootstrap = new Bootstrap().group(transport.group()).channel(transport.socketChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true);
        this.fixedHeaders = List.of(header("User-Agent", settings.userAgent()), header("Accept", ACCEPT),
                header("Accept-Encoding", "gzip, deflate"), header("Connection", "keep-alive"));
    }

    /** Sends the request; the future always completes normally, on an I/O thread. */
    public CompletableFuture<HttpFetchResponse> fetch(HttpFetch fetch) {
        Exchange ex = new Exchange(this, fetch, requestHeaders(fetch));
        if (closed) {
            ex.fail(HttpFailure.CLOSED, "client closed");
            return ex.future;
        }
        ex.armTotalTimeout(transport.group().next(), settings.totalTimeoutMillis());
        Route route = Route.of(fetch);
        Channel pooled = pollIdle(route);
        if (pooled != null) {
            ExchangeHandler handler = pooled.pipeline().get(ExchangeHandler.class);
            if (handler != null) {
                pooled.eventLoop().execute(() -> handler.start(ex, true));
                return ex.future;
            }
            pooled.close();
        }
        connect(ex, route);
        return ex.future;
    }

    /** Idle pooled connections (for tests and metrics). */
    public int idleConnections() {
        return idleCount.get();
    }

    /** Connections currently open, pooled or busy. */
    public int openConnections() {
        return openConnections.get();
    }

    CrawlClock clock() {
        return clock;
    }

    HttpClientSettings settings() {
        return settings;
    }

    /** Opens a fresh connection for the exchange (first attempt, or the retry after a stale pooled one). */
    void connect(Exchange ex, Route route) {
        if (closed) {
            ex.fail(HttpFailure.CLOSED, "client closed");
            return;
        }
        Bootstrap b = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                initPipeline(ch, route);
            }
        });
        ChannelFuture cf;
        try {
            // connect (and CONNECT through a proxy) by the bare IP: the address the guard paced, not a name a proxy
            // might resolve elsewhere; plain http through a proxy connects to the proxy itself
            InetAddress bare = InetAddress.getByAddress(route.address().getAddress());
            cf = b.connect(absoluteForm(route) ? settings.proxy() : new InetSocketAddress(bare, route.port()));
        } catch (java.net.UnknownHostException e) {
            ex.fail(HttpFailure.CONNECT, "unusable address " + route.address());
            return;
        } catch (RuntimeException e) {
            ex.fail(HttpFailure.CONNECT, "cannot open connection: " + e);
            return;
        }
        ex.channel = cf.channel();
        cf.addListener(f -> {
            if (f.isSuccess()) {
                ExchangeHandler handler = cf.channel().pipeline().get(ExchangeHandler.class);
                handler.start(ex, false);
            } else {
                Throwable c = f.cause();
                if (c instanceof ConnectTimeoutException) {
                    ex.fail(HttpFailure.TIMEOUT, "connect timeout after " + settings.connectTimeoutMillis() + " ms");
                } else {
                    ex.fail(HttpFailure.CONNECT, "connect failed: " + message(c));
                }
                cf.channel().close();
            }
        });
    }

    private void initPipeline(Channel ch, Route route) {
        openConnections.incrementAndGet();
        ch.closeFuture().addListener(f -> openConnections.decrementAndGet());
        ChannelPipeline p = ch.pipeline();
        // first in the pipeline, so that any bytes (TLS records, proxy replies, partial headers) count as activity
        p.addLast("idle", new IdleStateHandler(settings.readTimeoutMillis(), 0, 0, TimeUnit.MILLISECONDS));
        if (settings.proxy() != null && route.https()) {
            HttpProxyHandler proxy = new HttpProxyHandler(settings.proxy());
            proxy.setConnectTimeoutMillis(settings.connectTimeoutMillis());
            p.addLast("proxy", proxy);
        }
        if (route.https()) {
            SslHandler tls = ssl.newHandler(ch.alloc(), route.tlsHost(), route.port());
            tls.setHandshakeTimeoutMillis(settings.readTimeoutMillis());
            p.addLast("tls", tls);
        }
        p.addLast("codec", new HttpClientCodec(8192, 32 * 1024, 64 * 1024));
        p.addLast("wire", new WireMeter());
        p.addLast("inflate", new HttpContentDecompressor(0));
        p.addLast("exchange", new ExchangeHandler(this, route));
    }

    /** True if requests on this route go to the proxy in absolute form (plain http through a proxy). */
    boolean absoluteForm(Route route) {
        return settings.proxy() != null && !route.https();
    }

    /** Puts a connection that completed its exchange back in the pool; false if it should be closed instead. */
    boolean offerIdle(Route route, Channel ch) {
        if (closed || !ch.isActive() || idleCount.get() >= settings.maxIdleTotal()) {
            return false;
        }
        boolean[] added = {false};
        idle.compute(route, (k, q) -> {
            if (q == null) {
                q = new ArrayDeque<>(2);
            }
            if (q.size() < settings.maxIdlePerRoute()) {
                q.addFirst(ch);
                added[0] = true;
            }
            return q.isEmpty() ? null : q;
        });
        if (added[0]) {
            idleCount.incrementAndGet();
        }
        return added[0];
    }

    /** Forgets a pooled connection that closed while idle. */
    void removeIdle(Route route, Channel ch) {
        boolean[] removed = {false};
        idle.computeIfPresent(route, (k, q) -> {
            removed[0] = q.remove(ch);
            return q.isEmpty() ? null : q;
        });
        if (removed[0]) {
            idleCount.decrementAndGet();
        }
    }

    private Channel pollIdle(Route route) {
        while (true) {
            Channel[] got = {null};
            idle.computeIfPresent(route, (k, q) -> {
                got[0] = q.pollFirst();
                return q.isEmpty() ? null : q;
            });
            Channel ch = got[0];
            if (ch == null) {
                return null;
            }
            idleCount.decrementAndGet();
            if (ch.isActive()) {
                return ch;
            }
            ch.close();
        }
    }

    private List<Map.Entry<String, String>> requestHeaders(HttpFetch f) {
        List<Map.Entry<String, String>> h = new ArrayList<>(fixedHeaders.size() + 1 + f.extraHeaders().size());
        h.add(header("Host", f.hostHeader()));
        h.addAll(fixedHeaders);
        h.addAll(f.extraHeaders());
        return h;
    }

    static Map.Entry<String, String> header(String name, String value) {
        return new AbstractMap.SimpleImmutableEntry<>(name, value);
    }

    static String message(Throwable t) {
        if (t == null) {
            return "unknown error";
        }
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + m;
    }

    /** Closes pooled connections; requests still in flight end when the transport shuts down. Idempotent. */
    @Override
    public void close() {
        closed = true;
        for (Route r : new ArrayList<>(idle.keySet())) {
            Channel ch;
            while ((ch = pollIdle(r)) != null) {
                ch.close();
            }
        }
    }
}
