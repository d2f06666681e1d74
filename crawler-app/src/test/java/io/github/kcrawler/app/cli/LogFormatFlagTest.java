package io.github.kcrawler.app.cli;

import io.github.kcrawler.common.config.LogFormats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code crawler ... --log-format json}: the services' setting for crawl, demo and the other commands. */
class LogFormatFlagTest {
    private final String before = LogFormats.current();

    @AfterEach
    void restore() {
        LogFormats.apply(before);
    }

    @Test
    void theFlagIsAppliedAndRemovedWhereverItStands() {
        LogFormats.apply("text");
        assertThat(CrawlerMain.logFormatFlag("demo", "--log-format", "JSON", "--max-pages", "5"))
                .containsExactly("demo", "--max-pages", "5");
        assertThat(LogFormats.current()).isEqualTo("json");
        assertThat(CrawlerMain.logFormatFlag("--log-format=text", "crawl", "--seeds", "s.txt"))
                .containsExactly("crawl", "--seeds", "s.txt");
        assertThat(LogFormats.current()).isEqualTo("text");
        assertThat(CrawlerMain.logFormatFlag("crawl", "--seeds", "s.txt")).containsExactly("crawl", "--seeds", "s.txt");
    }

    @Test
    void aBadOrMissingValueIsAUsageError() {
        assertThatThrownBy(() -> CrawlerMain.logFormatFlag("demo", "--log-format", "xml"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[text, json]");
        assertThatThrownBy(() -> CrawlerMain.logFormatFlag("demo", "--log-format"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CrawlerMain.run("demo", "--log-format", "xml")).isEqualTo(ExitCodes.USAGE);
    }
}
