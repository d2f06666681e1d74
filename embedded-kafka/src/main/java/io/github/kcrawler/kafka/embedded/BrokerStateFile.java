package io.github.kcrawler.kafka.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The small properties files an {@link EmbeddedKafkaBroker} reads and writes in its data directory: its own state
 * file ({@link EmbeddedKafkaBroker#STATE_FILE}: the ports it listened on, its cluster and node id, reused on the next
 * start) and Kafka's {@code meta.properties}. Written atomically (a temporary file, then a rename), so a crash leaves
 * either the old file or the new one.
 */
final class BrokerStateFile {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerStateFile.class);

    private BrokerStateFile() {
    }

    /** The file's properties; empty when it does not exist. */
    static Properties read(Path file) {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return p;
    }

    /** A TCP port from {@code p}, or 0 when it is absent, not a number or out of 1–65535 (logged). */
    static int port(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            return 0;
        }
        try {
            int i = Integer.parseInt(v.trim());
            return i > 0 && i <= 65535 ? i : 0;
        } catch (NumberFormatException e) {
            LOG.warn("ignoring bad {} '{}' in {}", key, v, EmbeddedKafkaBroker.STATE_FILE);
            return 0;
        }
    }

    /** Remembers what the next start on {@code dataDir} reuses; a failure to write is logged, not thrown. */
    static void write(Path dataDir, int port, int controllerPort, String clusterId, int nodeId) {
        Properties p = new Properties();
        p.setProperty("broker.port", String.valueOf(port));
        p.setProperty("controller.port", String.valueOf(controllerPort));
        p.setProperty("cluster.id", clusterId);
        p.setProperty("node.id", String.valueOf(nodeId));
        Path file = dataDir.resolve(EmbeddedKafkaBroker.STATE_FILE);
        Path tmp = dataDir.resolve(EmbeddedKafkaBroker.STATE_FILE + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "embedded Kafka broker: ports reused on the next start (delete to pick new ones)");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            LOG.warn("cannot write {}: {}", file, e.toString());
        }
    }
}
