package io.github.kcrawler.app.runtime;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceSettingsTest {
    private static final Set<String> FETCHER = Set.of("politeness-ms", "max-pages");
    private static final Set<String> SCHEDULER = Set.of("politeness-ms", "tick-ms");

    @Test
    void routesEachKeyToEveryServiceThatDeclaresIt() {
        ServiceSettings s = new ServiceSettings(Map.of("politeness-ms", "200", "max-pages", "10", "tick-ms", "5"),
                List.of(FETCHER, SCHEDULER));
        assertThat(s.forService(FETCHER).longValue("politeness-ms", 0)).isEqualTo(200);
        assertThat(s.forService(FETCHER).longValue("max-pages", 0)).isEqualTo(10);
        assertThat(s.forService(FETCHER).has("tick-ms")).isFalse();
        assertThat(s.forService(SCHEDULER).longValue("politeness-ms", 0)).isEqualTo(200);
        assertThat(s.forService(SCHEDULER).integer("tick-ms", 0)).isEqualTo(5);
    }

    @Test
    void refusesKeysNoServiceKnows() {
        assertThatThrownBy(() -> new ServiceSettings(Map.of("politenes-ms", "200"), List.of(FETCHER, SCHEDULER)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("politenes-ms");
    }

    @Test
    void passesKafkaClientSettingsToEveryService() {
        ServiceSettings s = new ServiceSettings(Map.of("kafka.linger.ms", "7"), List.of(FETCHER, SCHEDULER));
        assertThat(s.forService(FETCHER).kafkaOverrides()).containsEntry("linger.ms", "7");
        assertThat(s.forService(SCHEDULER).kafkaOverrides()).containsEntry("linger.ms", "7");
    }
}
