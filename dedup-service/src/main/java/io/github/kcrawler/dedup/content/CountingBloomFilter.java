package io.github.kcrawler.dedup.content;

import io.github.kcrawler.common.fingerprint.Fingerprints;

import java.util.Arrays;

/**
 * The counting Bloom filter of seed 001 (§1.2, §2.2; {@code ../shared/seeds/001_27eb44211cbeca99.txt}): m counters of
 * 4 bits, packed 16 to a {@code long}, k counter positions per 128-bit fingerprint. It is the in-memory half of
 * {@link ImpCbFilter}; it has no notion of membership by itself beyond "some counter is 0 ⇒ never inserted".
 *
 * <p>Counters saturate: {@link #increment} leaves a counter at {@link #MAX} (15) unchanged, {@link #decrement} leaves
 * 0 and {@link #MAX} unchanged (a saturated counter has lost its count; only its owner, {@link ImpCbFilter}, can
 * recompute it, see there). §2.2 bounds the chance that any counter needs more than 4 bits with k ≤ ln2·m/N at
 * m·(ln2/16)^16 ≈ 1.37×10^-15·m (the paper prints 10^15), so saturation is rare but must be handled.
 *
 * <p>Positions: the fingerprint's two halves are re-mixed ({@code fmix64}, so structured or hostile fingerprints still
 * spread) and reduced to h1 ∈ [0, m) and h2 ∈ [1, m); position i is {@code (h1 + i·h2) mod m} (double hashing,
 * Kirsch &amp; Mitzenmacher), computed by repeated addition so there is no division inside the loop. m need not be a
 * power of two (the paper sizes by m/N = 20), so when gcd(h2, m) &gt; 1 a fingerprint's k positions can repeat; a
 * repeated position is simply counted once per occurrence, by insertion and deletion alike.
 *
 * <p>Parameters: the paper's k = 8 and m/N = 20 ({@link #DEFAULT_HASHES}, {@link #DEFAULT_COUNTERS_PER_ITEM}),
 * giving a false-positive rate of about (1 − e^{−8/20})^8 ≈ 5.7×10^-4 and 10 bytes per expected item; m ≤ 2^31 − 1
 * (1 GiB of counters), so positions fit an {@code int} in persisted records.
 *
 * <p>Hot-path operations take the fingerprint as two {@code long}s and allocate nothing; callers that need the
 * positions pass an {@code int[k]} they own. Not thread-safe.
 */
public final class CountingBloomFilter {
    /** Saturation value of a 4-bit counter. */
    public static final int MAX = 15;
    /** The paper's number of hash functions. */
    public static final int DEFAULT_HASHES = 8;
    /** The paper's m/N. */
    public static final int DEFAULT_COUNTERS_PER_ITEM = 20;
    /** Largest supported m: positions are persisted as {@code int}. */
    public static final long MAX_COUNTERS = Integer.MAX_VALUE;
    /** Largest supported k. */
    public static final int MAX_HASHES = 32;

    private static final int BITS = 4;
    private static final int LOG_PER_WORD = 4;
    private static final long COUNTER_MASK = 0xFL;
    /** Distinguishes this scheme's positions from any other; persisted with the records that store positions. */
    static final long SEED_HI = 0x243F6A8885A308D3L;
    static final long SEED_LO = 0x13198A2E03707344L;

    private final long[] words;
    private final int m;
    private final int k;

    /**
     * @param m counters, in [k + 1, 2^31 − 1]
     * @param k positions per fingerprint, in [1, 32]
     */
    public CountingBloomFilter(long m, int k) {
        if (k < 1 || k > MAX_HASHES) {
            throw new IllegalArgumentException("hash positions (k) must be in [1, " + MAX_HASHES + "], was " + k);
        }
        if (m <= k || m > MAX_COUNTERS) {
            throw new IllegalArgumentException("counters (m) must be in [k + 1, " + MAX_COUNTERS + "], was " + m);
        }
        this.m = (int) m;
        this.k = k;
        this.words = new long[(int) ((m + (1 << LOG_PER_WORD) - 1) >>> LOG_PER_WORD)];
    }

