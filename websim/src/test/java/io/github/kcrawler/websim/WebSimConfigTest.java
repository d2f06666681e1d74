package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WebSimConfigTest {

    @Test
    void defaultsAreValidAndRoundTripThroughTheBuilder() {
        WebSimConfig d = WebSimConfig.defaults();
        assertThat(d.generated()).isTrue();
        assertThat(d.generatePages()).isEqualTo(20_000);
        assertThat(d.ips()).isEqualTo(64);
        assertThat(d.crawlDelayFraction()).isZero();
        assertThat(d.toBuilder().build()).isEqualTo(d);
        assertThat(WebSimConfig.builder().graph(Path.of("g")).build().generated()).isFalse();
    }

    @Test
    void badValuesAreRejectedWithTheirValue() {
        check(b -> b.ips(0), "ips", "0");
        check(b -> b.ips(SiteLayout.MAX_IPS + 1), "ips", String.valueOf(SiteLayout.MAX_IPS + 1));
        check(b -> b.port(70_000), "port", "70000");
        check(b -> b.generate(0), "generatePages", "0");
        check(b -> b.latencyMs(-5), "latencyMs", "-5");
        check(b -> b.politenessMs(-1), "politenessMs", "-1");
        check(b -> b.politenessToleranceMs(-2), "politenessToleranceMs", "-2");
        check(b -> b.robotsDisallowFraction(1.5), "robotsDisallowFraction", "1.5");
        check(b -> b.crawlDelayFraction(-0.1), "crawlDelayFraction", "-0.1");
        check(b -> b.crawlDelaySeconds(0), "crawlDelaySeconds", "0.0");
        check(b -> b.meanPagesPerHost(0.5), "meanPagesPerHost", "0.5");
        check(b -> b.seedPages(List.of(3, -4)), "seedPages", "-4");
        check(b -> b.seedPages(Arrays.asList(1, null)), "seedPages", "null");
        check(b -> b.ioThreads(-1), "ioThreads", "-1");
        check(b -> b.changeUnitMs(500), "changeUnitMs", "500");
        check(b -> b.changeMaxInterval(WebSimConfig.MAX_CHANGE_INTERVAL + 1), "changeMaxInterval",
                String.valueOf(WebSimConfig.MAX_CHANGE_INTERVAL + 1));
    }

    @Test
    void changeOptionsReachTheConfig() {
        WebSimMain main = new WebSimMain();
        new CommandLine(main).parseArgs("--generate", "10", "--change-model", "PEAKED", "--change-unit-ms", "5000",
                "--change-max-interval", "300");
        WebSimConfig c = main.config();
        assertThat(c.changeModel()).isEqualTo(ChangeModel.PEAKED);
        assertThat(c.changeUnitMs()).isEqualTo(5000);
        assertThat(c.changeMaxInterval()).isEqualTo(300);
        WebSimConfig d = WebSimConfig.defaults();
        assertThat(d.changeModel()).isEqualTo(ChangeModel.NONE);
        WebSimMain plain = new WebSimMain();
        new CommandLine(plain).parseArgs("--generate", "10");
        assertThat(plain.config().changeModel()).isEqualTo(ChangeModel.NONE);
        assertThat(plain.config().changeUnitMs()).isEqualTo(d.changeUnitMs());
    }

    private static void check(UnaryOperator<WebSimConfig.Builder> change, String field, String value) {
        assertThatThrownBy(() -> change.apply(WebSimConfig.builder()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(field).hasMessageContaining("was " + value);
    }

    @Test
    void seedOutsideTheGraphIsRejectedAtStart() {
        assertThatThrownBy(() -> WebSim.start(WebSimConfig.builder().generate(100).seedPages(List.of(100)).build()))
                .hasMessageContaining("100");
    }

    @Test
    void commandLineServesAndPrintsSeedsAndStats(@TempDir Path dir) {
        Path hosts = dir.resolve("w.hosts");
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new WebSimMain()).setOut(new PrintWriter(out));
        int code = cmd.execute("--generate", "300", "--ips", "3", "--seed", "9", "--hosts-file", hosts.toString(),
                "--duration-s", "0");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("seed: http://h0.websim.test:", "hosts file: " + hosts,
                "\"politenessViolations\":0");
        assertThat(Files.exists(hosts)).isTrue();
    }

    @Test
    void commandLineRejectsBadOptions() {
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new WebSimMain()).setErr(new PrintWriter(err));
        assertThat(cmd.execute("--generate", "10", "--ips", "0", "--duration-s", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("ips must be in [1, 65024], was 0");
        assertThat(new CommandLine(new WebSimMain()).setErr(new PrintWriter(new StringWriter()))
                .execute("--generate", "10", "--graph", "x")).isEqualTo(2);
    }
}
