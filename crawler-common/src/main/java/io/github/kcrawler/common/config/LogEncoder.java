package io.github.kcrawler.common.config;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;

/**
 * The console encoder of every kcrawler jar (named in each logback.xml): the {@code pattern} given in logback.xml
 * while {@link LogFormats#current()} is {@code text}, logback's own {@link JsonEncoder} (one JSON object per line,
 * logback ≥ 1.3.8, no further dependency) while it is {@code json}. Both encoders are started with the appender, so
 * the format can change between two lines (a {@code --log-format} flag, applied after logback has started).
 *
 * <p>JSON fields: {@code timestamp} (epoch ms), {@code level}, {@code threadName}, {@code loggerName},
 * {@code formattedMessage} (the message with its arguments), {@code mdc}, {@code kvpList} where present, and
 * {@code throwable} (class, message, stack frames, causes) when the event has one; logback escapes every string, so
 * a message with a newline, quote or control character stays one line. Invariant: every event is encoded as exactly
 * one line in either format (the pattern is expected to end with {@code %n}; JSON lines always do).
 */
public final class LogEncoder extends EncoderBase<ILoggingEvent> {
    private final PatternLayoutEncoder text = new PatternLayoutEncoder();
    private final JsonEncoder json = new JsonEncoder();
    private String pattern = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";

    public LogEncoder() {
        json.setWithSequenceNumber(false);
        json.setWithNanoseconds(false);
        json.setWithContext(false);
        json.setWithMessage(false);
        json.setWithArguments(false);
        json.setWithFormattedMessage(true);
    }

    /** The text pattern (logback.xml's {@code <pattern>}). */
    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    public String getPattern() {
        return pattern;
    }

    @Override
    public void start() {
        text.setContext(getContext());
        text.setPattern(pattern);
        text.start();
        json.setContext(getContext());
        json.start();
        super.start();
    }

    @Override
    public void stop() {
        text.stop();
        json.stop();
        super.stop();
    }

    @Override
    public byte[] headerBytes() {
        return null; // a header or footer would be a line that is not one JSON object
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return LogFormats.json() ? json.encode(event) : text.encode(event);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }
}
