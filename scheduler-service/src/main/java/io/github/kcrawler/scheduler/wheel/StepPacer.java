package io.github.kcrawler.scheduler.wheel;

/**
 * When the next step of a {@link PolitenessWheel} may be taken, and the {@code notBefore} its requests carry: paper
 * 004's Next condition (Algorithm 1: "downloads finished", Algorithm 3: T since the previous Next) generalised to
 * steps that overlap. The parameters are a {@link Pacing}; the paper's discipline is {@code stepMs = T},
 * {@code stepsInFlight = 1}, {@code leadMs = 0}.
 *
 * <h2>Rule</h2>
 * Step s may be taken at time {@code now} when
 * <ol>
 *   <li>{@code now ≥ notBefore(s-1) + stepMs - leadMs} (the step is due, or within the lead before it), and</li>
 *   <li>step {@code s - k} ({@code k = stepsInFlight}) has had every fetch reported, or its {@code notBefore} is at
 *   least {@code stepTimeoutMs} old (it is given up: {@link #stepsAfterTimeout()}).</li>
 * </ol>
 * Its {@code notBefore} is {@code max(notBefore(s-1) + stepMs, now)}: on the grid while the pacer keeps up (tick
 * jitter and release ahead of time cost nothing), restarted at {@code now} after a stall (no burst to catch up).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>{@code notBefore(s) - notBefore(s-1) ≥ stepMs} for every step, hence with the wheel's parity rule (a residue
 *   is never in two consecutive steps) two requests of one residue have {@code notBefore} at least
 *   {@code 2·stepMs ≥ T} apart. In paper mode {@code notBefore(s) = now ≥ notBefore(s-1) + T}.</li>
 *   <li>Only the last k steps can have unreported fetches that hold anything back: a step's count is kept in the
 *   ring slot {@code s mod k} until step {@code s + k} reuses the slot, which rule 2 allows only once the count is 0
 *   or the step timed out. So at most k steps' batches ({@code k·H/2} requests) are outstanding.</li>
 *   <li>Every operation is O(1) (an array slot); {@link #reportedOldest()} (for a result without a step number) is
 *   O(k). Memory: three arrays of k.</li>
 * </ul>
 * A report is matched by step number; a report for a step no longer in the ring (given up, or from before a
 * restart) changes nothing. Not thread-safe (one per stream task).
 */
public final class StepPacer {
    private final Pacing pacing;
    private final int k;
    private final long[] stepOf;
    private final int[] unreported;
    private final long[] notBeforeOf;
    private long lastNotBefore;
    private long lastStep = Long.MIN_VALUE;
    private int outstanding;
    private long steps;
    private long stepsAfterTimeout;

    /**
     * @param startMs the time the crawl starts: the first step's {@code notBefore} is {@code startMs + stepMs} at
     *                the earliest
     */
    public StepPacer(Pacing pacing, long startMs) {
        this.pacing = java.util.Objects.requireNonNull(pacing, "pacing");
        this.k = pacing.stepsInFlight();
        this.stepOf = new long[k];
        this.unreported = new int[k];
        this.notBeforeOf = new long[k];
        java.util.Arrays.fill(stepOf, Long.MIN_VALUE);
        this.lastNotBefore = startMs;
    }

    /** Whether step {@code step} (the one after the last) may be taken at {@code nowMs}; changes nothing. */
    public boolean mayStep(long nowMs, long step) {
        if (nowMs < lastNotBefore + pacing.stepMs() - pacing.leadMs()) {
            return false;
        }
        int i = slot(step);
        return unreported[i] == 0 || nowMs - notBeforeOf[i] >= pacing.stepTimeoutMs();
    }

    /**
     * Records that step {@code step}, handing out {@code fetches} requests, was taken at {@code nowMs}.
     *
     * @return the {@code notBefore} of its requests
     * @throws IllegalStateException if {@link #mayStep} says no, or the step number did not increase
     */
    public long stepped(long nowMs, long step, int fetches) {
        if (step <= lastStep && lastStep != Long.MIN_VALUE) {
            throw new IllegalStateException("step " + step + " after step " + lastStep);
        }
        if (!mayStep(nowMs, step)) {
            throw new IllegalStateException("step " + step + " at " + nowMs + " ms is not allowed yet (next "
                    + "notBefore " + (lastNotBefore + pacing.stepMs()) + ", lead " + pacing.leadMs() + " ms)");
        }
        if (fetches < 0) {
            throw new IllegalArgumentException("fetches must be >= 0, was " + fetches);
        }
        long notBefore = Math.max(lastNotBefore + pacing.stepMs(), nowMs);
        assert notBefore - lastNotBefore >= pacing.stepMs() : "steps closer than stepMs";
        int i = slot(step);
        if (unreported[i] > 0) { // step - k (or older) timed out: it stops holding the crawl back
            stepsAfterTimeout++;
            outstanding -= unreported[i];
        }
        stepOf[i] = step;
        unreported[i] = fetches;
        notBeforeOf[i] = notBefore;
        outstanding += fetches;
        lastNotBefore = notBefore;
        lastStep = step;
        steps++;
        return notBefore;
    }

    /**
     * One fetch of step {@code step} was reported.
     *
     * @return false if the step is not in the ring any more (given up, or a stale or bogus number) or has nothing
     *         outstanding; nothing changes then
     */
    public boolean reported(long step) {
        int i = slot(step);
        if (stepOf[i] != step || unreported[i] == 0) {
            return false;
        }
        unreported[i]--;
        outstanding--;
        return true;
    }

    /** One fetch without a step number was reported: credited to the oldest step with fetches outstanding. */
    public boolean reportedOldest() {
        int best = -1;
        for (int i = 0; i < k; i++) {
            if (unreported[i] > 0 && (best < 0 || stepOf[i] < stepOf[best])) {
                best = i;
            }
        }
        if (best < 0) {
            return false;
        }
        unreported[best]--;
        outstanding--;
        return true;
    }

    private int slot(long step) {
        return (int) Math.floorMod(step, (long) k);
    }

    /** Fetches of the steps in the ring not reported yet. */
    public int outstanding() {
        return outstanding;
    }

    /** Steps taken. */
    public long steps() {
        return steps;
    }

    /** Steps taken while the step k back still had fetches unreported (its timeout had passed). */
    public long stepsAfterTimeout() {
        return stepsAfterTimeout;
    }

    /** The {@code notBefore} of the last step (the start time before the first). */
    public long lastNotBefore() {
        return lastNotBefore;
    }

    public Pacing pacing() {
        return pacing;
    }
}
