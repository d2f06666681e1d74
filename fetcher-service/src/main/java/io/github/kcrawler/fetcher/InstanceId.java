package io.github.kcrawler.fetcher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.UUID;

/**
 * Who this fetcher instance is, for its {@code transactional.id} ({@code <prefix>fetcher-<id>}). The id must be
 * unique among live instances (two live producers with one id fence each other) and should be the same when the same
 * instance restarts: the restarted producer's {@code initTransactions} then aborts the transaction its crashed
 * predecessor left open at once, instead of leaving it to the broker's {@code transaction.timeout.ms} — an open
 * transaction holds back every read_committed consumer of the partitions it wrote to, and the new owner of its
 * request partitions cannot read their committed offsets until it ends.
 *
 * <p>Set explicitly with {@code instance-id} (e.g. a StatefulSet's pod name). Otherwise it is the host name and the
 * lowest slot number {@code n} whose lock file {@code <state-dir>/fetcher-instances/<host>-<n>.lock} this process can
 * lock: two fetchers on one machine take slots 0 and 1, and one that was killed and restarts finds its own slot free
 * again (the operating system releases the lock of a dead process). A Kubernetes pod gets its pod name as host name,
 * so a restarted container keeps its id and a replaced pod gets a new one. When the state directory cannot be used
 * the id is the host name with a random suffix (unique, not stable; logged).
 */
final class InstanceId implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceId.class);
    /** Slots tried before giving up on a stable id. */
    static final int MAX_SLOTS = 1024;
    /** Longest id kept (the transactional.id is a short string in the broker's transaction log). */
    static final int MAX_LENGTH = 100;

    private final String id;
    private final FileChannel channel;
    private final FileLock lock;

    private InstanceId(String id, FileChannel channel, FileLock lock) {
        this.id = id;
        this.channel = channel;
        this.lock = lock;
    }

    /** The configured id (validated by {@link FetcherConfig}), or one claimed under {@code stateDir}. */
    static InstanceId claim(String configured, Path stateDir) {
        if (configured != null && !configured.isBlank()) {
            return new InstanceId(configured.trim(), null, null);
        }
        return claimSlot(sanitize(hostName()), stateDir.resolve("fetcher-instances"));
    }

    /** The lowest free slot of {@code host} under {@code dir}. */
    static InstanceId claimSlot(String host, Path dir) {
        try {
            Files.createDirectories(dir);
            for (int n = 0; n < MAX_SLOTS; n++) {
                String id = host + "-" + n;
                FileChannel ch = FileChannel.open(dir.resolve(id + ".lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock l;
                try {
                    l = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    l = null; // held by another fetcher in this JVM
                }
                if (l != null) {
                    return new InstanceId(id, ch, l);
                }
                ch.close();
            }
            LOG.warn("all {} fetcher instance slots under {} are taken; using a random instance id", MAX_SLOTS, dir);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot claim a fetcher instance slot under {} ({}); using a random instance id: a restart will"
                    + " not abort this instance's open transaction at once", dir, e.toString());
        }
        return new InstanceId(host + "-" + UUID.randomUUID().toString().substring(0, 8), null, null);
    }

    String id() {
        return id;
    }

    /** Releases the slot (the next instance on this host may take it). */
    @Override
    public void close() {
        try {
            if (lock != null && lock.isValid()) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.debug("cannot release the instance slot {}: {}", id, e.toString());
        }
    }

    /** Letters, digits, '.', '_' and '-' only, at most {@link #MAX_LENGTH} - 5 characters; never empty. */
    static String sanitize(String host) {
        String s = host == null ? "" : host.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "_");
        if (s.length() > MAX_LENGTH - 5) {
            s = s.substring(0, MAX_LENGTH - 5);
        }
        return s.isEmpty() ? "host" : s;
    }

    /** The host name without a DNS lookup: $HOSTNAME, else the kernel's, else "host". */
    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                return new String(Files.readAllBytes(kernel), StandardCharsets.US_ASCII).trim();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot read the host name: {}", e.toString());
        }
        return "host";
    }
}
