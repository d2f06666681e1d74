package io.github.kcrawler.websim;

/**
 * Stateless 64-bit hashing (SplitMix64 finaliser) used wherever websim needs a deterministic pseudo-random choice
 * for one item (a host, a page, a link) without walking a random generator through every earlier item. Everything
 * the simulated web decides per item is {@code hash(seed, item, purpose)}, so a choice never shifts when another
 * part of the generator changes.
 */
final class Mix {
    private Mix() {
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static long hash(long seed, long a) {
        return mix64(mix64(seed + 0x9E3779B97F4A7C15L) ^ (a * 0xC2B2AE3D27D4EB4FL + 0x165667B19E3779F9L));
    }

    static long hash(long seed, long a, long b) {
        return hash(hash(seed, a), b);
    }

    static long hash(long seed, long a, long b, long c) {
        return hash(hash(hash(seed, a), b), c);
    }

    /** A double uniformly distributed in [0, 1) taken from the high 53 bits of {@code h}. */
    static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    /** An int uniformly distributed in [0, bound) (bound > 0), from {@code h}. */
    static int below(long h, int bound) {
        return (int) (((h >>> 33) * bound) >>> 31);
    }

    /**
     * A discrete Pareto draw: {@code floor(xmin / u^(1/alpha))} for u uniform in (0, 1], capped at {@code cap}.
     * Heavy-tailed for small alpha (mean {@code alpha * xmin / (alpha - 1)} before flooring and capping).
     */
    static int pareto(double u01, double xmin, double alpha, int cap) {
        double u = 1.0 - u01; // (0, 1]
        double x = xmin * Math.pow(u, -1.0 / alpha);
        return x >= cap ? cap : (int) x;
    }
}
