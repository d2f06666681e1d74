package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.scheduler.wheel.Pacing;

import java.util.Arrays;

/**
 * Per residue of a {@link WheelFrontier} with a lookahead ({@code wheel-lookahead}, ours): its URLs released and not
 * yet reported, and the cap beyond which its next URLs wait in the pool. Without it, one IP whose server is slower
 * than its polite rate holds the whole partition back.
 *
 * <p>Why: the wheel plans an IP's requests on a grid of T, but the fetcher's per-IP guard grants the next request T
 * after the previous one <em>ended</em> (its guarantee at the server), so a busy IP is served every T + its
 * response time. The difference piles up in the fetcher's queue for that IP, one request every few seconds. Each
 * queued request is a fetch of an old step still unreported, so before long the {@link
 * io.github.kcrawler.scheduler.wheel.StepPacer} (step {@code s − steps-in-flight} must be reported) stops every
 * step of the partition, and every other IP of the partition waits too: issue 19's demo measured 0.2–1.4 s gaps at
 * every busy IP while the IP had hundreds of URLs known (BENCHMARKS.md, twenty-fourth session). With the cap, the
 * URLs of a residue that has {@link #cap} unreported wait in the pool (parked, so they cost no refill attempts), and
 * only that residue waits for its own results; its fetcher queue keeps its server busy meanwhile.
 *
 * <p>The cap covers what one IP served every T has outstanding in steady state: the requests released up to
 * {@code pacing-lead-ms} ahead, those between their grant and their result reaching the scheduler (allowed
 * {@link #ROUND_TRIP_ALLOWANCE_MS}), and the two the lookahead lets wait in the wheel ({@link
 * WheelFrontier#LOOKAHEAD_PER_RESIDUE}); and it leaves the lookahead to at least eight IPs
 * ({@link #MIN_RESIDUES_PER_LOOKAHEAD}). Without that second bound the cap was 115 at T = 20 ms, nearly the whole
 * lookahead of 128, for {@code bench e2e}'s busiest IPs (1,841 pages on one).
 *
 * <p>Cited: the cap is ours; paper 004's wheel has no notion of a request's result, only of a step's.
 *
 * <p>Invariants: a count is never negative; a report decrements only a residue with something counted. A fetch
 * given up by the pacer's step timeout (its result lost or late) is never reported to a residue, so when the pacer
 * gives up a step every count is cleared ({@link #clear}: O(H), only after a timeout, which needs a fault) — the cap
 * can then let more through for a while, never fewer, and the fetcher's guard keeps politeness whatever the
 * scheduler releases. O(1) per release and report. Memory: one {@code int} per residue. Not thread-safe.
 */
final class ResidueFlights {
    /** Time from a request's grant at the fetcher to its result reaching the scheduler that the cap leaves room for. */
    static final long ROUND_TRIP_ALLOWANCE_MS = 2_000;
    /** At least this many residues share a partition's lookahead: no residue's cap is above lookahead / this. */
    static final int MIN_RESIDUES_PER_LOOKAHEAD = 8;

    private final int[] unreported;
    private final int cap;

    ResidueFlights(int residues, int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be >= 1, was " + cap);
        }
        this.unreported = new int[residues];
        this.cap = cap;
    }

    /**
     * The cap for this pacing and lookahead: the waiting share plus ⌈(lead + round trip) / (two steps)⌉ in flight,
     * but at most {@code lookahead / 8} (and at least the waiting share + 1), so that one IP whose server is slower
     * than T cannot take the partition's whole lookahead either. At T = 100 ms that is 16 with the default lookahead
     * of 128 (25 by time alone); at T = 20 ms, 16 (115 by time alone).
     */
    static int capFor(Pacing pacing, int waitingShare, int lookahead) {
        long perIpInterval = 2 * pacing.stepMs(); // a residue is in every other step at most
        long inFlight = (pacing.leadMs() + ROUND_TRIP_ALLOWANCE_MS + perIpInterval - 1) / perIpInterval;
        long byLookahead = Math.max(waitingShare + 1L, lookahead / MIN_RESIDUES_PER_LOOKAHEAD);
        return (int) Math.min(Math.min(Integer.MAX_VALUE / 2, waitingShare + inFlight), byLookahead);
    }

    int cap() {
        return cap;
    }

    /** A URL of this residue was released. */
    void released(int residue) {
        unreported[residue]++;
    }

    /** A fetch counted by the pacer was reported for this residue; false if nothing was counted for it. */
    boolean reported(int residue) {
        if (unreported[residue] == 0) {
            return false;
        }
        unreported[residue]--;
        return true;
    }

    /** Whether this residue, with {@code waiting} URLs in the wheel, may take one more. */
    boolean accepts(int residue, int waiting) {
        return unreported[residue] + waiting < cap;
    }

    /** Released and unreported URLs of this residue. */
    int unreported(int residue) {
        return unreported[residue];
    }

    /** The pacer gave up a step: which residues its unreported fetches belonged to is unknown, so none is held. */
    void clear() {
        Arrays.fill(unreported, 0);
    }

    /** Heap bytes for this many residues, as {@link FrontierBound} counts them. */
    static long memoryBytes(int residues) {
        return 16 + 4L * residues + 16;
    }
}
