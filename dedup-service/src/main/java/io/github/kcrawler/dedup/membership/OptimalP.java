package io.github.kcrawler.dedup.membership;

/**
 * The number p of counters a Stable Bloom Filter decrements per insertion so that, at its stable point, the
 * false-positive rate equals a target (Deng &amp; Rafiei 2006; seed 000 eq. (3), corrected as in DESIGN §4.1 — the
 * formula as printed in the seed drops a reciprocal and gives negative values):
 * <pre>  p = 1 / ( ( (1 / (1 − FPR^(1/k)))^(1/Max) − 1 ) · (1/k − 1/m) )</pre>
 * It follows from the stable fraction of zero counters {@code P0 = (1 / (1 + 1/(p (1/k − 1/m))))^Max} and
 * {@code FPR = (1 − P0)^k}; {@link #stableFalsePositiveRate} is that forward direction, used by tests and benches.
 * Test vectors (unit-tested): m = 2^30, k = 8, FPR = 10^-5, Max = 3 → 84.73 (seed: "約84"); k = 4, FPR = 0.01 →
 * 29.61. p is fractional; the filters carry the remainder so the long-run mean is exact.
 */
public final class OptimalP {
    private OptimalP() {
    }

    /**
     * @param m   counters (> k)
     * @param k   hash positions per element (≥ 1)
     * @param fpr target false-positive rate at the stable point, in (0, 1)
     * @param max counter maximum, 2^d − 1 for d-bit counters (≥ 1)
     */
    public static double of(long m, int k, double fpr, int max) {
        check(m, k, max);
        if (!(fpr > 0.0 && fpr < 1.0)) {
            throw new IllegalArgumentException("target false-positive rate must be in (0, 1), was " + fpr);
        }
        double zeroFraction = 1.0 - Math.pow(fpr, 1.0 / k); // P0 at the stable point
        double perCounter = Math.pow(1.0 / zeroFraction, 1.0 / max) - 1.0;
        return 1.0 / (perCounter * (1.0 / k - 1.0 / m));
    }

    /** The stable-point false-positive rate of an SBF that decrements p counters per insertion (the inverse). */
    public static double stableFalsePositiveRate(long m, int k, double p, int max) {
        check(m, k, max);
        if (!(p > 0.0)) {
            throw new IllegalArgumentException("p must be > 0, was " + p);
        }
        double zeroFraction = Math.pow(1.0 / (1.0 + 1.0 / (p * (1.0 / k - 1.0 / m))), max);
        return Math.pow(1.0 - zeroFraction, k);
    }

    /**
     * The stable-point false-positive rate of an SBF<em>L</em> with the same p. Its decrements are not random: a
     * counter is passed by the cursor once every m/p insertions, so after its last set it reaches 0 after exactly
     * Max passes, i.e. (Max − 1 + φ)·m/p insertions with φ ∈ [0, 1) the counter's phase behind the cursor. With
     * λ = k/p (the chance per insertion that it is set, over the chance that it is passed):
     * {@code P0 = E_φ[e^(−λ(Max−1+φ))] = e^(−λ(Max−1)) (1 − e^(−λ)) / λ} and {@code FPR = (1 − P0)^k}. It is lower
     * than the SBF's at equal p (e.g. k = 4, target 1%: 0.67%; k = 8, target 10^-5: 3.7×10^-6), which is the
     * paper's observation that SBFL made fewer false positives than SBF (§5.5, Fig. 6).
     */
    public static double stableFalsePositiveRateLight(long m, int k, double p, int max) {
        check(m, k, max);
        if (!(p > 0.0)) {
            throw new IllegalArgumentException("p must be > 0, was " + p);
        }
        double lambda = k / p;
        double zeroFraction = Math.exp(-lambda * (max - 1)) * (-Math.expm1(-lambda)) / lambda;
        return Math.pow(1.0 - zeroFraction, k);
    }

    private static void check(long m, int k, int max) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, was " + k);
        }
        if (m <= k) {
            throw new IllegalArgumentException("m must be > k (" + k + "), was " + m);
        }
        if (max < 1) {
            throw new IllegalArgumentException("counter maximum must be >= 1, was " + max);
        }
    }
}
