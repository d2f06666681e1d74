package io.github.kcrawler.dedup.membership;

/**
 * MT19937-64 (Matsumoto &amp; Nishimura; 64-bit variant of 2004), written out so the Stable Bloom Filter draws its
 * random decrement positions with the generator the paper used (seed 000 §5.5: "SBF では、乱数生成に Mersenne
 * Twister を利用した") and the SBF-vs-SBFL timing compares like with like. Period 2^19937 − 1, 312 words of state,
 * one 64-bit output per call; the reference outputs for {@code init_by_array64({0x12345, 0x23456, 0x34567,
 * 0x45678})} are pinned in the tests. Not thread-safe, not cryptographic.
 */
public final class MersenneTwister64 {
    private static final int NN = 312;
    private static final int MM = 156;
    private static final long MATRIX_A = 0xB5026F5AA96619E9L;
    private static final long UPPER_MASK = 0xFFFFFFFF80000000L;
    private static final long LOWER_MASK = 0x7FFFFFFFL;

    private final long[] mt = new long[NN];
    private int mti;

    /** Seeds with {@code init_genrand64(seed)}. */
    public MersenneTwister64(long seed) {
        initGenrand(seed);
    }

    /** Seeds with {@code init_by_array64(key)}, as the reference test program does. */
    public MersenneTwister64(long[] key) {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("key must have at least one element");
        }
        initGenrand(19650218L);
        int i = 1;
        int j = 0;
        for (int k = Math.max(NN, key.length); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 62)) * 3935559000370003845L)) + key[j] + j;
            i++;
            j++;
            if (i >= NN) {
                mt[0] = mt[NN - 1];
                i = 1;
            }
            if (j >= key.length) {
                j = 0;
            }
        }
        for (int k = NN - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 62)) * 2862933555777941757L)) - i;
            i++;
            if (i >= NN) {
                mt[0] = mt[NN - 1];
                i = 1;
            }
        }
        mt[0] = 1L << 63;
    }

    private void initGenrand(long seed) {
        mt[0] = seed;
        for (int i = 1; i < NN; i++) {
            mt[i] = 6364136223846793005L * (mt[i - 1] ^ (mt[i - 1] >>> 62)) + i;
        }
        mti = NN;
    }

    /** The next 64 random bits ({@code genrand64_int64}). */
    public long nextLong() {
        if (mti >= NN) {
            regenerate();
        }
        long x = mt[mti++];
        x ^= (x >>> 29) & 0x5555555555555555L;
        x ^= (x << 17) & 0x71D67FFFEDA60000L;
        x ^= (x << 37) & 0xFFF7EEE000000000L;
        x ^= x >>> 43;
        return x;
    }

    private void regenerate() {
        int i = 0;
        for (; i < NN - MM; i++) {
            long x = (mt[i] & UPPER_MASK) | (mt[i + 1] & LOWER_MASK);
            mt[i] = mt[i + MM] ^ (x >>> 1) ^ (-(x & 1L) & MATRIX_A);
        }
        for (; i < NN - 1; i++) {
            long x = (mt[i] & UPPER_MASK) | (mt[i + 1] & LOWER_MASK);
            mt[i] = mt[i + (MM - NN)] ^ (x >>> 1) ^ (-(x & 1L) & MATRIX_A);
        }
        long x = (mt[NN - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[NN - 1] = mt[MM - 1] ^ (x >>> 1) ^ (-(x & 1L) & MATRIX_A);
        mti = 0;
    }
}
