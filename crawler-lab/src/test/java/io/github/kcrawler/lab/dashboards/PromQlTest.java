package io.github.kcrawler.lab.dashboards;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PromQlTest {
    @Test
    void findsTheMetricNamesOfValidExpressions() {
        assertThat(PromQl.metricNames("sum(rate(crawler_fetch_total{outcome=~\"OK|REDIRECT\"}[$__rate_interval]))"))
                .containsExactly("crawler_fetch_total");
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (le) (rate(a_seconds_bucket[5m])))"))
                .containsExactly("a_seconds_bucket");
        assertThat(PromQl.metricNames("sum(rate(a_total[1m])) / sum without (x, y) (rate(b_total[1m] offset 5m)) * 100"))
                .containsExactly("a_total", "b_total");
        assertThat(PromQl.metricNames("max by (instance) (process_cpu_usage) > bool on (instance) group_left c"))
                .containsExactly("process_cpu_usage", "c");
        assertThat(PromQl.metricNames("-avg_over_time(g[10m:1m]) + 1.5e3")).containsExactly("g");
        assertThat(PromQl.metricNames("topk(5, sum by (status) (rate(x[5m])))")).containsExactly("x");
    }

    @Test
    void rejectsBrokenExpressions() {
        for (String bad : new String[] {"sum(rate(x[5m])", "rate(x[5q])", "x{a=b}", "x{a=\"b\"", "sum by le (x)",
                "x +", "rate(x[5m]))", "x{a~\"b\"}", "\"unterminated", "x # y"}) {
            assertThatThrownBy(() -> PromQl.metricNames(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
