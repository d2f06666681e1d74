package io.github.kcrawler.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Raw settings of one service, gathered from environment variables and command-line flags and checked against the
 * keys the service declares. The service's typed config record turns them into values and validates them; this
 * class only knows where a value came from and refuses keys nobody declared (a typo must not silently fall back to
 * a default).
 *
 * <p>Key {@code politeness-ms} is read from the flag {@code --politeness-ms VALUE} (or {@code --politeness-ms=VALUE})
 * and from the environment variable {@code CRAWLER_POLITENESS_MS}; a flag wins over the environment. Keys starting
 * with {@code kafka.} are passed through to the Kafka clients unchanged ({@code --kafka.linger.ms=5},
 * or the environment variable {@code CRAWLER_KAFKA_LINGER_MS}: after {@code CRAWLER_KAFKA_} the name is lower-cased,
 * {@code __} becomes {@code _} and {@code _} becomes {@code .}, which is lossless for every Kafka client setting).
 * The environment is the place for secrets such as {@code CRAWLER_KAFKA_SASL_JAAS_CONFIG}: a flag is visible to every
 * user of the machine in the process list.
 */
public final class Settings {
    public static final String ENV_PREFIX = "CRAWLER_";
    public static final String KAFKA_PREFIX = "kafka.";
    /** The {@code --help} line of every service about Kafka client settings. */
    public static final String KAFKA_HELP = "  --kafka.<name>=<value>  or CRAWLER_KAFKA_<NAME> (. as _, _ as __): passed to"
            + " every Kafka client unchanged (security.protocol, sasl.*, ssl.*, linger.ms ...); put secrets such as"
            + " sasl.jaas.config in the environment, not on the command line";
    /**
     * The one setting every service (and {@code crawler seed}) accepts besides its own: the level of the crawler's
     * own loggers ({@code io.github.kcrawler}), {@code --log-level LEVEL} or {@code CRAWLER_LOG_LEVEL}, one of
     * {@link LogLevels#LEVELS}, default INFO. The services' logback.xml reads the variable at start-up; a flag is
     * applied by {@link #parse} through {@link LogLevels}.
     */
    public static final String LOG_LEVEL = "log-level";
    public static final String LOG_LEVEL_HELP = "  --log-level LEVEL       or CRAWLER_LOG_LEVEL: level of the crawler's own log"
            + " lines (TRACE, DEBUG, INFO, WARN, ERROR, OFF; default INFO); Kafka and other libraries log from WARN";
    /**
     * The other setting every service (and {@code crawler seed}) accepts: the format of every log line,
     * {@code --log-format FORMAT} or {@code CRAWLER_LOG_FORMAT}, {@code text} (default) or {@code json} (one JSON
     * object per line), see {@link LogFormats}. The environment variable is read by the jars' log encoder when
     * logging starts; a flag is applied by {@link #parse}.
     */
    public static final String LOG_FORMAT = "log-format";
    public static final String LOG_FORMAT_HELP = "  --log-format FORMAT     or CRAWLER_LOG_FORMAT: text (default) or json, one JSON"
            + " object per log line (timestamp, level, threadName, loggerName, formattedMessage, throwable)";
    /** Environment variables starting with this carry Kafka client settings. */
    public static final String KAFKA_ENV_PREFIX = ENV_PREFIX + "KAFKA_";

    private final Map<String, String> values;
    private final Map<String, String> kafka;

    private Settings(Map<String, String> values, Map<String, String> kafka) {
        this.values = Collections.unmodifiableMap(values);
        this.kafka = Collections.unmodifiableMap(kafka);
    }

