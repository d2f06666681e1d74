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

    /** Receives a snapshot chunk's key range, before its changes: {@code to} is exclusive, null for no end. */
    interface Range {
        void accept(byte[] from, byte[] to);
    }

    private byte[] bytes = new byte[256];
    private int size;

    void clear() {
        size = 0;
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
        bytes[size++] = JournalFormat.VERSION;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /**
     * The appended puts as a snapshot chunk ({@link JournalFormat#VERSION_CHUNK}) of the key range from {@code from}
     * (inclusive) to {@code to} (exclusive; null: no end): the version byte, {@code from}'s length and bytes, 0 for
     * no end or 1 and {@code to}'s length and bytes, then the changes as in a batch.
     */
    byte[] toChunk(byte[] from, byte[] to) {
        int body = size == 0 ? 0 : size - 1; // without the batch's version byte
        byte[] out = new byte[1 + 5 + from.length + 1 + (to == null ? 0 : 5 + to.length) + body];
        int[] at = {0};
        out[at[0]++] = JournalFormat.VERSION_CHUNK;
        writeBytes(out, at, from);
        out[at[0]++] = (byte) (to == null ? 0 : 1);
        if (to != null) {
            writeBytes(out, at, to);
        }
        if (body > 0) {
            System.arraycopy(bytes, 1, out, at[0], body);
        }
        return Arrays.copyOf(out, at[0] + body);
    }

    private static void writeBytes(byte[] out, int[] at, byte[] value) {
        at[0] = writeVarint(out, at[0], value.length);
        System.arraycopy(value, 0, out, at[0], value.length);
        at[0] += value.length;
    }

    /**
     * Decodes a logged batch in order. A batch this store did not write (unknown version, unknown op, a length past
     * the end) throws {@link IllegalStateException} naming the offset: a changelog that cannot be replayed must stop
     * the restore rather than rebuild a store with changes silently missing.
     */
    static int decode(byte[] batch, Range range, Change change) {
        if (batch.length == 0 || batch[0] < JournalFormat.VERSION || batch[0] > JournalFormat.VERSION_CHUNK) {
            throw new IllegalStateException("journal batch of unknown version "
                    + (batch.length == 0 ? "(empty)" : Byte.toString(batch[0])));
        }
        int[] pos = {1};
        if (batch[0] == JournalFormat.VERSION_CHUNK) {
            byte[] from = readBytes(batch, pos);
            if (pos[0] >= batch.length || (batch[pos[0]] != 0 && batch[pos[0]] != 1)) {
                throw new IllegalStateException("journal batch: bad chunk end at byte " + pos[0]);
            }
            byte[] to = batch[pos[0]++] == 0 ? null : readBytes(batch, pos);
            range.accept(from, to);
        }
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

    private void writeVarint(int v) {
        size = writeVarint(bytes, size, v);
    }

    /** Writes {@code v} as an unsigned varint at {@code at}; returns the position after it. */
    private static int writeVarint(byte[] out, int at, int v) {
        while ((v & ~0x7f) != 0) {
            out[at++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
