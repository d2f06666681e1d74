package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.ranker.pagerank.IprParams;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderingOptionsTest {

    private static OrderingOptions parse(String... args) {
        return OrderingOptions.from(Settings.parse(OrderingOptions.KEYS, Map.of(), args));
    }

    @Test
    void defaultsAreThePapersParameters() {
        OrderingOptions o = parse("--graph", "g");
        assertThat(o).isEqualTo(OrderingOptions.defaults());
        assertThat(o.ipr().pageLimit()).isEqualTo(8);
        assertThat(o.ipr().valueRatio()).isEqualTo(1.5);
        assertThat(o.ipr().accumulatedRatio()).isEqualTo(29.0 / 30);
        assertThat(o.prRecomputations()).isEqualTo(100);
        assertThat(o.damping()).isEqualTo(0.85);
        assertThat(o.c()).isEqualTo(1.0);
        assertThat(o.politeness()).isZero();
        assertThat(o.feedbackDelay()).isZero();
    }

    @Test
    void flagsOverrideDefaults() {
        OrderingOptions o = parse("--graph", "g", "--experiment", "ordering", "--seed-pages", "3,5", "--c", "10",
                "--ar-ratio", "9/10", "--pl-pages", "4", "--strategies", "BF,IPR-AR", "--plots", "out",
                "--timing-repeats", "0", "--politeness", "512", "--feedback-delay", "1000");
        assertThat(o.seeds()).containsExactly(3, 5);
        assertThat(o.c()).isEqualTo(10.0);
        assertThat(o.ipr()).isEqualTo(new IprParams(IprParams.CutOff.DL1, 4, 1.5, 0.9));
        assertThat(o.strategies()).containsExactly("BF", "IPR-AR");
        assertThat(o.plotDir()).isEqualTo(Path.of("out"));
        assertThat(o.timingRepeats()).isZero();
        assertThat(o.politeness()).isEqualTo(512);
        assertThat(o.feedbackDelay()).isEqualTo(1000);
        assertThat(o.sccSeeds()).isZero();
        OrderingOptions scc = parse("--graph", "g", "--scc-seeds", "100");
        assertThat(scc.sccSeeds()).isEqualTo(100);
        assertThat(scc.withStrategies(List.of("BF")).sccSeeds()).isEqualTo(100);
        assertThat(scc.withSeeds(List.of(4)).sccSeeds()).as("given seeds replace the rule").isZero();
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> parse("--c", "-2")).hasMessageContaining("c must").hasMessageContaining("-2");
        assertThatThrownBy(() -> parse("--strategies", "BF,XYZ")).hasMessageContaining("XYZ");
        assertThatThrownBy(() -> parse("--experiment", "revisits")).hasMessageContaining("revisits");
        assertThatThrownBy(() -> parse("--ar-ratio", "a/b")).hasMessageContaining("a/b");
        assertThatThrownBy(() -> parse("--seed-pages", "x")).hasMessageContaining("'x'");
        assertThatThrownBy(() -> parse("--pr-recomputations", "0")).hasMessageContaining("0");
        assertThatThrownBy(() -> parse("--politeness", "-1")).hasMessageContaining("politeness must")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> parse("--feedback-delay", "-5")).hasMessageContaining("feedback-delay must")
                .hasMessageContaining("-5");
        assertThatThrownBy(() -> parse("--bogus", "1")).hasMessageContaining("--bogus");
        assertThatThrownBy(() -> parse("--scc-seeds", "-1")).hasMessageContaining("scc-seeds must")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> parse("--scc-seeds", "10", "--seed-pages", "1,2"))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> OrderingOptions.defaults().withStrategies(List.of()))
                .hasMessageContaining("at least one");
    }
}
