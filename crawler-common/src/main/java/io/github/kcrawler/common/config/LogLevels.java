package io.github.kcrawler.common.config;

import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;

/**
 * The crawler's own log level ({@code io.github.kcrawler.*}), set at run time from {@code --log-level} or
 * {@code CRAWLER_LOG_LEVEL} ({@link Settings#LOG_LEVEL}). Only logback (the binding of every shaded jar) can be
 * changed; with any other SLF4J binding the call does nothing. Libraries keep the levels of logback.xml (WARN).
 */
public final class LogLevels {
    /** Accepted values, case-insensitive. */
    public static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");
    /** The logger whose level the setting controls. */
    public static final String CRAWLER_LOGGER = "io.github.kcrawler";

    private LogLevels() {
    }

    /** The canonical upper-case level, or null when {@code value} is not one of {@link #LEVELS}. */
    public static String parse(String value) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        return LEVELS.contains(v) ? v : null;
    }

    /** Sets the crawler's loggers to {@code level} (one of {@link #LEVELS}); returns whether logback took it. */
    public static boolean apply(String level) {
        String canonical = parse(level);
        if (canonical == null) {
            throw new IllegalArgumentException("log level must be one of " + LEVELS + ", was '" + level + "'");
        }
        try {
            if (LoggerFactory.getLogger(CRAWLER_LOGGER) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.toLevel(canonical));
                return true;
            }
        } catch (NoClassDefFoundError e) {
            return false; // logback is optional for crawler-common's users
        }
        return false;
    }
}