    /**
     * @param known keys this service understands (kebab-case); boolean keys may appear as bare flags
     * @param env   the environment (normally {@code System.getenv()}); {@code CRAWLER_*} variables must map to known keys
     * @param args  command-line flags
     * @throws IllegalArgumentException naming every unknown key or malformed flag
     */
    public static Settings parse(Set<String> known, Map<String, String> env, String... args) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> kafka = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> envToKey = new LinkedHashMap<>();
        for (String key : known) {
            envToKey.put(envName(key), key);
        }
        String logLevel = null;
        String logFormat = null;
        kafka.putAll(kafkaFromEnv(env));
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!e.getKey().startsWith(ENV_PREFIX) || isKafkaEnv(e.getKey())) {
                continue;
            }
            if (e.getKey().equals(envName(LOG_LEVEL)) && !known.contains(LOG_LEVEL)) {
                logLevel = e.getValue();
                continue;
            }
            if (e.getKey().equals(envName(LOG_FORMAT)) && !known.contains(LOG_FORMAT)) {
                logFormat = e.getValue();
                continue;
            }
            String key = envToKey.get(e.getKey());
            if (key == null) {
                problems.add("unknown environment variable " + e.getKey());
            } else {
                values.put(key, e.getValue());
            }
        }
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                problems.add("unexpected argument '" + arg + "' (settings are --key value)");
                continue;
            }
            String body = arg.substring(2);
            String key;
            String value;
            int eq = body.indexOf('=');
            if (eq >= 0) {
                key = body.substring(0, eq);
                value = body.substring(eq + 1);
            } else {
                key = body;
                boolean nextIsValue = i + 1 < args.length && !args[i + 1].startsWith("--");
                value = nextIsValue ? args[++i] : "true";
            }
            if (key.startsWith(KAFKA_PREFIX)) {
                kafka.put(key.substring(KAFKA_PREFIX.length()), value);
            } else if (key.equals(LOG_LEVEL) && !known.contains(LOG_LEVEL)) {
                logLevel = value;
            } else if (key.equals(LOG_FORMAT) && !known.contains(LOG_FORMAT)) {
                logFormat = value;
            } else if (known.contains(key)) {
                values.put(key, value);
            } else {
                problems.add("unknown setting --" + key);
            }
        }
        if (logLevel != null && LogLevels.parse(logLevel) == null) {
            problems.add(LOG_LEVEL + " must be one of " + LogLevels.LEVELS + ", was '" + logLevel + "'");
        }
        if (logFormat != null && LogFormats.parse(logFormat) == null) {
            problems.add(LOG_FORMAT + " must be one of " + LogFormats.FORMATS + ", was '" + logFormat + "'");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems) + ". Known settings: "
                    + String.join(", ", new TreeSet<>(known)) + ", " + LOG_LEVEL + ", " + LOG_FORMAT);
        }
        if (logFormat != null) {
            LogFormats.apply(logFormat);
        }
        if (logLevel != null) {
            LogLevels.apply(LogLevels.parse(logLevel));
        }
        return new Settings(values, kafka);
    }

    /**
     * The Kafka client settings in {@code env}: {@code CRAWLER_KAFKA_SASL_JAAS_CONFIG=…} gives
     * {@code sasl.jaas.config=…}. Other variables are ignored.
     */
    public static Map<String, String> kafkaFromEnv(Map<String, String> env) {
        Map<String, String> kafka = new TreeMap<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (isKafkaEnv(e.getKey())) {
                kafka.put(kafkaName(e.getKey().substring(KAFKA_ENV_PREFIX.length())), e.getValue());
            }
        }
        return kafka;
    }

    /**
     * The environment variable that carries the Kafka client setting {@code name}: {@code sasl.jaas.config} →
     * {@code CRAWLER_KAFKA_SASL_JAAS_CONFIG}; an underscore in the name is doubled
     * ({@code rack.aware.assignment.non_overlap_cost} → {@code …_NON__OVERLAP_COST}).
     */
    public static String kafkaEnvName(String name) {
        return KAFKA_ENV_PREFIX + name.toUpperCase(Locale.ROOT).replace("_", "__").replace('.', '_');
    }

    /** Inverse of {@link #kafkaEnvName} after the prefix: {@code _} → {@code .}, {@code __} → {@code _}. */
    private static String kafkaName(String env) {
        StringBuilder out = new StringBuilder(env.length());
        for (int i = 0; i < env.length(); i++) {
            char c = env.charAt(i);
            if (c != '_') {
                out.append(Character.toLowerCase(c));
            } else if (i + 1 < env.length() && env.charAt(i + 1) == '_') {
                out.append('_');
                i++;
            } else {
                out.append('.');
            }
        }
        return out.toString();
    }

    private static boolean isKafkaEnv(String name) {
        return name.startsWith(KAFKA_ENV_PREFIX) && name.length() > KAFKA_ENV_PREFIX.length();
    }

    public static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_');
    }

    private static final Settings EMPTY = new Settings(Map.of(), Map.of());

    /** No values at all: every {@link Setting#read} gives its default. */
    public static Settings empty() {
        return EMPTY;
    }

    /** The raw value given for {@code key} (flag or environment), or null. */
    public String raw(String key) {
        return values.get(key);
    }

    /** The value of a declared setting, or its default; see {@link Setting#read}. */
    public <T> T get(Setting<T> setting) {
        return setting.read(this);
    }

    public String string(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    public int integer(String key, int defaultValue) {
        String v = values.get(key);
        return v == null ? defaultValue : parse(key, v, Integer::parseInt);
    }

    public long longValue(String key, long defaultValue) {
        String v = values.get(key);
        return v == null ? defaultValue : parse(key, v, Long::parseLong);
    }

    public double doubleValue(String key, double defaultValue) {
        String v = values.get(key);
        return v == null ? defaultValue : parse(key, v, Double::parseDouble);
    }

    public boolean bool(String key, boolean defaultValue) {
        String v = values.get(key);
        if (v == null) {
            return defaultValue;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, was '" + v + "'");
        };
    }

    /** Comma-separated list, empty entries dropped. */
    public List<String> list(String key, List<String> defaultValue) {
        String v = values.get(key);
        if (v == null) {
            return defaultValue;
        }
        List<String> out = new ArrayList<>();
        for (String s : v.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return List.copyOf(out);
    }

    /** Kafka client settings passed through unchanged. */
    public Map<String, String> kafkaOverrides() {
        return kafka;
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    private interface Parser<T> {
        T parse(String s);
    }

    private static <T> T parse(String key, String v, Parser<T> parser) {
        try {
            return parser.parse(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, was '" + v + "'");
        }
    }
}
