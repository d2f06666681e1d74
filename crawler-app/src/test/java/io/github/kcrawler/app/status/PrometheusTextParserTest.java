package io.github.kcrawler.app.status;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextParserTest {
    @Test
    void parsesNamesLabelsValuesAndSkipsComments() {
        PrometheusTextParser.Result r = PrometheusTextParser.parse("""
                # HELP crawler_fetch_total fetches by outcome
                # TYPE crawler_fetch_total counter
                crawler_fetch_total{outcome="OK",status="2xx",} 12.0
                crawler_fetch_latency_seconds_bucket{le="+Inf"} 3 1700000000000
                crawler_frontier_size 4.5e3
                up NaN
                # EOF
                """);
        assertThat(r.malformedLines()).isZero();
        assertThat(r.samples()).hasSize(4);
        assertThat(r.samples().get(0)).isEqualTo(new MetricSample("crawler_fetch_total",
                Map.of("outcome", "OK", "status", "2xx"), 12.0));
        assertThat(r.samples().get(1).label("le")).isEqualTo("+Inf");
        assertThat(r.samples().get(2).value()).isEqualTo(4500.0);
        assertThat(r.samples().get(3).value()).isNaN();
    }

    @Test
    void unescapesLabelValues() {
        MetricSample s = PrometheusTextParser.parseLine("m{path=\"a\\\\b\\\"c\\nd\"} 1");
        assertThat(s.label("path")).isEqualTo("a\\b\"c\nd");
    }

    @Test
    void malformedLinesAreCountedNotThrown() {
        PrometheusTextParser.Result r = PrometheusTextParser.parse("""
                m{a="unclosed} 1
                m{a=1} 1
                m 0x1p3
                m Infinity
                m
                9starts_with_digit 1
                {a="b"} 1
                m{a="b"}1
                ok 1
                """);
        assertThat(r.samples()).singleElement().extracting(MetricSample::name).isEqualTo("ok");
        assertThat(r.malformedLines()).isEqualTo(8);
    }

    @Test
    void tooManyLabelsIsMalformed() {
        StringBuilder line = new StringBuilder("m{");
        for (int i = 0; i <= PrometheusTextParser.MAX_LABELS; i++) {
            line.append("l").append(i).append("=\"v\",");
        }
        assertThat(PrometheusTextParser.parseLine(line.append("} 1").toString())).isNull();
    }

    @Test
    void anyInputIsATotalFunction() {
        forAll(2000, g -> anyInputIsATotalFunction(g.string(255)));
    }

    void anyInputIsATotalFunction(String text) {
        PrometheusTextParser.Result r = PrometheusTextParser.parse(text);
        assertThat(r.samples().size() + r.malformedLines()).isLessThanOrEqualTo(text.split("\n", -1).length);
    }

    @Test
    void anyLabelValueRoundTrips() {
        forAll(1000, g -> anyLabelValueRoundTrips(g.string(255)));
    }

    void anyLabelValueRoundTrips(String value) {
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        MetricSample s = PrometheusTextParser.parseLine("m{k=\"" + escaped + "\"} 2");
        assertThat(s).isNotNull();
        assertThat(s.label("k")).isEqualTo(value);
    }
}
