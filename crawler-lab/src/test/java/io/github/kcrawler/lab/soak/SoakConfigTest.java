package io.github.kcrawler.lab.soak;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoakConfigTest {
    private static SoakConfig config(double minutes, String heap, double warmup, List<String> jvm) {
        return config(minutes, heap, warmup, jvm, SoakConfig.defaultLiveSetSeconds(minutes));
    }

    private static SoakConfig config(double minutes, String heap, double warmup, List<String> jvm, int liveSet) {
        return new SoakConfig(1_000_000, 4096, 30, 256, 20, 4, 1000, minutes, heap, 10, liveSet, 60, warmup, 0.1,
                180, Path.of("d"), Path.of("crawler.jar"), jvm, Map.of());
    }

    @Test
    void forcesAFullGcAMinuteOrAnEighthOfAShortRun() {
        assertThat(SoakConfig.defaultLiveSetSeconds(15)).isEqualTo(60);
        assertThat(SoakConfig.defaultLiveSetSeconds(5)).isEqualTo(37);
        assertThat(SoakConfig.defaultLiveSetSeconds(1)).isEqualTo(7);
        assertThat(config(15, "1g", 0.2, List.of()).liveSetSeconds()).isEqualTo(60);
        assertThat(config(15, "1g", 0.2, List.of(), 0).liveSetSeconds()).isZero();
        assertThatThrownBy(() -> config(15, "1g", 0.2, List.of(), 200)).hasMessageContaining("was 200")
                .hasMessageContaining("5..112");
        assertThatThrownBy(() -> config(15, "1g", 0.2, List.of(), 2)).hasMessageContaining("was 2");
    }

    @Test
    void parsesHeapSizes() {
        assertThat(config(15, "1g", 0.2, List.of()).heapBytes()).isEqualTo(1L << 30);
        assertThat(config(15, "768m", 0.2, List.of()).heapBytes()).isEqualTo(768L << 20);
        assertThat(config(15, "524288K", 0.2, List.of()).heapBytes()).isEqualTo(512L << 20);
    }

    @Test
    void spreadsTheSeedsOverThePageIds() {
        assertThat(config(15, "1g", 0.2, List.of()).seedPages()).hasSize(256).startsWith(0, 3906, 7812)
                .endsWith(996_093).doesNotHaveDuplicates();
    }

    @Test
    void rejectsBadValuesNamingThem() {
        assertThatThrownBy(() -> config(15, "lots", 0.2, List.of())).hasMessageContaining("was lots");
        assertThatThrownBy(() -> config(15, "16m", 0.2, List.of())).hasMessageContaining("was 16m");
        assertThatThrownBy(() -> config(15, "1g", 0.5, List.of())).hasMessageContaining("was 0.5");
        assertThatThrownBy(() -> config(0, "1g", 0.2, List.of())).hasMessageContaining("was 0.0");
        assertThatThrownBy(() -> config(1, "1g", 0.2, List.of())).hasMessageContaining("fewer than two");
        assertThatThrownBy(() -> config(15, "1g", 0.2, List.of("-Xmx4g"))).hasMessageContaining("-Xmx4g");
    }
}
