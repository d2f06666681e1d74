package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.memory.ChunkedLongArray;
import io.github.kcrawler.scheduler.wheel.Pacing;
import io.github.kcrawler.scheduler.wheel.PolitenessWheel;
import io.github.kcrawler.scheduler.wheel.StepPacer;


import java.util.Objects;
import java.util.function.Consumer;

/**
 * The frontier of paper 004 (DESIGN §4.5): a {@link PolitenessWheel} whose steps are taken when a {@link StepPacer}
 * allows, each step's batch released with the step's {@code notBefore}. An IP appears at most once per step and
 * never in two consecutive steps (the wheel's parity rule), and consecutive steps' {@code notBefore} are at least a
 * step apart, so one IP's requests are at least T apart in {@code notBefore} (the fetcher honours it, and its per-IP
 * guard enforces T, and Crawl-delay per host, at the server whatever happens here).
 *
 * <h2>Pacing ({@link Pacing}, setting {@code pacing})</h2>
 * <ul>
 *   <li>{@code pipelined} (ours, the default): steps of {@code ⌈T/2⌉} on a fixed time grid, released up to
 *   {@code pacing-lead-ms} before their {@code notBefore} so the requests wait at the fetcher rather than the fetcher
 *   for them (the scheduler's exactly-once commit and the fetcher's poll lie between), and taken while the step
 *   {@code steps-in-flight} back has had all its fetches reported (or {@code step-timeout-ms} has passed since its
 *   {@code notBefore}). A residue still appears at most every other step, so a busy IP gets one request per T;
 *   results that come back late cost nothing as long as they come back within the steps in flight. With a
 *   lookahead, one residue's released and unreported URLs are capped ({@link ResidueFlights}), so an IP whose
 *   server is slower than T (the fetcher's guard counts T from the end of the previous request) waits on its own
 *   results and does not hold the steps, and the partition's other IPs, back.</li>
 *   <li>{@code paper}: Algorithm 1 as published: a step every T at the earliest, after every fetch of the previous
 *   step was reported (or the step timeout). One IP then gets one request per {@code 2·max(T, round trip)}: issue
 *   19 measured a politeness efficiency of 0.42 in the demo.</li>
 * </ul>
 * Fetch results are matched to their step by the step number the request carried ({@link #fetched(String, long,
 * long)}); a result for a step that is no longer in flight changes nothing.
 *
 * <h2>Order (setting {@code order}, {@link WheelOrder})</h2>
 * <ul>
 *   <li>{@link WheelOrder#FIFO}: the paper's scheduler as it is. An admitted URL goes straight into the wheel; if its
 *   residue is full it is refused ({@link Admission#IP_FULL}) and the caller sends {@code crawl.urls.forget}, so the
 *   URL-seen test admits it again when a later page links to it.</li>
 *   <li>{@link WheelOrder#PRIORITY}: admitted URLs wait in a bounded {@link PriorityFront} fed by score updates
 *   ({@code crawl.rank.scores}); before each step the best of them enter the wheel, best first. A URL whose residue
 *   is full stays in the pool. With a {@link Spill} (as the scheduler runs it) a full pool loses nothing: its worst
 *   waiting URL moves to the spill when a better one arrives, a newcomer that is not better is answered
 *   {@link Admission#DEFERRED} (the caller stores it in the spill), and before each step the spill's best URLs come
 *   back into the pool's free slots. Without a spill a full pool evicts its worst URL, reported to the eviction sink
 *   for a forget (the paper's drop-and-rediscover).</li>
 * </ul>
 *
 * <p>URLs restored after a restart are never dropped: in FIFO order those the wheel cannot take at once wait in an
 * overflow queue that is offered to the wheel before anything new; in PRIORITY order they return to the pool, and
 * those beyond its capacity (it was shrunk by configuration) go to the spill (without one, to the overflow queue).
 *
 * <h2>Memory</h2>
 * The bound of the whole frontier — URLs and bytes, the paper's wheel and our pool, IP table and score cache — is
 * stated in one place, {@link FrontierBound} ({@link #bound()}), and {@link #memoryBytes()} counts the same arrays
 * live. In short: only an index is kept here, the URL text stays in the caller's store. In PRIORITY order the pool
 * indexes every pending URL, waiting or placed in the wheel (a placed URL is <em>held</em> in the pool), so
 * {@code poolCapacity} ({@code max-pending}, by default B·H/2) bounds the whole frontier, plus the one fingerprint
 * the pool reserves ({@link PriorityFront#NONE}) in a {@link PendingSlots} side slot; the pool is allocated up
 * front (≈ 36–44 bytes per slot) plus {@code long seq} and an {@link IpTable} id per used slot (12 bytes, grown with
 * the peak size in 16–32 KiB chunks, {@link ChunkedLongArray}); that index and what happens at its bound (eviction,
 * the {@link Spill}, taking back) are {@link BoundedFront}'s. URLs beyond it wait in the spill, with no per-URL data
 * here. FIFO URLs and restored overflow live in {@link PendingSlots} (≈ 50 bytes each, bounded by the
 * wheel's B·H/2 in FIFO order). The wheel's handles are slot numbers, with {@link #SIDE} marking a
 * {@code PendingSlots} slot. Not thread-safe: one per stream task.
 */
