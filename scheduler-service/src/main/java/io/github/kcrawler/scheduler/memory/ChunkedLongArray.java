package io.github.kcrawler.scheduler.memory;

import java.util.Arrays;

/**
 * A {@code long[]} that grows in fixed chunks of {@value #CHUNK} entries (32 KiB) instead of by doubling: growing
 * never copies, never leaves half an array unused, and never allocates an array large enough to be humongous in G1
 * (half a region or more: 512 KiB at the smallest region size). A doubling array of per-page or per-URL state becomes
 * humongous at 64Ki longs, and a 1 MiB + header array then takes two 1 MiB regions: in a 15-minute soak such arrays
 * made up most of the growth of the heap after full GCs (BENCHMARKS.md, "Soak"). Entries not yet set read as the
 * fill value. Not thread-safe.
 */
public final class ChunkedLongArray {
    static final int SHIFT = 12;
    /** Entries per chunk. */
    public static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private final long fill;
    private long[][] chunks = new long[4][];
    private int chunkCount;

    /** @param fill what entries read before they are set */
    public ChunkedLongArray(long fill) {
        this.fill = fill;
    }

    /** The entry at {@code i}, which must be below {@link #capacity()}. */
    public long get(int i) {
        return chunks[i >>> SHIFT][i & MASK];
    }

    /** Sets the entry at {@code i}, growing the array to hold it. */
    public void set(int i, long value) {
        if (i >>> SHIFT >= chunkCount) {
            ensureCapacity(i + 1);
        }
        chunks[i >>> SHIFT][i & MASK] = value;
    }

    /** Makes indexes {@code [0, size)} readable; new entries read as the fill value. */
    public void ensureCapacity(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, was " + size);
        }
        int need = (int) ((size + (long) MASK) >>> SHIFT);
        if (need > chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(need, 2 * chunks.length));
        }
        while (chunkCount < need) {
            long[] c = new long[CHUNK];
            if (fill != 0) {
                Arrays.fill(c, fill);
            }
            chunks[chunkCount++] = c;
        }
    }

    /** Entries readable without growing: a multiple of {@link #CHUNK}. */
    public int capacity() {
        return chunkCount << SHIFT;
    }

    /** Heap bytes of the chunks (headers and the chunk table included, approximately). */
    public long memoryBytes() {
        return (long) chunkCount * (16 + 8L * CHUNK) + 16 + 8L * chunks.length;
    }
}
