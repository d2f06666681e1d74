package io.github.kcrawler.dedup.membership;

/**
 * The Stable Bloom Filter of Deng &amp; Rafiei (2006), the baseline of seed 000 (§3.2.3, §5.5): on every insertion
 * it decrements p counters chosen <em>at random, with replacement</em> (eq. (4): a given counter is hit at least
 * once with probability 1 − ((m−1)/m)^p), drawing each position from a Mersenne Twister as the paper did. That is
 * one 64-bit random number and one cache miss per decrement — at p ≈ 84 it is what makes the SBF slow (paper
 * Table 1: 320.7 s for 2×10^9 decrements) and why the crawler uses {@link StableBloomFilterLight} instead. Kept
 * for the comparisons (FP/FN at the stable point, decrement throughput), and as a drop-in {@link FingerprintFilter}.
 */
public final class StableBloomFilter extends StableCounterFilter {
    private final MersenneTwister64 random;
    private final int positionShift;

    /**
     * @param m    counters, a power of two in [64, 2^32]
     * @param k    hash positions per fingerprint
     * @param p    counters decremented per insertion, fractional (see {@link OptimalP})
     * @param bits bits per counter: 1, 2, 4 or 8
     * @param seed seed of the Mersenne Twister
     */
    public StableBloomFilter(long m, int k, double p, int bits, long seed) {
        super(m, k, p, bits);
        this.random = new MersenneTwister64(seed);
        this.positionShift = 64 - Long.numberOfTrailingZeros(m);
    }

    /** An SBF whose p is the optimum for the target stable false-positive rate. */
    public static StableBloomFilter forTargetFpr(long m, int k, double fpr, int bits, long seed) {
        return new StableBloomFilter(m, k, OptimalP.of(m, k, fpr, (1 << bits) - 1), bits, seed);
    }

    /** Decrements {@code count} counters drawn uniformly at random, with replacement (saturating at 0). */
    @Override
    public void decrement(long count) {
        final long[] w = words;
        final int lpw = logPerWord;
        final int laneMask = (1 << lpw) - 1;
        final int b = bits;
        final long mx = max;
        for (long i = 0; i < count; i++) {
            long index = random.nextLong() >>> positionShift;
            int wi = (int) (index >>> lpw);
            int shift = ((int) index & laneMask) * b;
            long word = w[wi];
            if (((word >>> shift) & mx) != 0) {
                w[wi] = word - (1L << shift);
            }
        }
    }

    @Override
    int kind() {
        return 0;
    }

    @Override
    long cursor() {
        return 0;
    }

    @Override
    void restoreCursor(long cursor) {
        // no cursor: the random generator is simply re-seeded by the constructor
    }
}
