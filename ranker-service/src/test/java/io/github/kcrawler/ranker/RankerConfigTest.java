package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ranker settings: documented defaults, flag/environment precedence, and bad values named in the error. */
class RankerConfigTest {
    private static final KafkaSettings KAFKA = new KafkaSettings("k:9092", "", 4, null, Map.of());

    @Test
    void from_emptySettings_usesTheDocumentedDefaults() {
        RankerConfig c = RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of()));
        assertThat(c.threads()).isEqualTo(1);
        assertThat(c.commitMs()).isEqualTo(1000);
        assertThat(c.flushMs()).isEqualTo(1000);
        assertThat(c.metricsHost()).isEqualTo("127.0.0.1");
        assertThat(c.metricsPort()).isZero();
        assertThat(c.kafka().bootstrapServers()).isEqualTo(KafkaSettings.DEFAULT_BOOTSTRAP);
        assertThat(RankerConfig.DEFAULTS).containsEntry("commit-ms", "1000").containsEntry("flush-ms", "1000").containsEntry("threads", "1");
    }

    @Test
    void from_readsFlagsAndEnvironment_flagsWin() {
        RankerConfig c = RankerConfig.from(Settings.parse(RankerConfig.KEYS,
                Map.of("CRAWLER_THREADS", "3", "CRAWLER_COMMIT_MS", "50"),
                "--commit-ms", "75", "--flush-ms", "0", "--topic-prefix", "x.", "--metrics-port=9400", "--kafka.linger.ms", "9"));
        assertThat(c.threads()).isEqualTo(3);
        assertThat(c.commitMs()).isEqualTo(75);
        assertThat(c.metricsPort()).isEqualTo(9400);
        assertThat(c.flushMs()).isZero();
        assertThat(c.kafka().topicPrefix()).isEqualTo("x.");
        assertThat(c.kafka().clientOverrides()).containsEntry("linger.ms", "9");
    }

    @Test
    void keys_includeTheKafkaKeys_andEveryDefaultedKey() {
        assertThat(RankerConfig.KEYS).containsAll(KafkaSettings.KEYS).containsAll(RankerConfig.DEFAULTS.keySet());
        assertThat(RankerConfig.DEFAULTS.keySet()).containsAll(RankerConfig.KEYS);
    }

    @Test
    void unknownKey_isRejected() {
        assertThatThrownBy(() -> Settings.parse(RankerConfig.KEYS, Map.of(), "--thread", "2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--thread");
    }

    @Test
    void ranking_offersTheIncrementalPageRankCutOffsOnly() {
        assertThat(RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(), "--ranking", "ipr-vr")).ranking())
                .isEqualTo(RankerConfig.Ranking.IPR_VR);
        assertThatThrownBy(() -> RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(), "--ranking",
                "backlinks"))).hasMessageContaining("ranking must be one of ipr-dl1-frontier, ipr-dl1, ipr-vr, ipr-ar, was 'backlinks'");
    }

    @Test
    void invalidValues_areRejectedWithTheirNameAndValue() {
        assertThatThrownBy(() -> new RankerConfig(KAFKA, 0, 200, 0, "h", 0, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("threads")
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> new RankerConfig(KAFKA, 1, -5, 0, "h", 0, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("commit-ms")
                .hasMessageContaining("-5");
        assertThatThrownBy(() -> new RankerConfig(KAFKA, 1, 200, 0, " ", 0, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("metrics-host");
        assertThatThrownBy(() -> new RankerConfig(KAFKA, 1, 200, 0, "h", 70_000, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("metrics-port")
                .hasMessageContaining("70000");
        assertThatThrownBy(() -> new RankerConfig(KAFKA, 1, 200, -1, "h", 0, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("flush-ms")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new RankerConfig(null, 1, 200, 0, "h", 0, RankerConfig.Ranking.IPR_DL1)).hasMessageContaining("kafka");
        assertThatThrownBy(() -> RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(), "--threads", "many"))
        ).hasMessageContaining("threads").hasMessageContaining("many");
    }

    @Test
    void help_listsEveryKeyWithItsEnvironmentVariableAndDefault() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RankerMain.printHelp(new PrintStream(buf, true, StandardCharsets.UTF_8));
        String help = buf.toString(StandardCharsets.UTF_8);
        for (String key : RankerConfig.KEYS) {
            assertThat(help).contains("--" + key).contains(Settings.envName(key));
        }
        assertThat(help).contains("default: 1000").contains("--kafka.");
    }
}
