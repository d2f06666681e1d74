package io.github.kcrawler.lab.simulate;

/**
 * The function of Cho &amp; Garcia-Molina's optimal freshness allocation, g(x) = 1 − (1 + x)e^{−x}, and its inverse
 * on [0, 1), tabulated on a log grid of x: a page changing at rate λ gets revisit frequency f with
 * g(λ/f)/λ = μ (the Lagrange condition of max Σ (f/λ)(1 − e^{−λ/f}) subject to Σ f = budget).
 */
final class ChoGarciaMolinaG {
    private static final int POINTS = 8_192;
    private static final double X_MIN = 1e-6;
    private static final double X_MAX = 60;
    private static final double[] XS = new double[POINTS];
    private static final double[] YS = new double[POINTS];

    static {
        double step = Math.log(X_MAX / X_MIN) / (POINTS - 1);
        for (int i = 0; i < POINTS; i++) {
            XS[i] = X_MIN * Math.exp(i * step);
            YS[i] = g(XS[i]);
        }
    }

    private ChoGarciaMolinaG() {
    }

    static double g(double x) {
        return -Math.expm1(-x) - x * Math.exp(-x);
    }

    /** x with g(x) = y, for 0 ≤ y &lt; 1 (x²/2 ≈ y below the table, linear interpolation inside it). */
    static double inverse(double y) {
        if (y <= YS[0]) {
            return Math.sqrt(2 * Math.max(y, 0));
        }
        if (y >= YS[POINTS - 1]) {
            return X_MAX;
        }
        int lo = 0;
        int hi = POINTS - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (YS[mid] <= y) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double w = (y - YS[lo]) / (YS[hi] - YS[lo]);
        return XS[lo] + w * (XS[hi] - XS[lo]);
    }
}
