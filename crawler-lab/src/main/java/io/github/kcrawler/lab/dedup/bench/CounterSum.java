package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.StableCounterFilter;

import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The sum of a stable filter's counters, read through its public snapshot ({@link StableCounterFilter#writeTo}, format
 * version 1: a header whose four {@code long}s are m, p, carry and cursor, then the counter words), and the sum a
 * cursor sweep must leave. {@code bench sbfl-decrement} checks every timed run with these: the counters it claims to
 * have decremented must have been decremented.
 */
final class CounterSum implements DataOutput {
    /** The header's {@code long}s before the words: m, p (fixed point), carry, cursor. */
    private static final int HEADER_LONGS = 4;

    private final int bits;
    private final long low;
    private int longs;
    private long sum;

    private CounterSum(int bits) {
        this.bits = bits;
        this.low = lowBits(bits);
    }

    /** Σ counters of {@code filter}; O(m / (64 / bits)). */
    static long of(StableCounterFilter filter) {
        CounterSum s = new CounterSum(filter.counterBits());
        try {
            filter.writeTo(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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

    @Override
    public void writeLong(long v) {
        if (longs++ >= HEADER_LONGS) {
            sum += laneSum(v, bits, low);
        }
    }

    @Override
    public void write(int b) {
    }

    @Override
    public void write(byte[] b) {
    }

    @Override
    public void write(byte[] b, int off, int len) {
    }

    @Override
    public void writeBoolean(boolean v) {
    }

    @Override
    public void writeByte(int v) {
    }

    @Override
    public void writeShort(int v) {
    }

    @Override
    public void writeChar(int v) {
    }

    @Override
    public void writeInt(int v) {
    }

    @Override
    public void writeFloat(float v) {
    }

    @Override
    public void writeDouble(double v) {
    }

    @Override
    public void writeBytes(String s) {
    }

    @Override
    public void writeChars(String s) {
    }

    @Override
    public void writeUTF(String s) {
    }
}