public final class WheelFrontier implements Frontier {
    /** Marks a wheel handle that is a {@link PendingSlots} slot rather than a pool slot. */
    private static final long SIDE = 1L << 32;

    private final CrawlClock clock;
    private final WheelOrder order;
    private final PolitenessWheel wheel;
    /** PRIORITY: the pool and its bound ({@link BoundedFront}), else null; {@link #pool} is its order. */
    private final BoundedFront front;
    private final PriorityFront pool;
    private final StepPacer pacer;
    private final IpTable ips = new IpTable();
    private final PendingSlots side = new PendingSlots(ips);
    /** Side slots restored after a restart that the wheel (FIFO) or the pool (PRIORITY) could not take yet, in order. */
    private final OverflowQueue overflow = new OverflowQueue();
    /** Scores of URLs not pending yet, oldest first; at most {@code scoreCache} (fastutil: no boxing per entry). */
    private final ScoreCache earlyScores = new ScoreCache();
    private final int scoreCache;
    private final long[] batch;
    private final int[] blocked;
    private final Spill.Sink takeBackSink = this::takeBackOne;
    private final FrontierBound bound;
    private double deferredScore;
    private int inWheel;
    /** Most URLs in the wheel plus released and unreported before the pool stops handing out (MAX_VALUE: none). */
    private final int lookahead;
    /**
     * With a lookahead: the most URLs one residue (an IP, or the IPs sharing its residue) may have waiting in the
     * wheel. A residue's URLs go out one every other step, so two keep it served at every step it may be (the pool
     * refills before each step), while a busy host whose URLs top the pool cannot fill the lookahead with a queue that
     * drains at its polite rate and leave the partition's other IPs unserved: the window stays spread over many IPs,
     * and the rest of that host's URLs wait in the pool, ordered by their newest scores.
     */
    static final int LOOKAHEAD_PER_RESIDUE = 2;
    /** With a lookahead: the pool's URLs set aside because their residue had its share waiting; null without. */
    private final ParkedUrls parked;
    /** With a lookahead: each residue's URLs released and not yet reported, and its cap; null without. */
    private final ResidueFlights flights;
    /** The pacer's given-up steps when {@link #flights} last looked (a new one clears the counts). */
    private long timeoutsSeen;

    /**
     * A frontier paced as paper 004 publishes it ({@link Pacing#paper}).
     *
     * @param politenessMs  T, the minimum time between two steps
     * @param stepTimeoutMs longest wait for the previous step's fetches to be reported
     */
    public WheelFrontier(CrawlClock clock, WheelOrder order, long politenessMs, long stepTimeoutMs, int queues,
                         int residues, int poolCapacity, int scoreCache, Consumer<PendingUrl> evicted) {
        this(clock, order, Pacing.paper(politenessMs, stepTimeoutMs), queues, residues, poolCapacity, scoreCache,
                evicted);
    }

