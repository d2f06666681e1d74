package io.github.kcrawler.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Ports on the loopback address for the embedded broker: which are free, and whether a start lost a port race. */
final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** Whether starting a server failed because its port was taken (a race with another program). */
    static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
            String msg = t.getMessage();
            if (msg != null && (msg.contains("Address already in use") || msg.contains("failed to bind"))) {
                return true;
            }
        }
        return false;
    }

    /** A port free on the loopback address now, other than {@code exclude}. */
    static int freePort(int exclude) {
        for (int i = 0; i < 20; i++) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getByName(EmbeddedKafkaConfig.LOOPBACK), 0));
                int p = s.getLocalPort();
                if (p != exclude) {
                    return p;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free port on " + EmbeddedKafkaConfig.LOOPBACK, e);
            }
        }
        throw new IllegalStateException("cannot find a free port on " + EmbeddedKafkaConfig.LOOPBACK);
    }

    /** Whether {@code port} can be bound on the loopback address now. */
    static boolean isPortFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(EmbeddedKafkaConfig.LOOPBACK), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
