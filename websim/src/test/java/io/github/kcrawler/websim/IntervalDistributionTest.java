package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class IntervalDistributionTest {

    @Test
    void sample_invertsTheCumulativeDistribution_exactlyAtItsSteps() {
        IntervalDistribution d = IntervalDistribution.of(IntervalDistribution.Shape.ZIPF, 1_000);
        assertThat(d.sample(0.0)).isEqualTo(1);
        for (int i = 1; i < 1_000; i++) {
            assertThat(d.sample(d.cumulative(i))).as("u = F(%d)", i).isEqualTo(i + 1);
            assertThat(d.sample(Math.nextDown(d.cumulative(i)))).isEqualTo(i);
        }
        assertThat(d.sample(Math.nextDown(1.0))).isEqualTo(1_000);
    }

    @Test
    void probabilities_matchTheNormalisedWeights_andCountsSumToN() {
        for (IntervalDistribution.Shape shape : IntervalDistribution.Shape.values()) {
            IntervalDistribution d = IntervalDistribution.of(shape, 9_600);
            double sum = 0;
            for (int i = 1; i <= 9_600; i++) {
                sum += d.probability(i);
            }
            assertThat(sum).isCloseTo(1.0, within(1e-9));
            long[] f = d.counts(1_000_003);
            assertThat(LongStream.of(f).sum()).isEqualTo(1_000_003);
            assertThat((double) f[77]).isCloseTo(1_000_003 * d.probability(77), within(1.0));
        }
        IntervalDistribution peaked = IntervalDistribution.of(IntervalDistribution.Shape.PEAKED, 9_600);
        assertThat(peaked.probability(100)).isGreaterThan(peaked.probability(99))
                .isGreaterThan(peaked.probability(101));
    }

    @Test
    void badArguments_areRejectedByName() {
        assertThatThrownBy(() -> IntervalDistribution.of(IntervalDistribution.Shape.ZIPF, 0))
                .hasMessageContaining("max interval T").hasMessageContaining("0");
        assertThatThrownBy(() -> IntervalDistribution.Shape.parse("poisson")).hasMessageContaining("poisson");
        assertThatThrownBy(() -> IntervalDistribution.of(IntervalDistribution.Shape.ZIPF, 10).sample(1.0))
                .hasMessageContaining("u must be in [0, 1)");
    }
}