    /**
     * @param pacing        when steps are taken ({@link Pacing#paper} or {@link Pacing#pipelined})
     * @param queues        B, the wheel's queues
     * @param residues      H, the wheel's residues (even)
     * @param poolCapacity  PRIORITY: most URLs pending, waiting or placed in the wheel (ignored for FIFO)
     * @param scoreCache    scores remembered for URLs not yet admitted
     * @param evicted       told about each URL the pool evicts (the caller forgets it)
     */
    public WheelFrontier(CrawlClock clock, WheelOrder order, Pacing pacing, int queues, int residues, int poolCapacity,
                         int scoreCache, Consumer<PendingUrl> evicted) {
        this(clock, order, pacing, queues, residues, poolCapacity, scoreCache, evicted, null);
    }

    /**
     * @param spill PRIORITY: where the URLs beyond {@code poolCapacity} go (the pool's worst waiting URL when a better
     *              one arrives, a newcomer that is not better as {@link Admission#DEFERRED}, restored URLs beyond the
     *              bound), to be taken back as slots free; null for the paper's behaviour (evict and forget).
     *              Ignored in FIFO order, which drops as the paper does.
     */
    public WheelFrontier(CrawlClock clock, WheelOrder order, Pacing pacing, int queues, int residues, int poolCapacity,
                         int scoreCache, Consumer<PendingUrl> evicted, Spill spill) {
        this(clock, order, pacing, queues, residues, poolCapacity, scoreCache, evicted, spill, 0);
    }

    /**
     * @param lookahead PRIORITY (ours, not paper 004's): the most URLs placed in the wheel or released and not yet
     *                  reported, and at most {@link #LOOKAHEAD_PER_RESIDUE} waiting per residue; the pool hands the
     *                  wheel no more. 0 = no bound but the wheel's B·H/2. A URL placed in the wheel keeps its step
     *                  whatever scores arrive later, and a released one is on its way, so without this bound the pool
     *                  empties into the wheel as fast as URLs are admitted and the crawl follows admission order
     *                  (bench order: like breadth-first); with it, the pool's best-first order — with the newest
     *                  scores — decides all but the next {@code lookahead} fetches. Counting released URLs caps a
     *                  partition at {@code lookahead / latency} pages/s; counting only the waiting ones let a fast
     *                  pipeline release far ahead of its fetches, and its order fell back to breadth-first on a quiet
     *                  machine (bench order, BENCHMARKS.md, fourteenth session). The per-residue share keeps a busy
     *                  host whose URLs top the pool from filling the window while it drains at its polite rate,
     *                  and the per-residue cap on released URLs ({@link ResidueFlights}) keeps one IP whose server
     *                  is slower than T from holding back the partition's other IPs.
     */
    public WheelFrontier(CrawlClock clock, WheelOrder order, Pacing pacing, int queues, int residues, int poolCapacity,
                         int scoreCache, Consumer<PendingUrl> evicted, Spill spill, int lookahead) {
        if (lookahead < 0) {
            throw new IllegalArgumentException("lookahead must be >= 0, was " + lookahead);
        }
        this.lookahead = lookahead == 0 ? Integer.MAX_VALUE : lookahead;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.order = Objects.requireNonNull(order, "order");
        this.wheel = new PolitenessWheel(queues, residues);
        Objects.requireNonNull(evicted, "evicted");
        this.front = order == WheelOrder.PRIORITY ? new BoundedFront(poolCapacity, ips, spill, evicted) : null;
        this.pool = front == null ? null : front.pool;
        this.pacer = new StepPacer(Objects.requireNonNull(pacing, "pacing"), clock.millis());
        this.batch = new long[wheel.maxBatch()];
        this.blocked = new int[wheel.maxBatch()];
        this.parked = pool != null && this.lookahead != Integer.MAX_VALUE ? new ParkedUrls(pool, residues) : null;
        this.flights = parked == null ? null
                : new ResidueFlights(residues, ResidueFlights.capFor(pacing, LOOKAHEAD_PER_RESIDUE, this.lookahead));
        if (scoreCache < 0) {
            throw new IllegalArgumentException("score cache size must be >= 0, was " + scoreCache);
        }
        this.scoreCache = scoreCache;
        this.bound = FrontierBound.of(order, queues, residues, poolCapacity, scoreCache);
    }

