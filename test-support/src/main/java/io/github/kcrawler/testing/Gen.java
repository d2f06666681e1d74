package io.github.kcrawler.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Generators for property tests, over one seeded {@link SplittableRandom}: the same seed gives the same inputs.
 * Each try of a {@link PropertyCheck} gets its own {@code Gen}.
 *
 * <p>The distributions follow the generators the project's properties used before (jqwik's defaults): a value is
 * an edge case with probability {@value #EDGE_PERCENT} % (the bounds of a range and their neighbours, 0, 1 and -1
 * when in range, {@code Long.MIN_VALUE}/{@code MAX_VALUE} for any long, the empty string or array, a
 * single-character string), sizes are drawn half uniformly and half biased towards small, characters are any BMP
 * char except noncharacters and private-use ones (unpaired surrogates included), doubles in a range are half
 * rounded to two decimals (jqwik's default scale) and half at full precision. Shrinking is not done: a failure
 * reports the seed of its try, which reproduces it exactly.
 */
public final class Gen {
    /** Percentage of values drawn from the edge cases of their generator. */
    public static final int EDGE_PERCENT = 5;

    private final long seed;
    private final SplittableRandom random;

    public Gen(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** The seed this generator started from. */
    public long seed() {
        return seed;
    }

    /** The underlying random source, for a test that draws its own values. */
    public SplittableRandom random() {
        return random;
    }

    private boolean edge() {
        return random.nextInt(100) < EDGE_PERCENT;
    }

    public boolean bool() {
        return random.nextBoolean();
    }

    /** A long in {@code [min, max]}, inclusive. */
    public long longIn(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("min " + min + " > max " + max);
        }
        if (edge()) {
            long[] candidates = {min, max, min + 1, max - 1, 0, 1, -1};
            long c = candidates[random.nextInt(candidates.length)];
            return c >= min && c <= max ? c : min; // a neighbour that overflowed lands outside the range
        }
        if (max - min >= 0 && max - min < Long.MAX_VALUE) {
            long span = max - min + 1;
            if (span > 64 && random.nextInt(4) == 0) {
                // biased towards the low end, as jqwik's sizes and numbers are: a random magnitude, then a value
                long bound = 1L << random.nextInt(64 - Long.numberOfLeadingZeros(span));
                return min + random.nextLong(bound);
            }
            return min + random.nextLong(span);
        }
        // span overflows a long: draw until in range (at least half of all longs are)
        while (true) {
            long v = random.nextLong();
            if (v >= min && v <= max) {
                return v;
            }
        }
    }

    /** An int in {@code [min, max]}, inclusive. */
    public int intIn(int min, int max) {
        return (int) longIn(min, max);
    }

    /** Any long: edge cases, small magnitudes (a quarter of draws) or uniform over all 2^64 values. */
    public long anyLong() {
        if (edge()) {
            long[] candidates = {0, 1, -1, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1};
            return candidates[random.nextInt(candidates.length)];
        }
        if (random.nextInt(4) == 0) {
            long magnitude = 1L << random.nextInt(63);
            return random.nextLong(-magnitude, magnitude);
        }
        return random.nextLong();
    }

    /** Any byte, edge cases 0, 1, -1, -128, 127 included. */
    public byte anyByte() {
        if (edge()) {
            byte[] candidates = {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE};
            return candidates[random.nextInt(candidates.length)];
        }
        return (byte) random.nextInt(256);
    }

    /**
     * A double in {@code [min, max]}: edge cases (the bounds, 0 when in range), otherwise uniform, half of the time
     * rounded to two decimals.
     */
    public double doubleIn(double min, double max) {
        if (edge()) {
            double[] candidates = {min, max, 0.0, Math.nextUp(min), Math.nextDown(max)};
            double c = candidates[random.nextInt(candidates.length)];
            return c >= min && c <= max ? c : min;
        }
        double v = min + random.nextDouble() * (max - min);
        if (random.nextBoolean()) {
            v = Math.round(v * 100) / 100.0;
        }
        return Math.min(max, Math.max(min, v));
    }

    /** One of the given values, uniformly. */
    @SafeVarargs
    public final <T> T of(T... values) {
        return values[random.nextInt(values.length)];
    }

    /** One of the given ints, uniformly. */
    public int ofInts(int... values) {
        return values[random.nextInt(values.length)];
    }

    /** One of the given doubles, uniformly. */
    public double ofDoubles(double... values) {
        return values[random.nextInt(values.length)];
    }

    /** An index into {@code weights}, each chosen with probability proportional to its weight. */
    public int weighted(int... weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new AssertionError("unreachable");
    }

    /**
     * A size in {@code [min, max]}: edge cases (min, max, min + 1), otherwise half uniform and half biased towards
     * small sizes (uniform up to a random power of two).
     */
    public int size(int min, int max) {
        if (min > max) {
            throw new IllegalArgumentException("min " + min + " > max " + max);
        }
        if (edge()) {
            int[] candidates = {min, max, Math.min(max, min + 1)};
            return candidates[random.nextInt(candidates.length)];
        }
        int span = max - min;
        if (random.nextBoolean()) {
            return min + random.nextInt(span + 1);
        }
        int bits = 32 - Integer.numberOfLeadingZeros(span);
        int bound = (int) Math.min(span, (1L << random.nextInt(bits + 1)) - 1);
        return min + random.nextInt(bound + 1);
    }

    /** A list of {@code size(min, max)} elements, each drawn by {@code element}. */
    public <T> List<T> list(int min, int max, Function<Gen, T> element) {
        int n = size(min, max);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(element.apply(this));
        }
        return out;
    }

    /** An int array of {@code size(minSize, maxSize)} elements, each in {@code [min, max]}. */
    public int[] ints(int minSize, int maxSize, int min, int max) {
        int[] out = new int[size(minSize, maxSize)];
        for (int i = 0; i < out.length; i++) {
            out[i] = intIn(min, max);
        }
        return out;
    }

    /** A byte array of {@code size(minSize, maxSize)} bytes, each {@link #anyByte()}. */
    public byte[] bytes(int minSize, int maxSize) {
        byte[] out = new byte[size(minSize, maxSize)];
        for (int i = 0; i < out.length; i++) {
            out[i] = anyByte();
        }
        return out;
    }

    /** A byte array of at most {@code maxSize} bytes. */
    public byte[] bytes(int maxSize) {
        return bytes(0, maxSize);
    }

    /** Any BMP char but the noncharacters (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF) and private use (U+E000–U+F8FF). */
    public char anyChar() {
        if (edge()) {
            char[] candidates = {'\u0000', ' ', 'a', '\uD800', '\uDFFF', '\uFFFD', '\u007F'};
            return candidates[random.nextInt(candidates.length)];
        }
        while (true) {
            char c = (char) random.nextInt(0x10000);
            boolean nonCharacter = c >= '\uFDD0' && c <= '\uFDEF' || c == '\uFFFE' || c == '\uFFFF';
            boolean privateUse = c >= '\uE000' && c <= '\uF8FF';
            if (!nonCharacter && !privateUse) {
                return c;
            }
        }
    }

    /** A string of at most {@code maxLength} {@link #anyChar()}s. */
    public String string(int maxLength) {
        return string(0, maxLength);
    }

    /** A string of {@code size(minLength, maxLength)} {@link #anyChar()}s; a single repeated char now and then. */
    public String string(int minLength, int maxLength) {
        int n = size(minLength, maxLength);
        char[] chars = new char[n];
        if (n > 0 && edge()) {
            java.util.Arrays.fill(chars, anyChar());
        } else {
            for (int i = 0; i < n; i++) {
                chars[i] = anyChar();
            }
        }
        return new String(chars);
    }

    /**
     * A {@link #string(int, int)} with every surrogate replaced by {@code 'x'}: text that UTF-8 encodes and decodes back
     * to itself (a lone surrogate does not), as a binary codec's round trip needs.
     */
    public String utf8Safe(int minLength, int maxLength) {
        char[] c = string(minLength, maxLength).toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (Character.isSurrogate(c[i])) {
                c[i] = 'x';
            }
        }
        return new String(c);
    }

    /** At most {@code maxPieces} of {@code pieces}, each chosen uniformly, concatenated. */
    public String joined(String[] pieces, int maxPieces) {
        int n = size(0, maxPieces);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }
}
