package io.github.kcrawler.kafka.embedded;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaMainTest {
    @Test
    void parsesDataDirPortAndBrokerSettings() {
        EmbeddedKafkaConfig c = EmbeddedKafkaMain.parse("--data-dir", "k", "--port", "19092", "--set",
                "num.partitions=8");
        assertThat(c.dataDir()).isEqualTo(Path.of("k"));
        assertThat(c.port()).isEqualTo(19092);
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.overrides()).containsEntry("num.partitions", "8");
    }

    @Test
    void helpReturnsNoConfig() {
        assertThat(EmbeddedKafkaMain.parse("--help")).isNull();
    }

    @Test
    void mistakesAreNamed() {
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--port", "1")).hasMessageContaining("--data-dir is required");
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--data-dir", "k", "--port", "x"))
                .hasMessageContaining("'x'");
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--data-dir", "k", "--port", "70000"))
                .hasMessageContaining("70000");
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--data-dir", "k", "--set", "listeners=x:1"))
                .hasMessageContaining("managed by the embedded broker");
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--data-dir")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> EmbeddedKafkaMain.parse("--bogus", "1")).hasMessageContaining("'--bogus'");
    }
}