    /** The wheel's key for an IP: the address as a number for IPv4 (neighbours get distinct residues), else a hash. */
    public static long ipKey(String ip) {
        long v = 0;
        int parts = 0;
        int octet = -1;
        for (int i = 0; i < ip.length(); i++) {
            char c = ip.charAt(i);
            if (c >= '0' && c <= '9') {
                octet = (octet < 0 ? 0 : octet * 10) + (c - '0');
                if (octet > 255) {
                    return Fingerprints.url(ip);
                }
            } else if (c == '.' && octet >= 0 && parts < 3) {
                v = (v << 8) | octet;
                parts++;
                octet = -1;
            } else {
                return Fingerprints.url(ip);
            }
        }
        return parts == 3 && octet >= 0 ? (v << 8) | octet : Fingerprints.url(ip);
    }

    @Override
    public Admission admit(String ip, long fingerprint, long seq, double initialScore) {
        if (!(Double.isFinite(initialScore) && initialScore >= 0.0)) {
            throw new IllegalArgumentException("initial score must be finite and >= 0, was " + initialScore);
        }
        if (isPending(fingerprint)) {
            return Admission.DUPLICATE;
        }
        double score = Math.max(earlyScore(fingerprint), initialScore);
        if (order == WheelOrder.FIFO) {
            return overflow.isEmpty() && enterWheelSide(ip, fingerprint, seq, score)
                    ? Admission.QUEUED : Admission.IP_FULL;
        }
        if (fingerprint == PriorityFront.NONE) { // the pool's reserved key: straight to the wheel, as a revisit
            return enterWheelSide(ip, fingerprint, seq, score) ? Admission.QUEUED : Admission.IP_FULL;
        }
        if (pool.size() == pool.capacity()) {
            int victim = pool.victimFor(score);
            if (victim < 0) {
                if (!front.hasSpill()) {
                    return Admission.FRONTIER_FULL;
                }
                deferredScore = score + 0.0; // the caller stores it in the spill under Spill.key(score, seq)
                return Admission.DEFERRED;
            }
            front.evict(victim);
        }
        front.add(ip, fingerprint, seq, score, false);
        // the bound holds with a spill; without one, URLs restored beyond a lowered max-pending wait in side slots
        assert !front.hasSpill() || size() <= bound.urls() : size() + " URLs over the bound " + bound.urls();
        return Admission.QUEUED;
    }

    /** The score of the URL the last {@link #admit} answered {@link Admission#DEFERRED} for (its spill key's). */
    public double deferredScore() {
        return deferredScore;
    }

    /**
     * Puts a URL straight into the wheel, bypassing the priority order: how revisits enter, so that pages due again
     * are not starved by a pool full of well-scored new URLs (in PRIORITY order the pool's worst waiting URL is
     * evicted to make room). Refused ({@link Admission#IP_FULL}) when the residue is full or every pending URL is
     * already placed in the wheel; the caller tries again later.
     */
    public Admission admitToWheel(String ip, long fingerprint, long seq) {
        if (isPending(fingerprint)) {
            return Admission.DUPLICATE;
        }
        double score = earlyScore(fingerprint);
        if (pool == null || fingerprint == PriorityFront.NONE) {
            return enterWheelSide(ip, fingerprint, seq, score) ? Admission.QUEUED : Admission.IP_FULL;
        }
        if (!wheelAccepts(ipKey(ip))) {
            return Admission.IP_FULL;
        }
        if (pool.size() == pool.capacity()) {
            int worst = pool.worstSlot();
            if (worst < 0) {
                return Admission.IP_FULL;
            }
            front.evict(worst);
        }
        int slot = front.add(ip, fingerprint, seq, score, true);
        wheel.enqueue(front.wheelKey(slot), slot);
        inWheel++;
        return Admission.QUEUED;
    }

