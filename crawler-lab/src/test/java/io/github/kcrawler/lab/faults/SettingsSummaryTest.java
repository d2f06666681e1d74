package io.github.kcrawler.lab.faults;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.report.SummaryGolden;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settings {@code bench faults} and {@code bench scale} state in their summaries are typed records now; their JSON
 * is the untyped maps', byte for byte (captured before the conversion), and reads back into the same record.
 */
class SettingsSummaryTest {
    /** The defaults of the capture (the web's were 32 IPs and 30 pages per host then). */
    private static final FaultsConfig CONFIG = FaultsConfig.defaults(Path.of("data"), Path.of("x.jar"))
            .withIps(32).withPagesPerHost(30.0);

    @Test
    void faultsSettings_areTheMapsByteForByte() throws Exception {
        FaultsResult.Settings s = FaultScenario.settings(CONFIG);
        assertThat(json(s)).isEqualTo(SummaryGolden.before("faults-settings.json"));
        assertThat(JsonSerde.MAPPER.readValue(json(s), FaultsResult.Settings.class)).isEqualTo(s);
    }

    @Test
    void scaleSettings_areTheMapsByteForByte() throws Exception {
        ScaleResult.Settings s = ScaleScenario.summarySettings(new ScaleScenario.Settings(CONFIG, 5, 64, 3, 20.0, 0.1));
        assertThat(json(s)).isEqualTo(SummaryGolden.before("scale-settings.json"));
        assertThat(JsonSerde.MAPPER.readValue(json(s), ScaleResult.Settings.class)).isEqualTo(s);
    }

    private static String json(Object value) throws Exception {
        return new String(JsonSerde.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value),
                StandardCharsets.UTF_8);
    }
}
