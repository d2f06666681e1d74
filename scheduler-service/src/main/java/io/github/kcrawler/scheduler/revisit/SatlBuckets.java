package io.github.kcrawler.scheduler.revisit;

/**
 * The variable time resolution of SAT/L (paper 003, §3, eqs. (1)–(2)), as corrected in DESIGN.md §4.4.
 *
 * <p>A record scheduled at time t for time t' (d = t' − t ≥ 1 units) goes to the buffer/bucket
 * <pre>  τ = ⌈exp(⌈ln d⌉) · s⌉,   b = ⌊t'/τ⌋ · τ</pre>
 * with s = 1/12 (a year ahead is kept to about a month). Eq. (2) prints a ceiling, but the text after it relies on
 * b ≤ t' (records with t' &gt; b + e are rescheduled), which only a floor gives; we implement the floor. Then
 * t &lt; b ≤ t' always: τ &lt; e·d·s &lt; d, so b &gt; t' − τ &gt; t. A bucket therefore never lies in the past, and a
 * record comes up at most τ − 1 units early, after which the store re-queues it at its true t' with a finer τ
 * (τ shrinks with the remaining distance, reaching 1 within a few rounds).
 *
 * <p>ln is the natural logarithm. τ is a step function of ⌈ln d⌉ only, so it is tabulated per level.
 */
public final class SatlBuckets {
    /** The paper's s: τ / (t' − t) ≈ 1/12. */
    public static final double S = 1.0 / 12.0;

    private static final int LEVELS = 64;
    private static final long[] TAU = new long[LEVELS];

    static {
        for (int k = 0; k < LEVELS; k++) {
            double v = Math.ceil(Math.exp(k) * S);
            TAU[k] = v >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : (long) v;
        }
    }

    private SatlBuckets() {
    }

    /** τ for a distance of {@code d >= 1} units. */
    public static long tau(long d) {
        if (d < 1) {
            throw new IllegalArgumentException("distance must be >= 1, was " + d);
        }
        int level = (int) Math.ceil(Math.log(d));
        return TAU[Math.min(level, LEVELS - 1)];
    }

    /** The bucket of a record scheduled at {@code now} for {@code at > now}: ⌊at/τ⌋·τ (a floor, see above). */
    public static long bucket(long now, long at) {
        long tau = tau(at - now);
        return Math.floorDiv(at, tau) * tau;
    }
}