    private double earlyScore(long fingerprint) {
        return earlyScores.remove(fingerprint); // 0.0, the map's default, when none arrived
    }

    private boolean isPending(long fingerprint) {
        return poolSlot(fingerprint) >= 0 || side.slotOf(fingerprint) >= 0;
    }

    private int poolSlot(long fingerprint) {
        return pool == null ? -1 : pool.slotOf(fingerprint);
    }

    @Override
    public boolean restore(PendingUrl url) {
        long fp = url.fingerprint();
        if (isPending(fp)) {
            return false;
        }
        if (pool != null && fp != PriorityFront.NONE) {
            if (pool.size() < pool.capacity()) {
                front.add(url.ip(), fp, url.seq(), url.score(), false);
                return true;
            }
            if (front.hasSpill()) {
                front.defer(url); // beyond the bound (it was lowered by configuration): kept durably, taken back later
                return true;
            }
        }
        int slot = side.add(url.ip(), fp, url.seq(), url.score());
        if (overflow.isEmpty() && wheel.enqueue(side.wheelKey(slot), SIDE | slot)) {
            inWheel++;
        } else {
            overflow.enqueue(slot); // the wheel (FIFO) or the pool (PRIORITY, shrunk by configuration) is full
        }
        return true;
    }

    /** Stores a URL in a side slot and schedules it in the wheel; if its residue is full, stores nothing. */
    private boolean enterWheelSide(String ip, long fingerprint, long seq, double score) {
        if (!wheelAccepts(ipKey(ip))) {
            return false;
        }
        int slot = side.add(ip, fingerprint, seq, score);
        wheel.enqueue(side.wheelKey(slot), SIDE | slot);
        inWheel++;
        return true;
    }

    /** Whether the wheel has room for this IP now; a refusal is counted as the wheel's drop, as enqueue counts it. */
    private boolean wheelAccepts(long ipKey) {
        if (wheel.accepts(ipKey)) {
            return true;
        }
        wheel.enqueue(ipKey, -1L); // refused for certain (the same test): counts the drop, stores nothing
        return false;
    }

    @Override
    public PendingUrl updateScore(long fingerprint, double score) {
        int slot = poolSlot(fingerprint);
        if (slot >= 0) {
            PendingUrl moved = front.view(slot).withScore(score); // validates the score
            pool.rescore(fingerprint, moved.score()); // a held URL keeps its step: the score no longer moves it
            return moved;
        }
        slot = side.slotOf(fingerprint);
        if (slot >= 0) {
            PendingUrl moved = side.view(slot).withScore(score);
            side.score(slot, moved.score());
            return moved;
        }
        if (scoreCache > 0) {
            earlyScores.put(fingerprint, score); // a known key keeps its place, as in insertion order
            if (earlyScores.size() > scoreCache) {
                earlyScores.removeFirstDouble();
            }
        }
        return null;
    }

    /** A fetch was reported without its step number: credited to the oldest step still waiting for fetches. */
    @Override
    public void fetched(String ip, long fetchedAt) {
        if (pacer.reportedOldest()) {
            settled(ip);
        }
    }

    /** A fetch of step {@code step} was reported (a number not among the steps in flight changes nothing). */
    @Override
    public void fetched(String ip, long fetchedAt, long step) {
        if (pacer.reported(step)) {
            settled(ip);
        }
    }

    /**
     * A fetch the pacer counted was reported. If its residue was held at its cap, one of its parked URLs goes back
     * to the pool (a residue held by its waiting share gets them back as its waiting URLs are released).
     */
    private void settled(String ip) {
        if (flights != null) {
            long key = ipKey(ip);
            int residue = wheel.residueOf(key);
            boolean wasCapped = !flights.accepts(residue, wheel.waiting(key));
            if (flights.reported(residue) && wasCapped) {
                unparkOne(key);
            }
        }
    }

