package io.github.kcrawler.common.config;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * The rule a setting's value must satisfy, with the words of the message that names a value breaking it:
 * {@code threads must be in 1..256, was 0}. A {@link Setting} carries one; the service's config record applies it in
 * its constructor ({@link Setting#check}), so a value is judged by the same rule whether it came from a flag, the
 * environment or code, and {@code --help} and docs/CONFIGURATION.md print the same words.
 *
 * @param test the rule; never sees null for a primitive setting
 * @param rule how the message states it, after the key: {@code must be in 1..256}; empty for "anything goes"
 */
public record Check<T>(Predicate<? super T> test, String rule) {
    private static final Check<Object> ANY = new Check<>(v -> true, "");

    public Check {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(rule, "rule");
    }

    /** No rule (any value of the type). */
    @SuppressWarnings("unchecked")
    public static <T> Check<T> any() {
        return (Check<T>) ANY;
    }

    public static <T> Check<T> of(Predicate<? super T> test, String rule) {
        return new Check<>(test, rule);
    }

    /** {@code lo <= v <= hi}: "must be in lo..hi". */
    public static Check<Number> range(long lo, long hi) {
        return range(lo, hi, lo + ".." + hi);
    }

    /** {@code lo <= v <= hi}, the range written as {@code shown} ({@code 0..2^30}). */
    public static Check<Number> range(long lo, long hi, String shown) {
        return new Check<>(v -> v.longValue() >= lo && v.longValue() <= hi, "must be in " + shown);
    }

    /** "must be >= lo". */
    public static Check<Number> atLeast(long lo) {
        return new Check<>(v -> v.longValue() >= lo, "must be >= " + lo);
    }

    /** "must be > 0". */
    public static Check<Number> positive() {
        return new Check<>(v -> v.longValue() > 0, "must be > 0");
    }

    /** A non-blank string: "must not be empty". */
    public static Check<String> notBlank() {
        return new Check<>(v -> v != null && !v.isBlank(), "must not be empty");
    }

    /** True if {@code value} satisfies the rule. */
    public boolean accepts(T value) {
        return test.test(value);
    }

    /**
     * Returns {@code value} if it satisfies the rule, else throws naming the key, the rule and the value
     * ({@code key rule, was value}; a string value in quotes).
     */
    public T require(String key, T value) {
        if (!test.test(value)) {
            throw new IllegalArgumentException(key + " " + rule + ", was " + shown(value));
        }
        return value;
    }

    static String shown(Object value) {
        return value instanceof CharSequence ? "'" + value + "'" : String.valueOf(value);
    }
}
