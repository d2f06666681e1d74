package io.github.kcrawler.fetcher.http;

import io.github.kcrawler.fetcher.guard.TaskScheduler;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The fetcher's I/O threads: one Netty event-loop group (native epoll where available, NIO otherwise) shared by the
 * HTTP client, the DNS resolver and every timer of the fetch pipeline (politeness waits, not-before delays), so
 * waiting costs a timer entry, never a thread.
 */
public final class NettyTransport implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> socketChannel;
    private final Class<? extends DatagramChannel> datagramChannel;
    private final TaskScheduler scheduler;
    private final boolean epoll;

    public NettyTransport(int ioThreads, boolean preferNative) {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be >= 1, was " + ioThreads);
        }
        epoll = preferNative && Epoll.isAvailable();
        IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(ioThreads, new DefaultThreadFactory("fetcher-io", true), factory);
        socketChannel = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        datagramChannel = epoll ? EpollDatagramChannel.class : NioDatagramChannel.class;
        scheduler = (task, delayMillis) -> {
            if (group.isShuttingDown()) {
                return; // closing: pending waits are abandoned; their records are redone after a restart
            }
            try {
                if (delayMillis <= 0) {
                    group.next().execute(task);
                } else {
                    group.next().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
                }
            } catch (RejectedExecutionException e) {
                LOG.debug("task dropped: event loops are shutting down");
            }
        };
        LOG.info("fetcher transport: {} with {} I/O threads", epoll ? "epoll" : "nio", ioThreads);
    }

    public boolean isNative() {
        return epoll;
    }

    /** Timers and hand-offs on the event loops. */
    public TaskScheduler scheduler() {
        return scheduler;
    }

    EventLoopGroup group() {
        return group;
    }

    Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }

    Class<? extends DatagramChannel> datagramChannel() {
        return datagramChannel;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
