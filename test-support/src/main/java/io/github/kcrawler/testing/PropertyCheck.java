package io.github.kcrawler.testing;

import java.util.SplittableRandom;

/**
 * Runs a property: a test body over generated inputs, {@code tries} times, each try with its own seeded {@link Gen}.
 * A failing try is reported with its seed and the command line that reruns exactly that input:
 * <pre>
 * mvn -B -o -pl MODULE -am test -Dtest='SomeTest#someProperty' -Dsurefire.failIfNoSpecifiedTests=false -Dkc.seed=SEED
 * </pre>
 * System properties:
 * <ul>
 *   <li>{@value #SEED}: run one try with this seed (the seed a failure printed) instead of {@code tries};</li>
 *   <li>{@value #RUN_SEED}: the seed the tries' seeds are drawn from (printed at each run), to replay a whole run;
 *       without it each run draws a fresh one, so CI keeps exploring;</li>
 *   <li>{@value #FUZZ_TRIES}: the try count of every {@link #fuzz} property, for the on-demand million-try runs
 *       of docs/HOSTILE.md (a value that is not a positive integer is ignored); {@link #forAll} ignores it.</li>
 * </ul>
 */
public final class PropertyCheck {
    public static final String SEED = "kc.seed";
    public static final String RUN_SEED = "kc.runSeed";
    public static final String FUZZ_TRIES = "kcrawler.fuzz.tries";

    /** A property's body: it draws its inputs from {@code gen} and asserts. */
    @FunctionalInterface
    public interface Body {
        void check(Gen gen) throws Exception;
    }

    private PropertyCheck() {
    }

    /** Runs {@code body} {@code tries} times (or once, with {@value #SEED} set). */
    public static void forAll(int tries, Body body) {
        run(tries, body);
    }

    /** A fuzz property: as {@link #forAll}, with the try count replaced by {@value #FUZZ_TRIES} when it is set. */
    public static void fuzz(int tries, Body body) {
        Integer configured = positive(System.getProperty(FUZZ_TRIES));
        run(configured != null ? configured : tries, body);
    }

    /** The on-demand fuzz try count, or null when none (or an unusable one) is set. */
    public static Integer configuredFuzzTries() {
        return positive(System.getProperty(FUZZ_TRIES));
    }

    private static void run(int tries, Body body) {
        if (tries < 1) {
            throw new IllegalArgumentException("tries must be positive, was " + tries);
        }
        String name = caller();
        Long single = parseLong(SEED);
        if (single != null) {
            System.out.printf("%s: one try, %s=%d%n", name, SEED, single);
            tryOnce(name, body, single, 1, 1, null);
            return;
        }
        Long fixedRun = parseLong(RUN_SEED);
        long runSeed = fixedRun != null ? fixedRun : new SplittableRandom().nextLong();
        System.out.printf("%s: %d tries, %s=%d%n", name, tries, RUN_SEED, runSeed);
        SplittableRandom seeds = new SplittableRandom(runSeed);
        for (int i = 1; i <= tries; i++) {
            tryOnce(name, body, seeds.nextLong(), i, tries, runSeed);
        }
    }

    private static void tryOnce(String name, Body body, long seed, int i, int tries, Long runSeed) {
        try {
            body.check(new Gen(seed));
        } catch (Throwable t) {
            String rerun = String.format("-Dtest='%s' -D%s=%d", name, SEED, seed);
            String message = String.format("property %s failed on try %d of %d with seed %d%s; rerun that try with "
                    + "%s%n%s", name, i, tries, seed, runSeed == null ? "" : " (" + RUN_SEED + "=" + runSeed + ")",
                    rerun, t);
            System.err.println(message);
            AssertionError e = new AssertionError(message, t);
            throw e;
        }
    }

    /** {@code Class#method} of the test that called us. */
    private static String caller() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !f.getClassName().equals(PropertyCheck.class.getName()))
                .findFirst()
                .map(f -> {
                    String c = f.getClassName();
                    int nested = c.indexOf('$');
                    return c.substring(c.lastIndexOf('.') + 1, nested < 0 ? c.length() : nested) + "#" + f.getMethodName();
                })
                .orElse("?"));
    }

    private static Long parseLong(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a long, was " + v, e);
        }
    }

    private static Integer positive(String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(v.trim());
            return n > 0 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
