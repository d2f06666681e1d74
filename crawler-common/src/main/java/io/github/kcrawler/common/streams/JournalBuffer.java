package io.github.kcrawler.common.streams;

import java.util.Arrays;

/**
 * The pending batch of a {@link JournalStore} and the decoder of a logged one. Format: the version byte,
 * then per change its op byte ({@link JournalStore#OP_DELETE} or {@link JournalStore#OP_PUT}), the key's length as an
 * unsigned varint and the key, and for a put the value's length and the value. One array grows and is reused across
 * batches: appending copies bytes and allocates nothing once it has grown.
 */
final class JournalBuffer {
    /** Receives one decoded change; {@code value} is null for a delete. */
    interface Change {
        void accept(byte[] key, byte[] value);
    }

    private byte[] bytes = new byte[256];
    private int size;
    /** The version byte of the next batch started; after a snapshot's first batch, its further ones. */
    private byte nextVersion = JournalFormat.VERSION;

    void clear() {
        size = 0;
    }

    /** The batches from now on are a snapshot's, until {@link #endSnapshot}: the first clears the store. */
    void markSnapshot() {
        nextVersion = JournalFormat.VERSION_SNAPSHOT;
    }

    void endSnapshot() {
        nextVersion = JournalFormat.VERSION;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void append(byte[] key, byte[] value) {
        int need = 1 + 5 + key.length + (value == null ? 0 : 5 + value.length) + (size == 0 ? 1 : 0);
        ensure(need);
        if (size == 0) {
            startBatch();
        }
        bytes[size++] = value == null ? JournalFormat.OP_DELETE : JournalFormat.OP_PUT;
        writeVarint(key.length);
        System.arraycopy(key, 0, bytes, size, key.length);
        size += key.length;
        if (value != null) {
            writeVarint(value.length);
            System.arraycopy(value, 0, bytes, size, value.length);
            size += value.length;
        }
    }

    private void startBatch() {
        bytes[size++] = nextVersion;
        if (nextVersion == JournalFormat.VERSION_SNAPSHOT) {
            nextVersion = JournalFormat.VERSION_SNAPSHOT_MORE;
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** The batch, or for a snapshot of an empty store (nothing appended) its first batch with no change in it. */
    byte[] toByteArrayOrMarker() {
        if (size == 0) {
            ensure(1);
            startBatch();
        }
        return toByteArray();
    }

    /**
     * Decodes a logged batch in order. A batch this store did not write (unknown version, unknown op, a length past
     * the end) throws {@link IllegalStateException} naming the offset: a changelog that cannot be replayed must stop
     * the restore rather than rebuild a store with changes silently missing.
     */
    static int decode(byte[] batch, Change change) {
        if (batch.length == 0 || batch[0] < JournalFormat.VERSION || batch[0] > JournalFormat.VERSION_SNAPSHOT_MORE) {
            throw new IllegalStateException("journal batch of unknown version "
                    + (batch.length == 0 ? "(empty)" : Byte.toString(batch[0])));
        }
        int[] pos = {1};
        int changes = 0;
        while (pos[0] < batch.length) {
            int at = pos[0];
            byte op = batch[pos[0]++];
            if (op != JournalFormat.OP_DELETE && op != JournalFormat.OP_PUT) {
                throw new IllegalStateException("journal batch: unknown op " + op + " at byte " + at);
            }
            byte[] key = readBytes(batch, pos);
            change.accept(key, op == JournalFormat.OP_PUT ? readBytes(batch, pos) : null);
            changes++;
        }
        return changes;
    }

    private static byte[] readBytes(byte[] batch, int[] pos) {
        int length = 0;
        for (int shift = 0; ; shift += 7) {
            if (pos[0] >= batch.length || shift > 28) {
                throw new IllegalStateException("journal batch: bad length at byte " + pos[0]);
            }
            byte b = batch[pos[0]++];
            length |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        if (length < 0 || length > batch.length - pos[0]) {
            throw new IllegalStateException("journal batch: length " + length + " past the end at byte " + pos[0]);
        }
        byte[] out = Arrays.copyOfRange(batch, pos[0], pos[0] + length);
        pos[0] += length;
        return out;
    }

    static void putLong(byte[] target, int offset, long v) {
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            target[offset + i] = (byte) v;
            v >>>= 8;
        }
    }

    private void writeVarint(int v) {
        while ((v & ~0x7f) != 0) {
            bytes[size++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
