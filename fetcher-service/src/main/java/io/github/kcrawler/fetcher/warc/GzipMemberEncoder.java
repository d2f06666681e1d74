package io.github.kcrawler.fetcher.warc;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes what it is given as one gzip member (RFC 1952) into a growable in-memory buffer, reusing one
 * {@link Deflater} across members. A {@code .warc.gz} file is a concatenation of such members, one per record, so
 * records can be compressed in parallel on the worker threads and only the append to the file is serialised.
 * Not thread-safe: one per thread.
 */
final class GzipMemberEncoder extends OutputStream {
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private static final int SHRINK_ABOVE = 4 * 1024 * 1024;

    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] chunk = new byte[32 * 1024];
    private final byte[] one = new byte[1];
    private byte[] out = new byte[64 * 1024];
    private int size;
    private long inputBytes;

    GzipMemberEncoder(int level) {
        this.deflater = new Deflater(level, true);
    }

    /** Forgets any previous output (and gives back a buffer that one huge record inflated). */
    void reset() {
        size = 0;
        if (out.length > SHRINK_ABOVE) {
            out = new byte[64 * 1024];
        }
    }

    /** Starts a new member after whatever is already in the buffer. */
    void beginMember() {
        deflater.reset();
        crc.reset();
        inputBytes = 0;
        append(HEADER, 0, HEADER.length);
    }

    /** Ends the current member: flushes the deflater and writes the CRC-32 and length trailer. */
    void endMember() {
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(chunk);
            append(chunk, 0, n);
        }
        int c = (int) crc.getValue();
        int len = (int) inputBytes;
        byte[] trailer = {(byte) c, (byte) (c >>> 8), (byte) (c >>> 16), (byte) (c >>> 24),
                (byte) len, (byte) (len >>> 8), (byte) (len >>> 16), (byte) (len >>> 24)};
        append(trailer, 0, 8);
    }

    @Override
    public void write(int b) {
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len == 0) {
            return;
        }
        crc.update(b, off, len);
        inputBytes += len;
        deflater.setInput(b, off, len);
        while (!deflater.needsInput()) {
            int n = deflater.deflate(chunk);
            append(chunk, 0, n);
        }
    }

    byte[] buffer() {
        return out;
    }

    int size() {
        return size;
    }

    void end() {
        deflater.end();
    }

    private void append(byte[] b, int off, int len) {
        if (size + len > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + len));
        }
        System.arraycopy(b, off, out, size, len);
        size += len;
    }
}
