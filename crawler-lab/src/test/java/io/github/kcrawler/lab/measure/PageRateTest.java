package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PageRateTest {
    @Test
    void steadyRate_spanShorterThanAWindow_isOneWindowAtTheSpanRate() {
        double[] t = new double[100];
        for (int i = 0; i < t.length; i++) {
            t[t.length - 1 - i] = (t.length - 1 - i) * 100.0; // any order
        }
        PageRate r = PageRate.of(t, 100, 10);
        // a = 10th request (t = 900 ms), b = 90th (t = 8,900 ms): 80 requests in 8 s
        assertThat(r.pagesPerSecond()).isEqualTo(10.0);
        assertThat(r.fromMs()).isEqualTo(900.0);
        assertThat(r.toMs()).isEqualTo(8_900.0);
        assertThat(r.windows()).isEqualTo(1);
        assertThat(r.slowestWindowPagesPerSecond()).isEqualTo(10.0);
        assertThat(r.fastestWindowPagesPerSecond()).isEqualTo(10.0);
    }

    @Test
    void rateDoubles_windowsInsideTheSpanShowSlowestAndFastest() {
        // 300 requests every 100 ms from 0, then 600 every 50 ms from 30 s
        double[] t = new double[900];
        for (int i = 0; i < 300; i++) {
            t[i] = i * 100.0;
        }
        for (int j = 0; j < 600; j++) {
            t[300 + j] = 30_000 + j * 50.0;
        }
        PageRate r = PageRate.of(t, 900, 10);
        // a = 90th request (8,900 ms), b = 810th (index 809: 30,000 + 509 * 50 = 55,450 ms)
        assertThat(r.fromMs()).isEqualTo(8_900.0);
        assertThat(r.toMs()).isEqualTo(55_450.0);
        assertThat(r.pagesPerSecond()).isCloseTo(720 / 46.55, within(1e-9));
        // 4 full windows from 8,900 ms: 99 (the 90th request itself opens the span), 100, 11 + 178, 200 requests
        assertThat(r.windows()).isEqualTo(4);
        assertThat(r.slowestWindowPagesPerSecond()).isCloseTo(9.9, within(1e-12));
        assertThat(r.fastestWindowPagesPerSecond()).isCloseTo(20.0, within(1e-12));
    }

    @Test
    void budgetAboveWhatWasFetched_measuresOverWhatWasFetched() {
        double[] t = new double[100];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * 100.0;
        }
        assertThat(PageRate.of(t, 1_000, 10)).isEqualTo(PageRate.of(t, 100, 10));
        // a budget of 50: a = 5th (400 ms), b = 45th (4,400 ms), 40 requests in 4 s
        assertThat(PageRate.of(t, 50, 10).pagesPerSecond()).isEqualTo(10.0);
        assertThat(PageRate.of(t, 50, 10).toMs()).isEqualTo(4_400.0);
    }

    @Test
    void tooFewRequestsOrNoTime_isZero() {
        assertThat(PageRate.of(new double[0], 100, 10).pagesPerSecond()).isZero();
        assertThat(PageRate.of(new double[] {5}, 100, 10).pagesPerSecond()).isZero();
        assertThat(PageRate.of(new double[] {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, 100, 10).pagesPerSecond()).isZero();
    }
}
