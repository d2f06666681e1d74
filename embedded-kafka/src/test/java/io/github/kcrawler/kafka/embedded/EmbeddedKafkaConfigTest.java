package io.github.kcrawler.kafka.embedded;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaConfigTest {

    private static final Path DIR = Path.of("target", "never-created");

    @Test
    void nullHostMeansLoopbackAndOverridesAreCopied() {
        Map<String, String> overrides = new HashMap<>(Map.of("num.partitions", "8"));
        EmbeddedKafkaConfig c = new EmbeddedKafkaConfig(DIR, 0, null, overrides);
        overrides.put("log.retention.hours", "1");

        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.overrides()).containsExactly(Map.entry("num.partitions", "8"));
        assertThatThrownBy(() -> c.overrides().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new EmbeddedKafkaConfig(DIR, 9092, "127.0.0.1", null).overrides()).isEmpty();
    }

    @Test
    void rejectsNonLoopbackHostsBadPortsAndMissingDir() {
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(DIR, 0, "0.0.0.0", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("127.0.0.1");
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(DIR, 0, "192.168.1.2", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(DIR, -1, null, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(DIR, 65536, null, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(null, 0, null, Map.of()))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void rejectsOverridesOfManagedSettings() {
        for (String key : EmbeddedKafkaConfig.MANAGED_SETTINGS) {
            assertThatThrownBy(() -> EmbeddedKafkaConfig.of(DIR).withOverride(key, "x"))
                    .as(key).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key);
        }
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("num.partitions", null);
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(DIR, 0, null, nullValue))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void brokerSettingsListenOnLoopbackAndApplyOverrides() {
        EmbeddedKafkaConfig c = EmbeddedKafkaConfig.of(DIR, 19092).withOverride("num.partitions", "12");
        Map<String, String> s = BrokerSettings.of(c, 1, 19092, 19093, Path.of("/data/logs"));

        assertThat(s).containsEntry("process.roles", "broker,controller")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:19093")
                .containsEntry("num.partitions", "12")
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("auto.create.topics.enable", "false")
                .containsEntry("log.dirs", "/data/logs");
        assertThat(EmbeddedKafkaBroker.defaultBrokerSettings()).containsEntry("num.partitions", "4");
    }

    @Test
    void withersKeepTheOtherFields() {
        EmbeddedKafkaConfig c = EmbeddedKafkaConfig.of(DIR).withOverride("a.b", "1");
        assertThat(c.withPort(1234)).isEqualTo(new EmbeddedKafkaConfig(DIR, 1234, "127.0.0.1", Map.of("a.b", "1")));
        assertThat(c.withOverrides(Map.of("c.d", "2")).overrides()).containsOnlyKeys("a.b", "c.d");
        assertThat(c.withDataDir(Path.of("x")).dataDir()).isEqualTo(Path.of("x"));
        assertThat(EmbeddedKafkaConfig.DEFAULT_DATA_DIR).isEqualTo(Path.of("data/kafka"));
    }
}
