package io.github.kcrawler.common.config;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CRAWLER_LOG_LEVEL / --log-level is accepted by every service's settings (issue 23: they refused it). */
class LogLevelSettingTest {
    private static final Set<String> KEYS = Set.of("politeness-ms");

    @Test
    void everyServiceAcceptsTheLogLevelAndAppliesAFlag() {
        ch.qos.logback.classic.Logger crawler =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LogLevels.CRAWLER_LOGGER);
        ch.qos.logback.classic.Level before = crawler.getLevel();
        try {
            Settings.parse(KEYS, Map.of("CRAWLER_LOG_LEVEL", "warn"));
            assertThat(crawler.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
            Settings s = Settings.parse(KEYS, Map.of("CRAWLER_LOG_LEVEL", "warn"), "--log-level", "DEBUG",
                    "--politeness-ms", "5");
            assertThat(crawler.getLevel()).as("a flag wins over the environment")
                    .isEqualTo(ch.qos.logback.classic.Level.DEBUG);
            assertThat(s.has("log-level")).as("not a service setting").isFalse();
            assertThat(s.integer("politeness-ms", 0)).isEqualTo(5);
        } finally {
            crawler.setLevel(before);
        }
    }

    @Test
    void anUnknownLevelIsRefusedWithTheOthersProblems() {
        assertThatThrownBy(() -> Settings.parse(KEYS, Map.of("CRAWLER_LOG_LEVEL", "LOUD", "CRAWLER_NOPE", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("log-level must be one of").hasMessageContaining("CRAWLER_NOPE");
    }
}