    /** The paper's sizing for an expected {@code items}: k = 8, m = 20·items (at least 64). */
    public static CountingBloomFilter forExpectedItems(long items) {
        if (items < 1) {
            throw new IllegalArgumentException("expected items must be >= 1, was " + items);
        }
        long m = Math.max(64, items * DEFAULT_COUNTERS_PER_ITEM);
        if (m > MAX_COUNTERS) {
            throw new IllegalArgumentException("expected items too large for 2^31 - 1 counters at m/N = 20, was "
                    + items);
        }
        return new CountingBloomFilter(m, DEFAULT_HASHES);
    }

    public long counters() {
        return m;
    }

    public int hashes() {
        return k;
    }

    /** Heap bytes of the counter array. */
    public long memoryBytes() {
        return (long) words.length * Long.BYTES;
    }

    /** Writes the k positions of fingerprint {@code (hi, lo)} into {@code out[0, k)}. */
    public void positions(long hi, long lo, int[] out) {
        long h1 = Long.remainderUnsigned(Fingerprints.fmix64(hi ^ SEED_HI) ^ lo, m);
        long h2 = 1 + Long.remainderUnsigned(Fingerprints.fmix64(lo ^ SEED_LO) ^ hi, m - 1);
        long p = h1;
        for (int i = 0; i < k; i++) {
            out[i] = (int) p;
            p += h2;
            if (p >= m) {
                p -= m;
            }
        }
    }

    /** True when every one of the k counters of {@code (hi, lo)} is non-zero (the fingerprint may be present). */
    public boolean mightContain(long hi, long lo) {
        long h1 = Long.remainderUnsigned(Fingerprints.fmix64(hi ^ SEED_HI) ^ lo, m);
        long h2 = 1 + Long.remainderUnsigned(Fingerprints.fmix64(lo ^ SEED_LO) ^ hi, m - 1);
        long p = h1;
        for (int i = 0; i < k; i++) {
            if (get((int) p) == 0) {
                return false;
            }
            p += h2;
            if (p >= m) {
                p -= m;
            }
        }
        return true;
    }

    /** The counter at {@code position}. */
    public int get(int position) {
        return (int) ((words[position >>> LOG_PER_WORD] >>> ((position & 15) * BITS)) & COUNTER_MASK);
    }

    /** Adds one to the counter unless it is saturated; returns the new value. */
    public int increment(int position) {
        int wi = position >>> LOG_PER_WORD;
        int shift = (position & 15) * BITS;
        long w = words[wi];
        int c = (int) ((w >>> shift) & COUNTER_MASK);
        if (c == MAX) {
            return MAX;
        }
        words[wi] = w + (1L << shift);
        return c + 1;
    }

    /** Subtracts one from the counter unless it is 0 or saturated; returns the new value. */
    public int decrement(int position) {
        int wi = position >>> LOG_PER_WORD;
        int shift = (position & 15) * BITS;
        long w = words[wi];
        int c = (int) ((w >>> shift) & COUNTER_MASK);
        if (c == 0 || c == MAX) {
            return c;
        }
        words[wi] = w - (1L << shift);
        return c - 1;
    }

    /** Sets the counter to {@code value} in [0, 15] (recount of a saturated counter by its owner). */
    public void set(int position, int value) {
        if (value < 0 || value > MAX) {
            throw new IllegalArgumentException("counter value must be in [0, 15], was " + value);
        }
        int wi = position >>> LOG_PER_WORD;
        int shift = (position & 15) * BITS;
        words[wi] = (words[wi] & ~(COUNTER_MASK << shift)) | ((long) value << shift);
    }

    /** Zeroes every counter. */
    public void clear() {
        Arrays.fill(words, 0L);
    }

    /** True when both filters have the same m, k and counters. */
    public boolean sameCounters(CountingBloomFilter other) {
        return other.m == m && other.k == k && Arrays.equals(other.words, words);
    }
}
