package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.common.fingerprint.Fingerprints;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * What the Stable Bloom Filter (Deng &amp; Rafiei 2006) and the Stable Bloom Filter Light (seed 000 §4.2) share:
 * m counters of d bits (Max = 2^d − 1) packed into {@code long} words, k positions per fingerprint, and an
 * insertion that first decrements p counters (saturating at 0) and then sets the element's k counters to Max. A
 * query is positive iff all k counters are non-zero. The two filters differ only in which p counters they
 * decrement ({@link #decrement(long)}): random ones (SBF) or the next p from a cyclic cursor (SBFL).
 *
 * <p>Parameters and invariants:
 * <ul>
 *   <li>m is a power of two in [64, 2^32], so a position is a mask away and a word holds whole counters;
 *   d ∈ {1, 2, 4, 8}.</li>
 *   <li>k positions by double hashing of the (re-mixed) fingerprint, {@code h1 + i·h2 mod m} with h2 odd, so the k
 *   positions of one fingerprint are distinct (Kirsch &amp; Mitzenmacher).</li>
 *   <li>p is fractional (e.g. 84.73); it is held in 32.32 fixed point and the fraction is carried from insertion to
 *   insertion, so over n insertions exactly {@code floor(n·p̂ + carry)} counters are decremented, p̂ being p rounded
 *   to 2^-32 — no floating-point drift however long the crawl.</li>
 *   <li>Forget sets the element's k counters to 0: it can only create false negatives, which fall through to the
 *   exact store (DESIGN §4.1).</li>
 * </ul>
 * Memory: m·d/8 bytes (2^24 2-bit counters = 4 MiB). Snapshots ({@link #writeTo}, format version 1) hold the
 * counters, the cursor and the carry; they restore only into a filter of the same m, d and k, because the counter
 * positions of every element depend on them. Not thread-safe: one instance per stream task.
 */
public abstract sealed class StableCounterFilter implements FingerprintFilter
        permits StableBloomFilter, StableBloomFilterLight {
    static final int SNAPSHOT_MAGIC = 0x4B534246; // "KSBF"
    static final int SNAPSHOT_VERSION = 1;
    static final long MAX_COUNTERS = 1L << 32;
    private static final long ONE = 1L << 32;

    final long m;
    final long positionMask;
    final int k;
    final int bits;
    final int max;
    /** log2 of counters per word. */
    final int logPerWord;
    final long[] words;
    private final long pFixed;
    private long carry;

    StableCounterFilter(long m, int k, double p, int bits) {
        if (m < 64 || m > MAX_COUNTERS || Long.bitCount(m) != 1) {
            throw new IllegalArgumentException("counters (m) must be a power of two in [64, 2^32], was " + m);
        }
        if (bits != 1 && bits != 2 && bits != 4 && bits != 8) {
            throw new IllegalArgumentException("counter bits must be 1, 2, 4 or 8, was " + bits);
        }
        if (k < 1 || k > 64 || k >= m) {
            throw new IllegalArgumentException("hash positions (k) must be in [1, 64] and < m, was " + k);
        }
        if (!(p >= 0.0 && p <= m)) {
            throw new IllegalArgumentException("decrements per insertion (p) must be in [0, m], was " + p);
        }
        this.m = m;
        this.positionMask = m - 1;
        this.k = k;
        this.bits = bits;
        this.max = (1 << bits) - 1;
        this.logPerWord = 6 - Integer.numberOfTrailingZeros(bits);
        this.words = new long[(int) (m >>> logPerWord)];
        this.pFixed = Math.round(p * ONE);
    }

    /** Decrements {@code count} counters (saturating at 0): the one step in which SBF and SBFL differ. */
    public abstract void decrement(long count);

    /** Snapshot kind byte: 0 for SBF, 1 for SBFL (informational; counters are compatible across kinds). */
    abstract int kind();

    /** Position of the cyclic cursor (0 for the SBF, which has none). */
    abstract long cursor();

    abstract void restoreCursor(long cursor);

    @Override
    public final boolean mightContain(long fingerprint) {
        long h = Fingerprints.fmix64(fingerprint);
        long h1 = h & 0xFFFFFFFFL;
        long h2 = (h >>> 32) | 1L;
        for (int i = 0; i < k; i++) {
            if (counter((h1 + i * h2) & positionMask) == 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public final boolean put(long fingerprint) {
        decrement(nextDecrementCount());
        long h = Fingerprints.fmix64(fingerprint);
        long h1 = h & 0xFFFFFFFFL;
        long h2 = (h >>> 32) | 1L;
        boolean changed = false;
        for (int i = 0; i < k; i++) {
            long index = (h1 + i * h2) & positionMask;
            int w = (int) (index >>> logPerWord);
            int shift = (int) (index & ((1 << logPerWord) - 1)) * bits;
            long word = words[w];
            changed |= ((word >>> shift) & max) == 0;
            words[w] = word | ((long) max << shift);
        }
        return changed;
    }

    @Override
    public final void forget(long fingerprint) {
        long h = Fingerprints.fmix64(fingerprint);
        long h1 = h & 0xFFFFFFFFL;
        long h2 = (h >>> 32) | 1L;
        for (int i = 0; i < k; i++) {
            long index = (h1 + i * h2) & positionMask;
            int w = (int) (index >>> logPerWord);
            int shift = (int) (index & ((1 << logPerWord) - 1)) * bits;
            words[w] &= ~((long) max << shift);
        }
    }

    /**
     * The decay half of one insertion: decrements the next p counters (p with its carried fraction) and returns how
     * many. {@link #put} is this followed by setting the element's k counters; benchmarks time it alone.
     */
    public final long decayStep() {
        long count = nextDecrementCount();
        decrement(count);
        return count;
    }

    /** The k counter positions of a fingerprint (allocates; for tests and diagnostics). */
    final long[] positions(long fingerprint) {
        long h = Fingerprints.fmix64(fingerprint);
        long h1 = h & 0xFFFFFFFFL;
        long h2 = (h >>> 32) | 1L;
        long[] out = new long[k];
        for (int i = 0; i < k; i++) {
            out[i] = (h1 + i * h2) & positionMask;
        }
        return out;
    }

    /** How many counters the next insertion decrements: the integer part of p plus the carried fraction. */
    final long nextDecrementCount() {
        long acc = carry + pFixed;
        carry = acc & (ONE - 1);
        return acc >>> 32;
    }

    /** The value of counter {@code index}. */
    final int counter(long index) {
        int shift = (int) (index & ((1 << logPerWord) - 1)) * bits;
        return (int) (words[(int) (index >>> logPerWord)] >>> shift) & max;
    }

    final void setCounter(long index, int value) {
        int w = (int) (index >>> logPerWord);
        int shift = (int) (index & ((1 << logPerWord) - 1)) * bits;
        words[w] = (words[w] & ~((long) max << shift)) | ((long) (value & max) << shift);
    }

    /** Sets every counter to zero and the cursor and carry to their start: an empty filter. */
    public final void clearCounters() {
        java.util.Arrays.fill(words, 0L);
        carry = 0;
        restoreCursor(0);
    }

    /** Sets every counter to {@code value} (clamped to [0, Max]); benchmarks start from a full filter. */
    public final void fill(int value) {
        long lanes = Math.max(0, Math.min(max, value));
        long word = 0;
        for (int shift = 0; shift < 64; shift += bits) {
            word |= lanes << shift;
        }
        java.util.Arrays.fill(words, word);
    }

    /** The counter maximum, 2^d − 1. */
    public final int counterMax() {
        return max;
    }

    /** Counters (m). */
    public final long counters() {
        return m;
    }

    public final int hashes() {
        return k;
    }

    public final int counterBits() {
        return bits;
    }

    /** The configured p (after rounding to 2^-32). */
    public final double decrementsPerInsertion() {
        return pFixed / (double) ONE;
    }

    /** Counters at zero; O(m), for tests and benchmarks. */
    public final long zeroCounters() {
        long zeros = 0;
        for (long i = 0; i < m; i++) {
            if (counter(i) == 0) {
                zeros++;
            }
        }
        return zeros;
    }

    @Override
    public final long memoryBytes() {
        return 16L + 8L * words.length;
    }

    /** Writes the filter's state (format version 1). */
    public final void writeTo(DataOutput out) throws IOException {
        out.writeInt(SNAPSHOT_MAGIC);
        out.writeByte(SNAPSHOT_VERSION);
        out.writeByte(kind());
        out.writeByte(bits);
        out.writeLong(m);
        out.writeInt(k);
        out.writeLong(pFixed);
        out.writeLong(carry);
        out.writeLong(cursor());
        out.writeInt(words.length);
        for (long word : words) {
            out.writeLong(word);
        }
    }

    /**
     * Replaces this filter's state by a snapshot of a filter with the same m, d and k (p may differ: the configured
     * p is kept). On any mismatch or damage it throws and leaves this filter empty, i.e. cold but correct.
     */
    public final void readFrom(DataInput in) throws IOException {
        try {
            read(in);
        } catch (IOException | RuntimeException e) {
            clearCounters();
            throw e;
        }
    }

    private void read(DataInput in) throws IOException {
        int magic = in.readInt();
        if (magic != SNAPSHOT_MAGIC) {
            throw new IOException("not a stable filter snapshot: magic " + Integer.toHexString(magic));
        }
        int version = in.readUnsignedByte();
        if (version != SNAPSHOT_VERSION) {
            throw new IOException("stable filter snapshot version " + version + " is not supported");
        }
        in.readUnsignedByte(); // kind: counters are compatible between SBF and SBFL
        int snapBits = in.readUnsignedByte();
        long snapM = in.readLong();
        int snapK = in.readInt();
        if (snapBits != bits || snapM != m || snapK != k) {
            throw new IOException("snapshot has m=" + snapM + ", d=" + snapBits + ", k=" + snapK
                    + " but this filter has m=" + m + ", d=" + bits + ", k=" + k);
        }
        in.readLong(); // p of the writer: the configured one wins
        long snapCarry = in.readLong();
        long snapCursor = in.readLong();
        int length = in.readInt();
        if (length != words.length || snapCarry < 0 || snapCarry >= ONE || snapCursor < 0 || snapCursor >= m) {
            throw new IOException("damaged stable filter snapshot (words " + length + ", carry " + snapCarry
                    + ", cursor " + snapCursor + ")");
        }
        for (int i = 0; i < length; i++) {
            words[i] = in.readLong();
        }
        carry = snapCarry;
        restoreCursor(snapCursor);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[m=" + m + ", k=" + k + ", d=" + bits + ", p="
                + decrementsPerInsertion() + "]";
    }
}
