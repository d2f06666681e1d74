package io.github.kcrawler.fetcher;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether the fetcher may send a request now ({@link #open}): false while this instance cannot be sure it still owns
 * its partitions, since a fetch whose offset cannot be committed would be done again by the partition's next owner
 * (and sent to an IP that owner may already be pacing). The consumer thread reports what it sees; any thread reads
 * {@link #open} before each fetch. Closed:
 * <ul>
 *   <li>after the consumer loop did not run for more than half the session timeout (SIGSTOP, a long GC, starved):
 *   the group may have moved the partitions;</li>
 *   <li>while a transaction round has run longer than {@link #STALLED_COMMIT_NANOS} (the broker or the coordinator
 *   is away and the producer retries);</li>
 *   <li>while the consumer thread has not moved for longer than {@link #STALLED_LOOP_NANOS} (blocked in a rebalance
 *   callback or a group join inside {@code poll}, or starved): nothing it would commit can be committed meanwhile.
 *   It opens by itself once the thread moves again, unless the stall grew into one of the cases above;</li>
 *   <li>from a closed Kafka connection ({@link ClientLinks}: a SIGKILLed broker's sockets close at once) until a
 *   transaction round trip begun after it succeeds;</li>
 *   <li>after an aborted transaction, until one commits or a rebalance says what this member owns — and if a
 *   rebalance completes while transactions fail, for up to {@link #ASSIGNED_HOLD_NANOS} more, unless one commits
 *   first.</li>
 * </ul>
 * It opens again when the consumer thread confirms ownership ({@link #confirmed}) or a rebalance completes
 * ({@link #assigned}). Invariant: {@code confirming} is set before the loop's timestamp moves, so no fetch slips
 * through between a detected pause and the flag.
 */
final class OwnershipGate {
    private static final Logger LOG = LoggerFactory.getLogger(OwnershipGate.class);
    /** How long a transaction round may run before fetches wait for it: many times a normal commit round trip. */
    static final long STALLED_COMMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * How long the consumer thread may go without a step ({@link #loopTurn}, {@link #polled}, a transaction round
     * beginning or ending) before fetches wait for it: five times the longest {@code poll} of a healthy loop (100 ms).
     * Without this bound, fetches went on for up to half the session timeout while the thread was held elsewhere —
     * a rebalance callback waiting for committed offsets, a group join — and nothing they fetched could be committed
     * until it came back: a broker or a partition lost in that window had all of it fetched again. (CI, 2026-12-02,
     * had 11 pages fetched in the 0.75 s before a broker's SIGKILL fetched again after its restart; its logs are gone,
     * so whether the thread was held then is not known.)
     */
    static final long STALLED_LOOP_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * The bound of the hold after a rebalance that completed while transactions failed: longer than a two-round
     * cooperative rebalance takes here. The round says what this member owns, but the results held since the abort are
     * not saved yet, and another round may follow and abort the next transaction too: pages fetched in between would
     * be fetched again by the partition's next owner (bench faults, 2026-11-27: 14 duplicates, 7 pages of each of two
     * IPs fetched in the 1.3 s between the broker's return and a SIGSTOP, none of them committed). Holding fetches
     * until a commit with no bound stalled the crawl when no forced commit could succeed after the broker's restart
     * (branch {@code gate-after-abort}).
     */
    static final long ASSIGNED_HOLD_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long LINK_LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final FetchMetrics metrics;
    private final LongSupplier nanos;
    private final long pauseNanos;
    private final ClientLinks links = new ClientLinks();
    /** Consumer-loop progress, for detecting that this process was paused. */
    private volatile long lastLoopNanos;
    /** The consumer thread's last step of any kind (a turn, a poll's return, a round's start or end). */
    private volatile long lastStepNanos;
    private volatile boolean confirming;
    /** When the transaction round now running began ({@code 0}: none runs). */
    private volatile long commitStartedNanos;
    /** The closed-connection count read before the last transaction round trip that succeeded. */
    private volatile long linksConfirmed;
    /** Whether the last transaction failed (consumer thread only). */
    private boolean commitFailing;
    /** Until when fetches stay held after a rebalance while transactions fail ({@code 0}: no such hold). */
    private long assignedHoldUntilNanos;
    /** When the closed-connection gate was last logged: a broker that is away fails a reconnect every second. */
    private long lastLinkLogNanos;

    /** @param sessionTimeoutMs the consumer's session timeout: a pause of half of it may have cost the partitions */
    OwnershipGate(FetchMetrics metrics, long sessionTimeoutMs) {
        this(metrics, sessionTimeoutMs, System::nanoTime);
    }

    /** @param nanos the monotonic clock ({@link System#nanoTime} but in tests) */
    OwnershipGate(FetchMetrics metrics, long sessionTimeoutMs, LongSupplier nanos) {
        this.metrics = metrics;
        this.nanos = nanos;
        this.pauseNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, sessionTimeoutMs / 2));
        long now = nanos.getAsLong();
        this.lastLoopNanos = now;
        this.lastStepNanos = now;
        this.lastLinkLogNanos = now - LINK_LOG_EVERY_NANOS - 1;
    }

    /** Counts the closed connections of a Kafka client (its {@code metrics()}, group e.g. "producer-metrics"). */
    void watch(Map<MetricName, ? extends Metric> clientMetrics, String group) {
        links.watch(clientMetrics, group);
    }

    /** The connections closed so far count as confirmed (the clients have just been created). */
    void linksSeen() {
        linksConfirmed = links.closed();
    }

    /** Any thread, before each fetch: whether it may be sent now ({@code running}: the fetcher is not stopping). */
    boolean open(boolean running) {
        long now = nanos.getAsLong();
        long commitStarted = commitStartedNanos;
        return running && !confirming && now - lastLoopNanos <= pauseNanos
                && (commitStarted == 0 ? now - lastStepNanos <= STALLED_LOOP_NANOS
                        : now - commitStarted <= STALLED_COMMIT_NANOS)
                && links.closed() == linksConfirmed;
    }

    /** Whether the consumer thread must confirm ownership (a commit round trip) before it goes on. */
    boolean confirming() {
        return confirming;
    }

    /** The consumer loop's turn begins: a long gap since the last one, or a closed connection, closes the gate. */
    void loopTurn() {
        long now = nanos.getAsLong();
        if (now - lastLoopNanos > pauseNanos) {
            confirming = true; // before the timestamp moves, so no fetch slips through in between
            LOG.warn("the fetcher consumer did not run for {} ms (paused or starved); fetches wait until the group "
                    + "confirms this instance still owns its partitions",
                    TimeUnit.NANOSECONDS.toMillis(now - lastLoopNanos));
        }
        lastLoopNanos = now;
        lastStepNanos = now;
        if (!confirming && links.closed() != linksConfirmed) {
            confirming = true;
            metrics.linkClosures.increment();
            if (now - lastLinkLogNanos > LINK_LOG_EVERY_NANOS) { // once per outage, not per reconnect
                lastLinkLogNanos = now;
                LOG.info("a Kafka connection of the fetcher closed; fetches wait until a transaction round trip "
                        + "confirms the broker is there");
            }
        }
    }

    /** {@code poll} returned: paused inside it (the usual place), its return proves nothing about membership. */
    void polled() {
        long after = nanos.getAsLong();
        if (after - lastLoopNanos > pauseNanos) {
            confirming = true;
            LOG.warn("the fetcher consumer was paused for {} ms; fetches wait until the group confirms this instance "
                    + "still owns its partitions", TimeUnit.NANOSECONDS.toMillis(after - lastLoopNanos));
        }
        lastLoopNanos = after;
        lastStepNanos = after;
    }

    /** Connections closed so far: read before a round trip, what it confirms if it succeeds. */
    long closedLinks() {
        return links.closed();
    }

    /** A transaction round begins (a round that runs too long closes the gate). */
    void roundStarted() {
        long now = nanos.getAsLong();
        lastStepNanos = now;
        commitStartedNanos = now == 0 ? 1 : now;
    }

    void roundEnded() {
        lastStepNanos = nanos.getAsLong(); // before the round is over: open() reads them in the other order
        commitStartedNanos = 0;
    }

    /** A transaction aborted, or could not begin (this consumer is out of its group): fetches wait. */
    void commitFailed() {
        metrics.commitFailures.increment();
        if (!commitFailing) {
            LOG.warn("fetcher transaction aborted (or not begun: this consumer is out of its group); its results go "
                    + "into the next one, and new fetches wait until a transaction commits or the group has "
                    + "rebalanced, so that no page is fetched whose progress cannot be saved");
        }
        commitFailing = true;
        confirming = true;
    }

    /** A transaction committed in the ordinary course. */
    void committed() {
        if (commitFailing) {
            LOG.info("fetcher transactions commit again");
            commitFailing = false;
        }
    }

    /**
     * A round trip begun when {@code closedBefore} connections had closed has confirmed ownership (committed, or had
     * nothing to commit): the gate opens.
     */
    void confirmed(long closedBefore) {
        linksConfirmed = closedBefore;
        confirming = false;
        commitFailing = false;
        assignedHoldUntilNanos = 0;
    }

    /** A rebalance completed and said what this member owns. */
    void assigned() {
        if (commitFailing) {
            // known again, but nothing since the abort is saved: hold (bounded)
            assignedHoldUntilNanos = nanos.getAsLong() + ASSIGNED_HOLD_NANOS;
            confirming = true;
        } else {
            confirming = false;
        }
    }

    /** Ends a hold begun by {@link #assigned} once its bound has passed without a commit. */
    void releaseExpiredHold() {
        if (confirming && assignedHoldUntilNanos != 0 && nanos.getAsLong() - assignedHoldUntilNanos >= 0) {
            assignedHoldUntilNanos = 0;
            confirming = false;
            commitFailing = false;
            metrics.assignedHoldsExpired.increment();
            LOG.info("no fetcher transaction committed within {} ms of the last rebalance; fetches go on",
                    TimeUnit.NANOSECONDS.toMillis(ASSIGNED_HOLD_NANOS));
        }
    }
}
