package io.github.kcrawler.scheduler.wheel;

/**
 * When the steps of a {@link PolitenessWheel} are taken: the parameters of a {@link StepPacer}.
 *
 * <ul>
 *   <li>{@link Mode#PAPER}: paper 004 as published (Algorithm 1 with Algorithm 3's time test read as the text says):
 *   a step every T at the earliest, and only once every fetch of the previous step has been reported (or
 *   {@code stepTimeoutMs} has passed). With the parity rule a residue is served at most every other step, so one
 *   IP gets one request per {@code 2·(T + round trip)}: politeness efficiency below 1/2 whenever results take
 *   time to come back (issue 19 measured 0.42).</li>
 *   <li>{@link Mode#PIPELINED} (ours): steps of {@code ⌈T/2⌉} on a fixed time grid, each released up to
 *   {@code leadMs} before its {@code notBefore} (the grid time, which the fetcher honours), with up to
 *   {@code stepsInFlight} steps whose fetches are not all reported; the step {@code stepsInFlight} back must be
 *   reported (or timed out) before a new one is taken. The parity rule is kept, so the two steps nearest to each
 *   other that can hold one residue are two steps, i.e. {@code ≥ 2·⌈T/2⌉ ≥ T}, apart in {@code notBefore}: one IP
 *   gets one request per T.</li>
 * </ul>
 * Paper mode is the same machinery with {@code stepMs = T}, {@code stepsInFlight = 1}, {@code leadMs = 0}.
 *
 * @param mode          which of the two
 * @param politenessMs  T
 * @param stepMs        time between the {@code notBefore} of consecutive steps: T (paper) or {@code ⌈T/2⌉}
 * @param stepsInFlight k: steps released whose fetches may all be still unreported (1 in paper mode)
 * @param leadMs        how long before its {@code notBefore} a step may be released (0 in paper mode)
 * @param stepTimeoutMs how long after its {@code notBefore} an unreported step stops holding the next ones back
 */
public record Pacing(Mode mode, long politenessMs, long stepMs, int stepsInFlight, long leadMs, long stepTimeoutMs) {
    /** Largest {@code stepsInFlight}: the pacer keeps three arrays of this length. */
    public static final int MAX_STEPS_IN_FLIGHT = 4096;

    /** The two step disciplines. */
    public enum Mode {
        /** Paper 004's Algorithm 1: one step per T, after every fetch of the previous step was reported. */
        PAPER,
        /** Ours: steps of ⌈T/2⌉ on a time grid, released ahead with notBefore, k steps in flight. */
        PIPELINED;

        public static Mode parse(String s) {
            for (Mode m : values()) {
                if (m.key().equalsIgnoreCase(s == null ? "" : s.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("pacing must be pipelined or paper, was '" + s + "'");
        }

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Pacing {
        if (mode == null) {
            throw new IllegalArgumentException("pacing mode must be given");
        }
        if (politenessMs <= 0) {
            throw new IllegalArgumentException("politeness interval must be > 0 ms, was " + politenessMs);
        }
        if (2 * stepMs < politenessMs || stepMs > politenessMs) {
            throw new IllegalArgumentException("step must be in [ceil(T/2), T] = [" + (politenessMs + 1) / 2 + ", "
                    + politenessMs + "] ms, was " + stepMs);
        }
        if (stepsInFlight < 1 || stepsInFlight > MAX_STEPS_IN_FLIGHT) {
            throw new IllegalArgumentException("steps in flight must be in 1.." + MAX_STEPS_IN_FLIGHT + ", was "
                    + stepsInFlight);
        }
        if (leadMs < 0) {
            throw new IllegalArgumentException("lead must be >= 0 ms, was " + leadMs);
        }
        if (stepTimeoutMs < politenessMs) {
            throw new IllegalArgumentException("step timeout must be >= T (" + politenessMs + " ms), was "
                    + stepTimeoutMs);
        }
    }

    /** Paper 004 as published: steps of T, each after the previous step's fetches were reported. */
    public static Pacing paper(long politenessMs, long stepTimeoutMs) {
        return new Pacing(Mode.PAPER, politenessMs, politenessMs, 1, 0, stepTimeoutMs);
    }

    /** Ours: steps of {@code ⌈T/2⌉}, released {@code leadMs} ahead, {@code stepsInFlight} steps unreported. */
    public static Pacing pipelined(long politenessMs, int stepsInFlight, long leadMs, long stepTimeoutMs) {
        return new Pacing(Mode.PIPELINED, politenessMs, (politenessMs + 1) / 2, stepsInFlight, leadMs,
                stepTimeoutMs);
    }
}
