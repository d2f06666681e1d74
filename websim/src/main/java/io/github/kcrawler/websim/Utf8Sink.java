package io.github.kcrawler.websim;

import java.util.Arrays;

/**
 * A growable byte buffer that HTML is written into directly as UTF-8. Page rendering is the server's hot path;
 * writing markup and pre-encoded words straight into bytes avoids building a UTF-16 string (the vocabulary has
 * non-Latin words) and encoding it again for every response. Not thread-safe; one per rendering.
 */
final class Utf8Sink {

    private byte[] buf;
    private int len;

    Utf8Sink(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    int length() {
        return len;
    }

    /** Appends {@code s}, which must be ASCII (markup, URLs, host names). */
    Utf8Sink ascii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** Appends already-encoded UTF-8 bytes. */
    Utf8Sink bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** Appends the decimal form of a non-negative int. */
    Utf8Sink num(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative: " + v);
        }
        ensure(10);
        int digits = 1;
        for (int x = v; x >= 10; x /= 10) {
            digits++;
        }
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += digits;
        return this;
    }

    /** Removes and returns everything appended since {@code from}. */
    byte[] cut(int from) {
        byte[] part = Arrays.copyOfRange(buf, from, len);
        len = from;
        return part;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
