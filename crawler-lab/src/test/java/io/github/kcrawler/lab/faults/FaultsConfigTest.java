package io.github.kcrawler.lab.faults;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FaultsConfigTest {
    private static final FaultsConfig DEFAULTS = FaultsConfig.defaults(Path.of("d"), Path.of("c.jar"));

    @Test
    void stopMustOutlastTheSessionTimeoutSoTheFetchersPartitionsMove() {
        assertThatThrownBy(() -> DEFAULTS.withTimeouts(10_000, 10_000, 5_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stop-ms must exceed the session timeout (10000 ms)").hasMessageContaining("10000");
    }

    @Test
    void sessionTimeoutBelowTheBrokersMinimumIsRefusedWithItsValue() {
        assertThatThrownBy(() -> DEFAULTS.withTimeouts(5_000, 12_000, 5_000))
                .hasMessageContaining("session timeout must be in 6000..300000 ms, was 5000");
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> DEFAULTS.withPages(10)).hasMessageContaining("pages").hasMessageContaining("10");
        assertThatThrownBy(() -> DEFAULTS.withIps(0)).hasMessageContaining("ips must be in 1..65536, was 0");
        assertThatThrownBy(() -> DEFAULTS.withPolitenessMs(0)).hasMessageContaining("politeness-ms");
        assertThatThrownBy(() -> new FaultsConfig(1000, 8, 10, 50, 1, 10, 6000, 7000, 5000, 0.1,
                java.time.Duration.ofMinutes(1), "384m", Path.of("d"), Path.of("j")))
                .hasMessageContaining("partitions must be in 2..64 (two fetchers share them), was 1");
        assertThatThrownBy(() -> new FaultsConfig(1000, 8, 10, 50, 4, 10, 6000, 7000, 5000, 0.1,
                java.time.Duration.ofMinutes(1), "lots", Path.of("d"), Path.of("j")))
                .hasMessageContaining("'lots'");
        assertThatThrownBy(() -> DEFAULTS.withStreamsSettings(java.util.List.of("--journal-snapshot-min-ops=5")))
                .hasMessageContaining("key=value, was '--journal-snapshot-min-ops=5'");
        assertThat(DEFAULTS.withStreamsSettings(java.util.List.of("journal-snapshot-min-ops=5")).withPages(300)
                .streamsSettings()).containsExactly("journal-snapshot-min-ops=5");
    }

    @Test
    void defaultsAreValid() {
        assertThat(DEFAULTS.stopMs()).isGreaterThan(DEFAULTS.sessionTimeoutMs());
        assertThat(DEFAULTS.firstDisruptionFraction()).isLessThan(FaultScenario.LAST_DISRUPTION_FRACTION);
    }
}
