package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.ChangeIntervals;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ChangeRateEstimatorTest {
    private final ChangeRateEstimator est = ChangeRateEstimator.defaults();

    @Test
    void paperBiasReduced_noChangeSeen_givesRateZero_andTheMaximumInterval() {
        assertThat(ChangeRateEstimator.changeRate(10, 0, 60)).isEqualTo(0.0);
        assertThat(est.nextInterval(10, 0, 60)).isEqualTo(576_000);
    }

    @Test
    void changedAtEveryVisit_staysFinite() {
        // n = 10, X = 10, I = 60 min: r = -ln(0.5 / 10.5) = ln 21 = 3.044522; λ = 0.0507420 /min; 1/λ = 19.7075
        assertThat(ChangeRateEstimator.changeRate(10, 10, 60)).isCloseTo(Math.log(21) / 60, within(1e-12));
        assertThat(ChangeRateEstimator.changeRate(10, 10, 60)).isCloseTo(0.0507420, within(1e-7));
        assertThat(est.nextInterval(10, 10, 60)).isEqualTo(20);
    }

    @Test
    void halfTheVisitsChanged() {
        // n = 4, X = 2, I = 1440 (a day): r = -ln(2.5 / 4.5) = 0.5877867; 1/λ = 1440 / 0.5877867 = 2449.86
        assertThat(ChangeRateEstimator.changeRate(4, 2, 1440)).isCloseTo(0.5877867 / 1440, within(1e-9));
        assertThat(est.nextInterval(4, 2, 1440)).isEqualTo(2450);
    }

    @Test
    void clampsToTheMinimum() {
        // n = 1, X = 1, I = 1: r = ln 3 = 1.0986; 1/λ = 0.91 → 1 minute
        assertThat(est.nextInterval(1, 1, 1)).isEqualTo(1);
        assertThat(new ChangeRateEstimator(5, 100).nextInterval(1, 1, 1)).isEqualTo(5);
    }

    @Test
    void naive_isChangesOverTime() {
        // §4.1: 6 changes in 10 daily visits: λ = 6 / 14,400 min
        assertThat(ChangeRateEstimator.naive(10, 6, 14_400)).isEqualTo(6.0 / 14_400);
        assertThat(ChangeRateEstimator.naive(10, 0, 14_400)).isZero();
        ChangeRateEstimator naive = new ChangeRateEstimator(1, 576_000, ChangeRateEstimator.Kind.NAIVE);
        assertThat(naive.nextInterval(10, 0, 14_400, 0, ChangeIntervals.EMPTY)).as("X = 0 → λ = 0 → max")
                .isEqualTo(576_000);
        assertThat(naive.nextInterval(10, 6, 14_400, 6 * 1_440, ChangeIntervals.allIn(6, 1_440))).isEqualTo(2_400);
    }

    @Test
    void halfChangeRule_onceUnchangedAfterADay_getsTwoAndAHalfDays() {
        // ours: λ = ln((n + 0.5) / n) / Ī. n = 1, Ī = 1,440: ln 1.5 = 0.4054651, 1/λ = 1,440 / 0.4054651 = 3,551.47
        assertThat(ChangeRateEstimator.zeroChangeRate(1, 1_440)).isCloseTo(0.4054651 / 1_440, within(1e-10));
        assertThat(est.nextInterval(1, 0, 1_440, 0, ChangeIntervals.EMPTY)).isEqualTo(3_551);
        // n = 2, Ī = 1,440: ln 1.25 = 0.2231436, 1/λ = 6,453.24
        assertThat(est.nextInterval(2, 0, 2_880, 0, ChangeIntervals.EMPTY)).isEqualTo(6_453);
        ChangeRateEstimator br = new ChangeRateEstimator(1, 576_000, ChangeRateEstimator.Kind.BIAS_REDUCED);
        assertThat(br.nextInterval(1, 0, 1_440, 0, null)).isEqualTo(3_551);
    }

    @Test
    void irregularMle_twoChangedIntervals_hasAClosedForm() {
        // §4.3 with changed intervals {1, 2} and Σ t_uj = R: with x = e^λ, 1/(x − 1) + 2/(x² − 1) = R, i.e.
        // R x² − x − (R + 3) = 0, x = (1 + √(1 + 4R(R + 3))) / (2R). R = 1: x = (1 + √17) / 2 = 2.5615528,
        // λ = ln x = 0.9406136.
        double[] changed = {1, 2};
        assertThat(ChangeRateEstimator.irregularMle(changed, 2, 1)).isCloseTo(Math.log((1 + Math.sqrt(17)) / 2),
                within(1e-12));
        assertThat(ChangeRateEstimator.irregularMle(changed, 2, 1)).isCloseTo(0.9406136, within(1e-7));
        // with our bias term, n = 3 visits, Σ t_uj = 0.5: Ī = 3.5 / 3, R = 0.5 + 0.5 · 3.5 / 3 = 13 / 12
        double r = 13.0 / 12;
        double x = (1 + Math.sqrt(1 + 4 * r * (r + 3))) / (2 * r);
        assertThat(ChangeRateEstimator.irregular(changed, 2, 0.5, 3)).isCloseTo(Math.log(x), within(1e-12));
        assertThat(ChangeRateEstimator.irregularMle(changed, 0, 5)).as("no change: likelihood peaks at 0").isZero();
        assertThat(ChangeRateEstimator.irregularMle(changed, 2, 0)).as("all changed").isInfinite();
        assertThat(ChangeRateEstimator.irregular(changed, 2, 0, 2)).as("all changed, bias term: finite")
                .isFinite().isPositive();
    }

    @Test
    void irregular_onRegularIntervals_isThePapersBiasReducedEstimator() {
        // t_ci = t_uj = I: X·I/(e^{λI} − 1) = (n − X + 0.5)·I ⇔ λ = −ln((n − X + 0.5)/(n + 0.5)) / I
        for (int n = 1; n <= 12; n++) {
            for (int xChanges = 1; xChanges <= n; xChanges++) {
                double[] changed = new double[xChanges];
                java.util.Arrays.fill(changed, 60);
                double expected = ChangeRateEstimator.changeRate(n, xChanges, 60);
                assertThat(ChangeRateEstimator.irregular(changed, xChanges, 60.0 * (n - xChanges), n))
                        .isCloseTo(expected, within(expected * 1e-12));
                assertThat(ChangeRateEstimator.irregular(ChangeIntervals.allIn(xChanges, 60), 60L * xChanges,
                        60L * n, n, xChanges)).as("one length class: exact").isCloseTo(expected, within(expected * 1e-12));
            }
        }
        // n = 4, X = 2, a day apart: −ln(2.5 / 4.5) / 1,440 → 2,449.86 → 2,450, as halfTheVisitsChanged
        assertThat(est.nextInterval(4, 2, 4 * 1_440, 2 * 1_440, ChangeIntervals.allIn(2, 1_440))).isEqualTo(2_450);
    }

    @Test
    void boundedSummary_staysWithinTheJensenBracket_andNearTheExactRoot() {
        double[] changed = {3, 40, 41, 700, 20_000};
        double unchanged = 5_000;
        long n = 9;
        ChangeIntervals c = ChangeIntervals.EMPTY;
        long sum = 0;
        for (double t : changed) {
            c = c.plus((long) t);
            sum += (long) t;
        }
        double exact = ChangeRateEstimator.irregular(changed, changed.length, unchanged, n);
        double bounded = ChangeRateEstimator.irregular(c, sum, sum + (long) unchanged, n, changed.length);
        double r = unchanged + 0.5 * (sum + unchanged) / n;
        double lo = Math.log1p(sum / r) / (sum / 5.0);
        double hi = 5 / r;
        assertThat(exact).isBetween(lo, hi);
        assertThat(bounded).isBetween(lo, hi);
        assertThat(bounded / exact).isBetween(0.8, 1.25);
    }

    @Test
    void olderOrForgedSummaries_readAsARegularHistory() {
        double regular = ChangeRateEstimator.changeRate(5, 2, 100);
        assertThat(ChangeRateEstimator.irregular(null, 0, 500, 5, 2)).isEqualTo(regular);
        assertThat(ChangeRateEstimator.irregular(ChangeIntervals.allIn(3, 100), 200, 500, 5, 2))
                .as("total is not X").isEqualTo(regular);
        assertThat(ChangeRateEstimator.irregular(ChangeIntervals.of(new long[30]), 200, 500, 5, 2))
                .as("too many classes").isEqualTo(regular);
        assertThat(ChangeRateEstimator.irregular(ChangeIntervals.allIn(2, 100), 900, 500, 5, 2))
                .as("changed span beyond the observed one").isEqualTo(regular);
    }

    @Test
    void rejectsImpossibleCounts() {
        assertThatThrownBy(() -> ChangeRateEstimator.changeRate(3, 4, 1)).hasMessageContaining("changes");
        assertThatThrownBy(() -> ChangeRateEstimator.changeRate(0, 0, 1)).hasMessageContaining("visits");
        assertThatThrownBy(() -> new ChangeRateEstimator(10, 5)).hasMessageContaining("max interval");
    }
}