    /**
     * Takes every step the {@link StepPacer} allows now (in paper mode at most one; pipelined, those within the lead
     * and the steps in flight) and hands out their batches with each step's {@code notBefore}. During the sink's
     * call {@link #step()} is the step of the URL being released.
     */
    @Override
    public int releaseReady(ReleaseSink sink) {
        long now = clock.millis();
        int released = 0;
        // The pacer bounds the loop (lead / step + 1 steps, and k in flight); the cap of k steps per call is a second
        // bound that does not depend on the pacer's arithmetic.
        for (int steps = 0; steps < pacer.pacing().stepsInFlight() && pacer.mayStep(now, wheel.step() + 1); steps++) {
            refill();
            int n = wheel.next(batch);
            long notBefore = pacer.stepped(now, wheel.step(), n);
            forgetGivenUpFlights();
            inWheel -= n;
            for (int i = 0; i < n; i++) {
                int slot = (int) batch[i]; // the low 32 bits; SIDE says which index
                boolean isSide = (batch[i] & SIDE) != 0;
                long key = isSide ? side.wheelKey(slot) : front.wheelKey(slot);
                unparkOne(key);
                if (flights != null) {
                    flights.released(wheel.residueOf(key));
                }
                PendingUrl url;
                if (isSide) {
                    url = side.view(slot);
                    side.remove(slot);
                } else {
                    url = front.view(slot);
                    front.remove(slot);
                }
                sink.released(url, notBefore);
            }
            released += n;
        }
        return released;
    }

    /** The pacer gave up a step since the last look: its fetches' residues are unknown, so every count is cleared. */
    private void forgetGivenUpFlights() {
        if (flights != null && pacer.stepsAfterTimeout() != timeoutsSeen) {
            timeoutsSeen = pacer.stepsAfterTimeout();
            flights.clear();
            parked.unparkAll();
        }
    }

    /** Before a step: restored overflow first, then the pool's best (PRIORITY), while the wheel takes them. */
    private void refill() {
        int attempts = wheel.maxBatch();
        while (!overflow.isEmpty() && attempts-- > 0) {
            int slot = overflow.firstInt();
            if (!wheel.enqueue(side.wheelKey(slot), SIDE | slot)) {
                break; // keep the restored order; retry at the next step
            }
            overflow.dequeueInt();
            inWheel++;
        }
        if (pool == null) {
            return;
        }
        takeBack();
        // Bounded work per step: at most H/2 attempts, the most one step can hand out. A URL whose residue is full
        // goes back to the pool (end of its bucket) and is tried again at a later step.
        int nBlocked = 0;
        while (attempts-- > 0 && inWheel + pacer.outstanding() < lookahead) {
            int slot = pool.holdBest();
            if (slot < 0) {
                break;
            }
            long key = front.wheelKey(slot);
            if (parked != null && (!wheel.acceptsWithin(key, LOOKAHEAD_PER_RESIDUE)
                    || !flights.accepts(wheel.residueOf(key), wheel.waiting(key)))) {
                parked.park(wheel.residueOf(key), slot);
            } else if (wheel.enqueue(key, slot)) {
                inWheel++;
            } else {
                blocked[nBlocked++] = slot;
            }
        }
        for (int i = 0; i < nBlocked; i++) {
            pool.requeue(blocked[i]);
        }
    }

    /** A URL of this key's residue was handed out: the residue's oldest parked URL goes back into the pool. */
    private void unparkOne(long wheelKey) {
        if (parked != null) {
            parked.unparkOne(wheel.residueOf(wheelKey));
        }
    }

    /** URLs set aside in the pool because their residue had its share of the lookahead waiting (0 without one). */
    public int parked() {
        return parked == null ? 0 : parked.size();
    }

