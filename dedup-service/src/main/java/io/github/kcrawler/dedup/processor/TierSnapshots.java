package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.OptionalLong;

/**
 * Keeps a task's LRU and SBFL warm across a clean restart on the same state directory, without ever letting them
 * disagree with the store (correctness rests on the store alone: a cache that answered "seen" for a fingerprint the
 * store lost, or that was forgotten since, would lose that URL for good).
 *
 * <p>At close the tiers are written to {@value #FILE} in the task directory under a fresh random tag, and the same
 * tag is then put into the store, so it reaches the changelog in the task's last transaction. At start the file is
 * loaded only if the store, as restored, holds that very tag: the transaction committed and nothing was processed
 * after it. In every other case (unclean stop, aborted transaction, a task that ran elsewhere in the meantime, a
 * damaged or foreign file) the tiers start cold. Either way the file is deleted and the tag cleared before the first
 * record, so a later state of the store never matches an old file.
 *
 * <p>It pays because a cold LRU sends every test to RocksDB until it has seen {@code url-seen-lru-size} distinct
 * URLs, and a cold SBFL forgets everything the LRU evicted: measured on the restart test, the first tests after a
 * warm restart are answered by the LRU instead of the store.
 */
final class TierSnapshots {
    static final String FILE = "url-seen-tiers.snapshot";
    private static final Logger LOG = LoggerFactory.getLogger(TierSnapshots.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private TierSnapshots() {
    }

    /** Loads the snapshot if it matches the store; returns whether it did. Never throws on a bad file. */
    static boolean restore(UrlSeenTiers tiers, KeyValueFingerprintSet store, Path taskDir, String task) {
        Path file = taskDir.resolve(FILE);
        OptionalLong tag = store.snapshotTag();
        boolean restored = false;
        if (tag.isPresent()) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                restored = tiers.restoreFrom(in, tag.getAsLong());
                LOG.info(restored
                        ? "Task {}: URL-seen caches reloaded from the last clean stop ({} URLs in the LRU)"
                        : "Task {}: URL-seen cache snapshot is from another store state; starting with empty caches",
                        task, tiers.lru().size());
            } catch (NoSuchFileException e) {
                LOG.info("Task {}: no URL-seen cache snapshot here (task ran elsewhere); starting with empty caches",
                        task);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Task {}: URL-seen cache snapshot unreadable ({}); starting with empty caches", task,
                        e.toString());
            }
            store.clearSnapshotTag();
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Task {}: could not delete old URL-seen cache snapshot {}: {}", task, file, e.toString());
        }
        return restored;
    }

    /** Writes the snapshot, then tags the store; on failure nothing is tagged and the next start is cold. */
    static void save(UrlSeenTiers tiers, KeyValueFingerprintSet store, Path taskDir, String task) {
        long tag = RANDOM.nextLong();
        Path file = taskDir.resolve(FILE);
        Path tmp = taskDir.resolve(FILE + ".tmp");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                tiers.snapshotTo(out, tag);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            store.setSnapshotTag(tag);
            LOG.debug("Task {}: URL-seen caches saved ({} bytes)", task, Files.size(file));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Task {}: could not save URL-seen caches ({}); the next start will be cold", task, e.toString());
        }
    }
}
