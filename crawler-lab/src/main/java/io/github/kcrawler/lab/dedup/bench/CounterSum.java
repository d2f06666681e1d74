package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.StableCounterFilter;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The sum of a stable filter's counters, read through its public snapshot ({@link StableCounterFilter#writeTo}, format
 * version 1: a header of {@value #HEADER_BYTES} bytes — magic, version, kind, bits, m, k, p, carry, cursor, word
 * count — then the counter words, big-endian), and the sum a cursor sweep must leave. {@code bench sbfl-decrement}
 * checks every timed run with these: the counters it claims to have decremented must have been decremented.
 */
final class CounterSum extends OutputStream {
    /** int magic, 3 bytes (version, kind, bits), long m, int k, long p, long carry, long cursor, int word count. */
    static final int HEADER_BYTES = 4 + 3 + 8 + 4 + 8 + 8 + 8 + 4;

    private final int bits;
    private final long low;
    private long bytes;
    private long word;
    private long sum;

    private CounterSum(int bits) {
        this.bits = bits;
        this.low = lowBits(bits);
    }

    /** Σ counters of {@code filter}; O(m / (64 / bits)). */
    static long of(StableCounterFilter filter) {
        CounterSum s = new CounterSum(filter.counterBits());
        try (DataOutputStream out = new DataOutputStream(s)) {
            filter.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long words = (filter.counters() * filter.counterBits() + 63) / 64;
        if (s.bytes != HEADER_BYTES + 8 * words) {
            throw new IllegalStateException("a filter snapshot of " + s.bytes + " bytes, expected "
                    + (HEADER_BYTES + 8 * words) + ": its format changed");
        }
        return s.sum;
    }

    /**
     * Σ counters of m counters that all started at {@code max} after a cursor, starting at counter 0, swept over
     * {@code done} of them: counter i was decremented ⌊done/m⌋ times, once more if i < done mod m, never below 0.
     */
    static long afterSweep(long m, int max, long done) {
        long q = done / m;
        long r = done % m;
        return r * Math.max(0, max - q - 1) + (m - r) * Math.max(0, max - q);
    }

    /** Σ of the {@code bits}-wide lanes of {@code word}. */
    static long laneSum(long word, int bits) {
        return laneSum(word, bits, lowBits(bits));
    }

    private static long laneSum(long word, int bits, long low) {
        long sum = 0;
        for (int j = 0; j < bits; j++) {
            sum += (long) Long.bitCount(word & (low << j)) << j;
        }
        return sum;
    }

    /** The lowest bit of every {@code bits}-wide lane. */
    private static long lowBits(int bits) {
        long low = 0;
        for (int shift = 0; shift < 64; shift += bits) {
            low |= 1L << shift;
        }
        return low;
    }

    /** One byte of the snapshot: past the header, eight of them make a counter word (big-endian). */
    @Override
    public void write(int b) {
        if (bytes++ < HEADER_BYTES) {
            return;
        }
        word = (word << 8) | (b & 0xFF);
        if ((bytes - HEADER_BYTES) % 8 == 0) {
            sum += laneSum(word, bits, low);
            word = 0;
        }
    }
}
