package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PolitenessEfficiencyTest {
    private static final List<PolitenessEfficiency.Span> SPANS = List.of(
            new PolitenessEfficiency.Span("127.1.0.2", 5, 0, 2_000, 500),      // 5 × 100 / 2,000 = 0.25
            new PolitenessEfficiency.Span("127.1.0.1", 11, 0, 1_000, 100),     // 11 × 100 / 1,000 = 1.1
            new PolitenessEfficiency.Span("127.1.0.3", 1, 50, 50, Double.NaN), // one request: no span
            new PolitenessEfficiency.Span("127.1.0.4", 30, 100, 100, 0),       // all at one instant: no span
            new PolitenessEfficiency.Span("127.1.0.5", 4, 1_000, 1_800, 250)); // 4 × 100 / 800 = 0.5

    @Test
    void busiestFirst_minAndMedianOfThoseWithASpan() {
        PolitenessEfficiency e = PolitenessEfficiency.of(SPANS, 100, 10);
        assertThat(e.ips()).extracting(PolitenessEfficiency.Ip::ip)
                .containsExactly("127.1.0.1", "127.1.0.2", "127.1.0.5");
        assertThat(e.ips().get(0).efficiency()).isCloseTo(1.1, within(1e-12));
        assertThat(e.ips().get(0).spanSeconds()).isEqualTo(1.0);
        assertThat(e.min()).isCloseTo(0.25, within(1e-12));
        assertThat(e.median()).isCloseTo(0.5, within(1e-12));
        assertThat(e.ips()).extracting(PolitenessEfficiency.Ip::medianGapMs).containsExactly(100.0, 500.0, 250.0);
        assertThat(e.medianGapMs()).isEqualTo(250.0);
    }

    @Test
    void evenCount_medianIsTheMeanOfTheMiddleTwo_andTopLimitsTheIps() {
        PolitenessEfficiency e = PolitenessEfficiency.of(SPANS, 100, 2);
        assertThat(e.ips()).hasSize(2);
        assertThat(e.min()).isCloseTo(0.25, within(1e-12));
        assertThat(e.median()).isCloseTo((0.25 + 1.1) / 2, within(1e-12));
    }

    @Test
    void tiesBrokenByAddress_andNoSpanAtAllIsZero() {
        PolitenessEfficiency e = PolitenessEfficiency.of(List.of(
                new PolitenessEfficiency.Span("b", 2, 0, 100, 100),
                new PolitenessEfficiency.Span("a", 2, 0, 400, 400)), 100, 1);
        assertThat(e.ips()).extracting(PolitenessEfficiency.Ip::ip).containsExactly("a");
        assertThat(e.min()).isCloseTo(0.5, within(1e-12));
        assertThat(PolitenessEfficiency.of(List.of(), 100, 10).min()).isZero();
        assertThatThrownBy(() -> PolitenessEfficiency.of(SPANS, 0, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
