package io.github.kcrawler.websim;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/1.1 server of the simulated web: Netty (NIO), one listening channel per simulated loopback address, all
 * on one port (the hostile modes' hosts included, on 127.2.0.x), so that the address a connection arrives on
 * <em>is</em> the simulated IP of the host it asks for —
 * which is what lets {@link AccessRecorder} judge per-IP politeness without trusting the crawler. It never binds the
 * wildcard address: nothing outside the machine can reach it, and it cannot answer for real hosts.
 *
 * <p>Pipeline per connection: idle timeout → HTTP codec → gzip/deflate compressor (only when the client sends
 * {@code Accept-Encoding}) → aggregator → {@link WebSimHandler}. Keep-alive follows HTTP/1.1 rules. A configured
 * latency delays each response on the connection's event loop (no thread sleeps), so thousands of slow responses
 * can be outstanding on a few threads.
 */
public final class WebSimServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WebSimServer.class);
    private static final int IDLE_SECONDS = 120;
    private static final int BIND_ATTEMPTS = 8;

    private final SiteLayout layout;
    private final PageRenderer renderer;
    private final ChangeSchedule changes;
    private final AccessRecorder recorder;
    private final int latencyMs;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Map<InetAddress, Integer> ipIndexByAddress = new HashMap<>();
    private final List<Channel> listeners = new ArrayList<>();
    private int port;

    private WebSimServer(SiteLayout layout, PageRenderer renderer, ChangeSchedule changes, AccessRecorder recorder,
            int latencyMs, int ioThreads) {
        this.layout = layout;
        this.renderer = renderer;
        this.changes = changes;
        this.recorder = recorder;
        this.latencyMs = latencyMs;
        int threads = ioThreads > 0 ? ioThreads : Math.min(4, Runtime.getRuntime().availableProcessors());
        this.bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workerGroup = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
    }

    /**
     * Binds every address of {@code layout} on {@code port} (0: a free port chosen on the first address and reused
     * on the others; retried on a new port if another address has it taken) and starts serving.
     */
    public static WebSimServer start(SiteLayout layout, PageRenderer renderer, ChangeSchedule changes,
            AccessRecorder recorder, int port, int latencyMs, int ioThreads) throws IOException {
        WebSimServer server = new WebSimServer(layout, renderer, changes, recorder, latencyMs, ioThreads);
        try {
            server.bindAll(port);
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void bindAll(int requestedPort) throws IOException {
        for (int j = 0; j < recorder.numAddresses(); j++) {
            InetAddress address = InetAddress.getByName(recorder.ipAddress(j));
            if (!address.isLoopbackAddress()) {
                throw new IllegalStateException("refusing to bind non-loopback address " + address);
            }
            ipIndexByAddress.put(address, j);
        }
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(
                                new IdleStateHandler(0, 0, IDLE_SECONDS),
                                new HttpServerCodec(8192, 16384, 8192),
                                new HttpContentCompressor(StandardCompressionOptions.gzip(),
                                        StandardCompressionOptions.deflate()),
                                new HttpObjectAggregator(64 * 1024),
                                new WebSimHandler(WebSimServer.this));
                    }
                });
        IOException last = null;
        int attempts = requestedPort == 0 ? BIND_ATTEMPTS : 1;
        for (int attempt = 0; attempt < attempts; attempt++) {
            try {
                bindOnce(bootstrap, requestedPort);
                LOG.info("websim listening on {} loopback addresses (127.1.x.y; hostile hosts 127.2.0.x), port {}",
                        listeners.size(), port);
                return;
            } catch (IOException e) {
                last = e;
                closeListeners();
                LOG.debug("bind attempt {} failed: {}", attempt + 1, e.toString());
            }
        }
        throw last;
    }

    private void bindOnce(ServerBootstrap bootstrap, int requestedPort) throws IOException {
        int chosen = requestedPort;
        for (int j = 0; j < recorder.numAddresses(); j++) {
            InetSocketAddress address = new InetSocketAddress(recorder.ipAddress(j), chosen);
            ChannelFuture future = bootstrap.bind(address).awaitUninterruptibly();
            if (!future.isSuccess()) {
                Throwable cause = future.cause();
                BindException e = new BindException("cannot bind " + address + ": " + cause);
                e.initCause(cause);
                throw e;
            }
            listeners.add(future.channel());
            if (chosen == 0) {
                chosen = ((InetSocketAddress) future.channel().localAddress()).getPort();
            }
        }
        port = chosen;
    }

    /** The port every simulated address listens on. */
    public int port() {
        return port;
    }

    /** The bound socket addresses, by simulated address index. */
    public List<InetSocketAddress> boundAddresses() {
        return listeners.stream().map(ch -> (InetSocketAddress) ch.localAddress()).toList();
    }

    SiteLayout layout() {
        return layout;
    }

    PageRenderer renderer() {
        return renderer;
    }

    ChangeSchedule changes() {
        return changes;
    }

    AccessRecorder recorder() {
        return recorder;
    }

    int latencyMs() {
        return latencyMs;
    }

    /** Index of the simulated address {@code address}, or -1. */
    int ipIndex(InetAddress address) {
        return ipIndexByAddress.getOrDefault(address, -1);
    }

    private void closeListeners() {
        for (Channel ch : listeners) {
            ch.close().awaitUninterruptibly();
        }
        listeners.clear();
    }

    /** Stops listening, closes open connections and the event loops; waits up to a few seconds. */
    @Override
    public void close() {
        closeListeners();
        var boss = bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        var workers = workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        boss.awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