    /**
     * Takes deferred URLs back from the spill into the pool's free slots, best first, at most H/2 per step
     * ({@link BoundedFront#takeBack}). A URL that is pending already (a copy) is refused and the spill discards it. A
     * score that arrived while the URL was deferred (remembered in the score cache) replaces the one it was deferred
     * with.
     */
    private void takeBack() {
        front.takeBack(wheel.maxBatch(), takeBackSink);
    }

    private boolean takeBackOne(PendingUrl url) {
        long fp = url.fingerprint();
        if (isPending(fp)) {
            return false;
        }
        assert pool.size() < pool.capacity() : "takeBack handed more URLs than the pool has room for";
        double score = earlyScores.containsKey(fp) ? earlyScores.remove(fp) : url.score();
        front.add(url.ip(), fp, url.seq(), score, false);
        front.tookBack();
        return true;
    }

    /** URLs deferred to the spill and not taken back yet (0 without a spill). */
    public long deferred() {
        return front == null ? 0 : front.deferred();
    }

    /** URLs taken back from the spill so far. */
    public long takenBack() {
        return front == null ? 0 : front.takenBack();
    }

    /** This frontier's stated memory bound (URLs and bytes), from its parameters. */
    public FrontierBound bound() {
        return bound;
    }

    /**
     * Heap bytes this frontier holds now, counted from the capacities of its arrays and tables as {@link FrontierBound}
     * counts them (payload plus 16 bytes per array object; the IPs' strings at {@code 40 + length} bytes; references
     * at 8 bytes). What {@link FrontierBound#bytes()} bounds.
     */
    public long memoryBytes() {
        long bytes = wheel.memoryBytes() + 16L * wheel.queues() + 12L * wheel.maxBatch() + 32;
        if (pool != null) {
            bytes += front.memoryBytes();
        }
        if (parked != null) {
            bytes += parked.memoryBytes() + ResidueFlights.memoryBytes(wheel.residues());
        }
        bytes += side.memoryBytes() + ips.memoryBytes() + earlyScores.memoryBytes() + overflow.memoryBytes();
        return bytes;
    }

    @Override
    public PendingUrl pending(long fingerprint) {
        int slot = poolSlot(fingerprint);
        if (slot >= 0) {
            return front.view(slot);
        }
        slot = side.slotOf(fingerprint);
        return slot < 0 ? null : side.view(slot);
    }

    @Override
    public int size() {
        return (pool == null ? 0 : pool.size()) + side.size();
    }

    @Override
    public int activeIps() {
        return ips.size();
    }

    /** URLs placed in the wheel's steps. */
    public int inWheel() {
        return inWheel;
    }

    /** The current step t. */
    public long step() {
        return wheel.step();
    }

    /** URLs the wheel refused because their residue was full (FIFO drops and PRIORITY retries). */
    public long wheelRefusals() {
        return wheel.dropped();
    }

    /** URLs of this IP's residue waiting in the wheel (for tests of the lookahead's per-residue bound). */
    int waitingInWheel(String ip) {
        return wheel.waiting(ipKey(ip));
    }

    /** URLs of this IP's residue released and not reported (0 without a lookahead; for tests of its cap). */
    int unreportedOf(String ip) {
        return flights == null ? 0 : flights.unreported(wheel.residueOf(ipKey(ip)));
    }

    /** The most URLs of one residue released and unreported with a lookahead (0 without one). */
    int flightCap() {
        return flights == null ? 0 : flights.cap();
    }

    /** URLs placed in the wheel (not yet released). */
    public int placed() {
        return inWheel;
    }

    /** Steps taken so far. */
    public long steps() {
        return pacer.steps();
    }

    /** Steps taken while the step they had to wait for still had fetches unreported (its timeout expired). */
    public long stepsAfterTimeout() {
        return pacer.stepsAfterTimeout();
    }

    /** Fetches of the steps in flight not reported yet. */
    public int outstanding() {
        return pacer.outstanding();
    }

    /** How steps are paced. */
    public Pacing pacing() {
        return pacer.pacing();
    }

    public WheelOrder order() {
        return order;
    }
}
