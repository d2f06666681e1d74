package io.github.kcrawler.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one declaration of a setting: its key (kebab-case; the flag {@code --key} and the environment variable
 * {@code CRAWLER_KEY} follow from it), its type, its default — a value, or a formula over other settings or the
 * machine ({@link Derived}) — the rule its value must satisfy ({@link Check}) and a one-line description. Parsing
 * ({@link #read}), validation ({@link #check}, called by the config record's constructor), {@code --help}
 * ({@link SettingSet#help}) and docs/CONFIGURATION.md are all derived from it, so a key, default or rule is written
 * in exactly one place.
 *
 * <p>Why not Kafka's {@code ConfigDef}, which has name, type, default, validator and doc: its defaults are constants
 * (ours may be formulas such as {@code min(20, politeness-ms / 2)} or {@code cores}), its validators see one key
 * (ours are then combined by the record's constructor, which checks rules across keys), its messages differ from the
 * ones operators and tests rely on ({@code threads must be in 1..256, was 0}), and its booleans and lists parse
 * differently from ours ({@code yes}/{@code 1}, blank entries dropped). Kafka's own client settings still pass
 * through unchanged and are validated by Kafka.
 *
 * <p>Instances are immutable; {@link #withDefault} and {@link #withCheck} give a service its own default or a
 * narrower rule for a shared declaration (name, type and description stay shared).
 */
public final class Setting<T> {
    /** A default computed from other settings or the machine, shown as {@code formula} in help and docs. */
    public record Derived<T>(String formula, Function<Settings, T> value) {
        public Derived {
            Objects.requireNonNull(formula, "formula");
            Objects.requireNonNull(value, "value");
        }
    }

    private final String key;
    private final String type;
    private final Function<String, T> parser;
    private final Function<T, String> printer;
    private final T defaultValue;
    private final Derived<T> derived;
    private final Check<? super T> check;
    private final String description;

    private Setting(String key, String type, Function<String, T> parser, Function<T, String> printer, T defaultValue,
                    Derived<T> derived, Check<? super T> check, String description) {
        if (key == null || !key.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("a setting key is kebab-case, was '" + key + "'");
        }
        if (description == null || description.isBlank() || description.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(key + ": the description is one non-empty line");
        }
        this.key = key;
        this.type = Objects.requireNonNull(type);
        this.parser = Objects.requireNonNull(parser);
        this.printer = Objects.requireNonNull(printer);
        this.defaultValue = defaultValue;
        this.derived = derived;
        this.check = Objects.requireNonNull(check);
        this.description = description;
        assert derived != null || defaultValue != null : key + " has no default";
    }

    public static Setting<Integer> integer(String key, int defaultValue, Check<? super Integer> check,
                                           String description) {
        return number(key, "int", Integer::parseInt, defaultValue, null, check, description);
    }

    public static Setting<Integer> integer(String key, Derived<Integer> defaultValue, Check<? super Integer> check,
                                           String description) {
        return number(key, "int", Integer::parseInt, null, defaultValue, check, description);
    }

    public static Setting<Long> longValue(String key, long defaultValue, Check<? super Long> check,
                                          String description) {
        return number(key, "long", Long::parseLong, defaultValue, null, check, description);
    }

    public static Setting<Long> longValue(String key, Derived<Long> defaultValue, Check<? super Long> check,
                                          String description) {
        return number(key, "long", Long::parseLong, null, defaultValue, check, description);
    }

    public static Setting<Double> decimal(String key, double defaultValue, Check<? super Double> check,
                                          String description) {
        return number(key, "number", Double::parseDouble, defaultValue, null, check, description);
    }

    private static <N extends Number> Setting<N> number(String key, String type, Function<String, N> parse, N fixed,
                                                        Derived<N> derived, Check<? super N> check,
                                                        String description) {
        return new Setting<>(key, type, v -> number(key, v, parse), String::valueOf, fixed, derived, check,
                description);
    }

    /** {@code true}/{@code yes}/{@code 1} or {@code false}/{@code no}/{@code 0}; a bare flag {@code --key} is true. */
    public static Setting<Boolean> bool(String key, boolean defaultValue, String description) {
        return new Setting<>(key, "bool", v -> bool(key, v), String::valueOf, defaultValue, null, Check.any(),
                description);
    }

    /** Text taken as given (not trimmed); the empty string is a value. */
    public static Setting<String> string(String key, String defaultValue, Check<? super String> check,
                                         String description) {
        return new Setting<>(key, "text", v -> v, v -> v, defaultValue, null, check, description);
    }

    /** A comma-separated list, entries trimmed and blank ones dropped; empty by default. */
    public static Setting<List<String>> list(String key, String description) {
        return new Setting<>(key, "list", Setting::list, v -> String.join(",", v), List.of(), null, Check.any(),
                description);
    }

    /**
     * One of a fixed set of named values.
     *
     * @param name  the value's name in settings ({@code priority})
     * @param parse the parser, throwing with the key and the allowed names for anything else
     */
    @SafeVarargs
    public static <E> Setting<E> choice(String key, E defaultValue, Function<E, String> name, Function<String, E> parse,
                                        String description, E... values) {
        List<String> names = new ArrayList<>();
        for (E v : values) {
            names.add(name.apply(v));
        }
        return new Setting<>(key, String.join("|", names), parse, name, defaultValue, null, Check.any(), description);
    }

    /** A default that is a formula: {@code derived("min(20, politeness-ms / 2)", s -> ...)}. */
    public static <T> Derived<T> derived(String formula, Function<Settings, T> value) {
        return new Derived<>(formula, value);
    }

    /** The same declaration with another default (a service whose default differs from the shared one). */
    public Setting<T> withDefault(T newDefault) {
        return new Setting<>(key, type, parser, printer, Objects.requireNonNull(newDefault), null, check, description);
    }

    /** The same declaration with a narrower rule (a service that accepts less). */
    public Setting<T> withCheck(Check<? super T> newCheck) {
        return new Setting<>(key, type, parser, printer, defaultValue, derived, newCheck, description);
    }

    /** The value in {@code s}, or the default (computed from {@code s} when derived); not yet {@link #check}ed. */
    public T read(Settings s) {
        String raw = s.raw(key);
        return raw == null ? defaultValue(s) : parse(raw);
    }

    /** Converts a raw value; a malformed one is refused naming the key ({@code tick-ms must be a number, was 'x'}). */
    public T parse(String raw) {
        return parser.apply(raw);
    }

    /** The default, computed from {@code s} if it is a formula. */
    public T defaultValue(Settings s) {
        return derived == null ? defaultValue : derived.value().apply(s);
    }

    /** The default when no other setting is given. */
    public T defaultValue() {
        return defaultValue(Settings.empty());
    }

    /** {@code value} if it satisfies this setting's rule, else an exception naming key, rule and value. */
    public T check(T value) {
        @SuppressWarnings("unchecked")
        Check<T> c = (Check<T>) check;
        return c.require(key, value);
    }

    /** True if {@code value} satisfies this setting's rule (for a rule stated with other keys' values). */
    public boolean accepts(T value) {
        @SuppressWarnings("unchecked")
        Check<T> c = (Check<T>) check;
        return c.accepts(value);
    }

    public String key() {
        return key;
    }

    /** {@code CRAWLER_KEY}. */
    public String env() {
        return Settings.envName(key);
    }

    /** int, long, number, bool, text, list or the choices ({@code priority|fifo}). */
    public String type() {
        return type;
    }

    /** The default as help and docs show it: the formula if derived, else the value ("" if empty). */
    public String defaultText() {
        return derived != null ? derived.formula() : defaultValue == null ? "" : printer.apply(defaultValue);
    }

    public boolean isDerived() {
        return derived != null;
    }

    /** The rule as words ({@code must be in 1..256}), empty if any value of the type goes. */
    public String rule() {
        return check.rule();
    }

    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return key;
    }

    private static <N> N number(String key, String v, Function<String, N> parse) {
        try {
            return parse.apply(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, was '" + v + "'");
        }
    }

    private static boolean bool(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, was '" + v + "'");
        };
    }

    private static List<String> list(String v) {
        List<String> out = new ArrayList<>();
        for (String s : v.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return List.copyOf(out);
    }
}
