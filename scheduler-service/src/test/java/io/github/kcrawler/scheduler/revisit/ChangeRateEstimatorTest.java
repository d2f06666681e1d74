package io.github.kcrawler.scheduler.revisit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ChangeRateEstimatorTest {
    private final ChangeRateEstimator est = ChangeRateEstimator.defaults();

    @Test
    void noChangeSeen_givesRateZero_andTheMaximumInterval() {
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
    void rejectsImpossibleCounts() {
        assertThatThrownBy(() -> ChangeRateEstimator.changeRate(3, 4, 1)).hasMessageContaining("changes");
        assertThatThrownBy(() -> ChangeRateEstimator.changeRate(0, 0, 1)).hasMessageContaining("visits");
        assertThatThrownBy(() -> new ChangeRateEstimator(10, 5)).hasMessageContaining("max interval");
    }
}
