package io.github.kcrawler.common.streams;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The changelog format of a {@link JournalStore}, and its replay. Key: {@link #MAGIC}, the writer's epoch, the batch's
 * sequence number (20 bytes). Value: {@link #VERSION} for a batch, or {@link #VERSION_CHUNK} and a key range for a
 * snapshot chunk, then per change its op byte ({@link #OP_DELETE}, {@link #OP_PUT}), the key's length (unsigned
 * varint) and key, and for a put the value's length and value ({@link JournalBuffer}). Snapshots written in one commit
 * by the first version ({@link #VERSION_SNAPSHOT} for the first batch, which clears the store, and
 * {@link #VERSION_SNAPSHOT_MORE} for the others) are still replayed. Any other key is a per-key record written before
 * journals existed, replayed as Streams' own logging would.
 */
public final class JournalFormat {
    /** First four bytes of every journal key. */
    static final byte[] MAGIC = {'k', 'c', 'j', '1'};
    public static final int KEY_LENGTH = MAGIC.length + 2 * Long.BYTES;
    public static final byte VERSION = 1;
    /** A snapshot's first batch: the store is cleared before its changes. */
    public static final byte VERSION_SNAPSHOT = 2;
    /** A snapshot's further batches. */
    public static final byte VERSION_SNAPSHOT_MORE = 3;
    /**
     * A chunk of a snapshot written over several commits: a key range (from inclusive, to exclusive or no end) whose
     * keys are deleted before the chunk's puts, its entries at the time it was written.
     */
    public static final byte VERSION_CHUNK = 4;
    public static final byte OP_DELETE = 0;
    public static final byte OP_PUT = 1;

    private JournalFormat() {
    }

    /** What a replay of the changelog does, in order. */
    public interface Replay {
        /** A snapshot starts: everything before it is gone. */
        void clear();

        /**
         * A snapshot chunk: every key from {@code from} (inclusive) to {@code to} (exclusive; null: no end) is gone,
         * before the chunk's changes. An empty {@code from} starts a snapshot, a null {@code to} completes it.
         */
        void clearRange(byte[] from, byte[] to);

        /**
         * A journal batch was replayed; {@code ops} counts its changes, 0 for a snapshot's (not called for per-key
         * records of an earlier format).
         */
        void batch(long epoch, long sequence, int ops);

        /** The next change is a per-key record of an earlier changelog, not part of a journal batch. */
        default void perKey() {
        }

        /** One change; a null value deletes. */
        void change(byte[] key, byte[] value);
    }

    /**
     * Replays changelog records in offset order into {@code target}: journal batches change by change (a snapshot's
     * first batch clears first), tombstones of journal keys as nothing, earlier per-key records as they are. Throws
     * {@link IllegalStateException} on a damaged batch: a changelog that cannot be replayed must stop the restore
     * rather than rebuild a store with changes silently missing.
     */
    public static void replay(Collection<KeyValue<byte[], byte[]>> records, Replay target) {
        for (KeyValue<byte[], byte[]> r : records) {
            if (!isJournalKey(r.key)) {
                target.perKey();
                target.change(r.key, r.value);
            } else if (r.value != null) {
                ByteBuffer k = ByteBuffer.wrap(r.key, MAGIC.length, 2 * Long.BYTES);
                long batchEpoch = k.getLong();
                long batchSequence = k.getLong();
                if (r.value.length > 0 && r.value[0] == VERSION_SNAPSHOT) {
                    target.clear();
                }
                int ops = JournalBuffer.decode(r.value, target::clearRange, target::change);
                target.batch(batchEpoch, batchSequence, r.value[0] == VERSION ? ops : 0);
            }
        }
    }

    /** The changes that changelog records leave in effect, in order (from the last snapshot on); null deletes. */
    public static List<KeyValue<Bytes, byte[]>> changes(Collection<KeyValue<byte[], byte[]>> records) {
        List<KeyValue<Bytes, byte[]>> changes = new ArrayList<>();
        replay(records, new Replay() {
            @Override
            public void clear() {
                changes.clear();
            }

            @Override
            public void clearRange(byte[] from, byte[] to) {
                changes.removeIf(c -> inRange(c.key.get(), from, to));
            }

            @Override
            public void batch(long epoch, long sequence, int ops) {
            }

            @Override
            public void change(byte[] key, byte[] value) {
                changes.add(KeyValue.pair(Bytes.wrap(key), value));
            }
        });
        return changes;
    }

    /** Whether {@code key} is in [from, to) in the stores' (unsigned lexicographic) order; null {@code to}: no end. */
    static boolean inRange(byte[] key, byte[] from, byte[] to) {
        return Arrays.compareUnsigned(key, from) >= 0 && (to == null || Arrays.compareUnsigned(key, to) < 0);
    }

    static Bytes key(long epoch, long sequence) {
        return Bytes.wrap(ByteBuffer.allocate(KEY_LENGTH).put(MAGIC).putLong(epoch).putLong(sequence).array());
    }

    public static boolean isJournalKey(byte[] key) {
        if (key == null || key.length != KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (key[i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }
}
