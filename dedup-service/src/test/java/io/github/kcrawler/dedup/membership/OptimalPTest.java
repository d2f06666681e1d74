package io.github.kcrawler.dedup.membership;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The optimal-p formula of DESIGN §4.1 with both of its test vectors. */
class OptimalPTest {
    @Test
    void papersWorkedExample_k8_fpr1e5_isAbout84() {
        assertThat(OptimalP.of(1L << 30, 8, 1e-5, 3)).isCloseTo(84.73, within(0.01));
    }

    @Test
    void secondVector_k4_fpr1percent() {
        assertThat(OptimalP.of(1L << 30, 4, 0.01, 3)).isCloseTo(29.61, within(0.01));
    }

    @Test
    void stableFalsePositiveRate_invertsTheFormula() {
        for (double fpr : new double[] {1e-6, 1e-5, 1e-3, 0.01, 0.1}) {
            for (int k : new int[] {1, 4, 8, 16}) {
                for (int max : new int[] {1, 3, 15}) {
                    double p = OptimalP.of(1L << 20, k, fpr, max);
                    assertThat(OptimalP.stableFalsePositiveRate(1L << 20, k, p, max))
                            .as("fpr %s k %d max %d", fpr, k, max).isCloseTo(fpr, within(fpr * 1e-9));
                }
            }
        }
    }

    @Test
    void p_isPositive_andGrowsAsTheTargetFprFalls() {
        double loose = OptimalP.of(1L << 24, 4, 0.01, 3);
        double strict = OptimalP.of(1L << 24, 4, 1e-4, 3);
        assertThat(loose).isPositive();
        assertThat(strict).isGreaterThan(loose);
    }

    @Test
    void badArguments_areRejectedByName() {
        assertThatThrownBy(() -> OptimalP.of(1L << 20, 4, 0.0, 3)).hasMessageContaining("was 0.0");
        assertThatThrownBy(() -> OptimalP.of(1L << 20, 4, 1.0, 3)).hasMessageContaining("false-positive");
        assertThatThrownBy(() -> OptimalP.of(1L << 20, 0, 0.01, 3)).hasMessageContaining("k must be");
        assertThatThrownBy(() -> OptimalP.of(4, 4, 0.01, 3)).hasMessageContaining("m must be > k");
        assertThatThrownBy(() -> OptimalP.of(1L << 20, 4, 0.01, 0)).hasMessageContaining("maximum");
    }
}
