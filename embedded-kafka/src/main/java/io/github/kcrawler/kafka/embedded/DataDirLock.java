package io.github.kcrawler.kafka.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** An exclusive lock on a file, against other brokers in this JVM and in other processes. */
final class DataDirLock {
    private static final Logger LOG = LoggerFactory.getLogger(DataDirLock.class);

    private final Path file;
    private final FileChannel channel;
    private final FileLock fileLock;

    private DataDirLock(Path file, FileChannel channel, FileLock fileLock) {
        this.file = file;
        this.channel = channel;
        this.fileLock = fileLock;
    }

    static DataDirLock acquire(Path file) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = channel.tryLock();
            if (l == null) {
                throw inUse(file, null);
            }
            return new DataDirLock(file, channel, l);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(file, e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + file, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static IllegalStateException inUse(Path file, Exception cause) {
        return new IllegalStateException("Kafka data directory " + file.getParent() + " is in use by another"
                + " embedded broker (lock " + file.getFileName() + " is held)", cause);
    }

    void release() {
        try {
            if (fileLock.isValid()) {
                fileLock.release();
            }
        } catch (IOException e) {
            LOG.warn("cannot release {}: {}", file, e.toString());
        } finally {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
