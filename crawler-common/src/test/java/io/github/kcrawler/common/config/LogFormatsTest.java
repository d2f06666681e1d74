package io.github.kcrawler.common.config;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CRAWLER_LOG_FORMAT / --log-format: the encoder every jar's logback.xml names ({@link LogEncoder}) writes the text
 * pattern, or one JSON object per event once the setting says json, however hostile the message (newlines, quotes,
 * control characters, an exception with a cause). Each JSON line is parsed back with Jackson.
 */
class LogFormatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final String before = LogFormats.current();

    @AfterEach
    void restore() {
        LogFormats.apply(before);
    }

    @Test
    void theSettingSwitchesTheEncoderFromTextToOneJsonObjectPerLine() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Logger log = logger(out);
        LogFormats.apply("text");
        log.info("plain {}", 1);
        assertThat(out.toString(StandardCharsets.UTF_8)).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  t - plain 1\\n");

        out.reset();
        Settings.parse(Set.of("politeness-ms"), Map.of("CRAWLER_LOG_FORMAT", "JSON"));
        assertThat(LogFormats.current()).isEqualTo("json");
        log.info("line one\nline \"two\"\t\u0001 {}", "arg");
        log.warn("failed", new IllegalStateException("outer", new java.io.IOException("inner\ncause")));
        Settings.parse(Set.of("politeness-ms"), Map.of("CRAWLER_LOG_FORMAT", "text"), "--log-format", "json");
        log.error("flag wins over the environment");

        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("level").asText()).isEqualTo("INFO");
        assertThat(first.get("loggerName").asText()).isEqualTo("t");
        assertThat(first.get("formattedMessage").asText()).isEqualTo("line one\nline \"two\"\t\u0001 arg");
        assertThat(first.get("timestamp").asLong()).isPositive();
        assertThat(first.has("threadName")).isTrue();
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("level").asText()).isEqualTo("WARN");
        assertThat(second.get("throwable").get("className").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(second.get("throwable").toString()).contains("inner\\ncause");
        assertThat(JSON.readTree(lines.get(2)).get("formattedMessage").asText())
                .isEqualTo("flag wins over the environment");
    }

    @Test
    void anUnknownFormatIsRefusedWithTheOtherProblemsAndChangesNothing() {
        LogFormats.apply("text");
        assertThatThrownBy(() -> Settings.parse(Set.of("politeness-ms"),
                Map.of("CRAWLER_LOG_FORMAT", "xml", "CRAWLER_NOPE", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("log-format must be one of [text, json]").hasMessageContaining("CRAWLER_NOPE");
        assertThat(LogFormats.current()).isEqualTo("text");
        assertThat(LogFormats.initial("nonsense")).as("a bad variable leaves text until Settings refuses it")
                .isEqualTo("text");
        assertThat(LogFormats.initial(" Json ")).isEqualTo("json");
    }

    private static Logger logger(ByteArrayOutputStream out) {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        context.start();
        LogEncoder encoder = new LogEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{1} - %msg%n");
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(out);
        appender.setImmediateFlush(true);
        appender.start();
        Logger log = context.getLogger("t");
        log.setAdditive(false);
        log.addAppender(appender);
        return log;
    }
}
