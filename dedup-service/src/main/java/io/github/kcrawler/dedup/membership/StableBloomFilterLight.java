package io.github.kcrawler.dedup.membership;

/**
 * The Stable Bloom Filter Light of seed 000 §4.2: a Stable Bloom Filter whose p decrements per insertion hit the
 * next p counters after a cyclic cursor ({@code cursor += p mod m}) instead of p random ones, so no random numbers
 * are drawn and memory is walked sequentially. §4.2.2 argues it keeps the SBF's properties: with uniformly
 * distributed hash positions, a given element's counter is decremented with probability p/m per insertion either
 * way (a property test checks this). Each counter is decremented exactly once every m/p insertions, so an element
 * survives at least (Max − 1)·m/p insertions after its last put before it can decay — the LRU-like behaviour the
 * paper credits for SBFL's lower FP and FN counts (§5.5).
 *
 * <p>Two decrement implementations, same result (property-tested):
 * <ul>
 *   <li>{@link Decrement#SCALAR}: counter by counter, test-and-subtract (the paper's "individual" SBFL).</li>
 *   <li>{@link Decrement#SWAR}: a whole 64-bit word of counters at once, branch-free: subtract 1 from exactly the
 *   non-zero lanes, which never borrows across lanes. For 2-bit counters (32 per word, the paper's "32 並列")
 *   {@code w − ((w | (w >>> 1)) & 0x5555…)}; for 4-bit counters (16 per word) the OR folds two more bits:
 *   {@code t = w | w>>>1; t |= t>>>2; w − (t & 0x1111…)}; 1- and 8-bit counters likewise. Partial words at the
 *   ends of a run are masked.</li>
 * </ul>
 * The crawler uses SWAR; SCALAR exists for the benchmark and as the reference the SWAR form is tested against.
 */
public final class StableBloomFilterLight extends StableCounterFilter {
    /** How the p counters are decremented. */
    public enum Decrement { SCALAR, SWAR }

    private static final long LOW_1 = 0xFFFFFFFFFFFFFFFFL;
    private static final long LOW_2 = 0x5555555555555555L;
    private static final long LOW_4 = 0x1111111111111111L;
    private static final long LOW_8 = 0x0101010101010101L;

    private final Decrement mode;
    private long cursor;

    /**
     * @param m    counters, a power of two in [64, 2^32]
     * @param k    hash positions per fingerprint
     * @param p    counters decremented per insertion, fractional (see {@link OptimalP})
     * @param bits bits per counter: 1, 2, 4 or 8
     * @param mode decrement implementation used by {@link #put}
     */
    public StableBloomFilterLight(long m, int k, double p, int bits, Decrement mode) {
        super(m, k, p, bits);
        if (mode == null) {
            throw new IllegalArgumentException("decrement mode must be given");
        }
        this.mode = mode;
    }

    /** An SWAR SBFL whose p is the optimum for the target stable false-positive rate. */
    public static StableBloomFilterLight forTargetFpr(long m, int k, double fpr, int bits) {
        return new StableBloomFilterLight(m, k, OptimalP.of(m, k, fpr, (1 << bits) - 1), bits, Decrement.SWAR);
    }

    public Decrement mode() {
        return mode;
    }

    @Override
    public void decrement(long count) {
        if (mode == Decrement.SWAR) {
            decrementSwar(count);
        } else {
            decrementScalar(count);
        }
    }

    /** Decrements the next {@code count} counters from the cursor one at a time, then advances the cursor. */
    public void decrementScalar(long count) {
        final long[] w = words;
        final int lpw = logPerWord;
        final int laneMask = (1 << lpw) - 1;
        final int b = bits;
        final long mx = max;
        final long mask = positionMask;
        long c = cursor;
        for (long i = 0; i < count; i++) {
            int wi = (int) (c >>> lpw);
            int shift = ((int) c & laneMask) * b;
            long word = w[wi];
            if (((word >>> shift) & mx) != 0) {
                w[wi] = word - (1L << shift);
            }
            c = (c + 1) & mask;
        }
        cursor = c;
    }

    /** Decrements the next {@code count} counters from the cursor a word at a time (SWAR), then advances it. */
    public void decrementSwar(long count) {
        if (count <= 0) {
            return;
        }
        long c = cursor;
        long remaining = count;
        while (remaining > 0) {
            long run = Math.min(remaining, m - c); // up to the end of the array, then wrap
            decrementRange(c, c + run);
            remaining -= run;
            c = (c + run) & positionMask;
        }
        cursor = c;
    }

    /** SWAR decrement of counters [from, to), 0 ≤ from < to ≤ m: masked head and tail words, full words between. */
    private void decrementRange(long from, long to) {
        final long[] w = words;
        final int lpw = logPerWord;
        final int laneMask = (1 << lpw) - 1;
        final int b = bits;
        int first = (int) (from >>> lpw);
        int last = (int) ((to - 1) >>> lpw);
        long headMask = -1L << (((int) from & laneMask) * b);
        long tailMask = -1L >>> (64 - (((int) (to - 1) & laneMask) + 1) * b);
        if (first == last) {
            long x = w[first];
            w[first] = x - (nonZeroLanes(x, b) & headMask & tailMask);
            return;
        }
        long x = w[first];
        w[first] = x - (nonZeroLanes(x, b) & headMask);
        decrementWords(w, first + 1, last, b);
        x = w[last];
        w[last] = x - (nonZeroLanes(x, b) & tailMask);
    }

    /** Saturating decrement of every counter in {@code w[from, to)}; one tight loop per counter width. */
    private static void decrementWords(long[] w, int from, int to, int bits) {
        switch (bits) {
            case 2:
                for (int i = from; i < to; i++) {
                    long x = w[i];
                    w[i] = x - ((x | (x >>> 1)) & LOW_2);
                }
                break;
            case 4:
                for (int i = from; i < to; i++) {
                    long x = w[i];
                    long t = x | (x >>> 1);
                    w[i] = x - ((t | (t >>> 2)) & LOW_4);
                }
                break;
            case 1:
                java.util.Arrays.fill(w, from, to, 0L);
                break;
            default:
                for (int i = from; i < to; i++) {
                    long x = w[i];
                    long t = x | (x >>> 1);
                    t |= t >>> 2;
                    w[i] = x - ((t | (t >>> 4)) & LOW_8);
                }
        }
    }

    /** The lowest bit of every non-zero {@code bits}-wide lane of {@code word}. */
    static long nonZeroLanes(long word, int bits) {
        switch (bits) {
            case 1:
                return word & LOW_1;
            case 2:
                return (word | (word >>> 1)) & LOW_2;
            case 4: {
                long t = word | (word >>> 1);
                return (t | (t >>> 2)) & LOW_4;
            }
            case 8: {
                long t = word | (word >>> 1);
                t |= t >>> 2;
                return (t | (t >>> 4)) & LOW_8;
            }
            default:
                throw new IllegalArgumentException("counter bits must be 1, 2, 4 or 8, was " + bits);
        }
    }

    /** Branch-free saturating decrement of all {@code 64 / bits} counters of a word (SWAR). */
    public static long swarDecrement(long word, int bits) {
        return word - nonZeroLanes(word, bits);
    }

    @Override
    int kind() {
        return 1;
    }

    @Override
    long cursor() {
        return cursor;
    }

    @Override
    void restoreCursor(long newCursor) {
        this.cursor = newCursor;
    }
}
