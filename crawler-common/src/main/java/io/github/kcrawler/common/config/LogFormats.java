package io.github.kcrawler.common.config;

import java.util.List;
import java.util.Locale;

/**
 * The format of every log line: {@code text} (the default, one human-readable line per event) or {@code json} (one
 * JSON object per line, logback's own {@code JsonEncoder}, for log collectors), set with {@code --log-format FORMAT}
 * or {@code CRAWLER_LOG_FORMAT} ({@link Settings#LOG_FORMAT}) on every service, and {@code CRAWLER_LOG_FORMAT} or
 * {@code crawler --log-format FORMAT} for {@code crawl}, {@code demo} and the other commands.
 *
 * <p>How it reaches the lines: each jar's logback.xml gives its console appender a {@link LogEncoder}, which writes
 * {@link #current()}'s format. The environment variable is read when logback starts (so even the first line is in
 * the chosen format); a flag is applied by {@link Settings#parse} (services) or {@code CrawlerMain} (commands)
 * through {@link #apply}, before the service logs anything of its own. This class does not depend on logback.
 */
public final class LogFormats {
    public static final String TEXT = "text";
    public static final String JSON = "json";
    /** Accepted values, case-insensitive. */
    public static final List<String> FORMATS = List.of(TEXT, JSON);
    /** The environment variable, read once when the first {@link LogEncoder} is created. */
    public static final String ENV = "CRAWLER_LOG_FORMAT";

    private static volatile String current = initial(System.getenv(ENV));

    private LogFormats() {
    }

    /** The canonical lower-case format, or null when {@code value} is not one of {@link #FORMATS}. */
    public static String parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return FORMATS.contains(v) ? v : null;
    }

    /** The format log lines are written in now. */
    public static String current() {
        return current;
    }

    /** Whether lines are written as JSON now (the encoder's per-event question: a volatile read, nothing else). */
    public static boolean json() {
        return current == JSON; // canonical constants only, see apply
    }

    /** Switches every {@link LogEncoder} to {@code format} (one of {@link #FORMATS}) from the next line on. */
    public static void apply(String format) {
        String canonical = parse(format);
        if (canonical == null) {
            throw new IllegalArgumentException("log format must be one of " + FORMATS + ", was '" + format + "'");
        }
        current = canonical.equals(JSON) ? JSON : TEXT;
    }

    /** The environment's format; an invalid value leaves text (Settings.parse then refuses it at start-up). */
    static String initial(String env) {
        String canonical = parse(env);
        return JSON.equals(canonical) ? JSON : TEXT;
    }
}
