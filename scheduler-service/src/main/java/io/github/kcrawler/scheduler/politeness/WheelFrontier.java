package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.wheel.PolitenessWheel;
import io.github.kcrawler.scheduler.wheel.ScoreBucketPool;
import io.github.kcrawler.scheduler.wheel.StepTimer;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The frontier of paper 004 (DESIGN §4.5): a {@link PolitenessWheel} stepped by {@link #releaseReady} no sooner than
 * T after the previous step and, as Algorithm 1 asks, only once the previous step's fetches have been reported
 * ({@link #fetched}) or a step timeout has passed. Each step's batch is released with {@code notBefore} = the step
 * time; an IP appears at most once per step and never in two consecutive steps, so its requests are at least T apart
 * (the fetcher's per-IP guard enforces T at the server, and Crawl-delay per host, whatever happens here).
 *
 * <ul>
 *   <li>{@link Order#FIFO}: the paper's scheduler as it is. An admitted URL goes straight into the wheel; if its
 *   residue is full it is refused ({@link Admission#IP_FULL}) and the caller sends {@code crawl.urls.forget}, so the
 *   URL-seen test admits it again when a later page links to it.</li>
 *   <li>{@link Order#PRIORITY}: admitted URLs wait in a bounded {@link ScoreBucketPool} fed by score updates
 *   ({@code crawl.rank.scores}); before each step the best of them enter the wheel, best first. A URL whose residue
 *   is full stays in the pool. A full pool evicts its worst URL, reported to the eviction sink for a forget.</li>
 * </ul>
 *
 * <p>URLs restored after a restart are never dropped: in FIFO order those the wheel cannot take at once wait in an
 * overflow queue that is offered to the wheel before anything new; in PRIORITY order they return to the pool.
 * Not thread-safe: one per stream task.
 */
public final class WheelFrontier implements Frontier {
    /** How admitted URLs enter the wheel. */
    public enum Order {
        FIFO, PRIORITY;

        public static Order parse(String s) {
            if (s != null) {
                for (Order o : values()) {
                    if (o.name().equalsIgnoreCase(s.trim())) {
                        return o;
                    }
                }
            }
            throw new IllegalArgumentException("order must be fifo or priority, was '" + s + "'");
        }
    }

    private final CrawlClock clock;
    private final Order order;
    private final PolitenessWheel wheel;
    private final ScoreBucketPool pool;
    private final StepTimer timer;
    private final long stepTimeoutMs;
    private final Consumer<PendingUrl> evicted;
    private final Map<Long, PendingUrl> pendingByFingerprint = new HashMap<>();
    private final Map<Long, PendingUrl> wheelBySeq = new HashMap<>();
    private final Map<String, Integer> pendingPerIp = new HashMap<>();
    private final ArrayDeque<PendingUrl> overflow = new ArrayDeque<>();
    private final Map<Long, Double> earlyScores;
    private final long[] batch;
    private int outstanding;
    private long steps;
    private long stepsAfterTimeout;

    /**
     * @param politenessMs  T, the minimum time between two steps
     * @param stepTimeoutMs longest wait for the previous step's fetches to be reported
     * @param queues        B, the wheel's queues
     * @param residues      H, the wheel's residues (even)
     * @param poolCapacity  PRIORITY: URLs waiting outside the wheel (ignored for FIFO)
     * @param scoreCache    scores remembered for URLs not yet admitted
     * @param evicted       told about each URL the pool evicts (the caller forgets it)
     */
    public WheelFrontier(CrawlClock clock, Order order, long politenessMs, long stepTimeoutMs, int queues,
                         int residues, int poolCapacity, int scoreCache, Consumer<PendingUrl> evicted) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.order = Objects.requireNonNull(order, "order");
        if (stepTimeoutMs < politenessMs) {
            throw new IllegalArgumentException("step timeout must be >= T (" + politenessMs + " ms), was "
                    + stepTimeoutMs);
        }
        this.stepTimeoutMs = stepTimeoutMs;
        this.wheel = new PolitenessWheel(queues, residues);
        this.pool = order == Order.PRIORITY ? new ScoreBucketPool(poolCapacity) : null;
        this.timer = new StepTimer(politenessMs, clock.millis());
        this.evicted = Objects.requireNonNull(evicted, "evicted");
        this.batch = new long[wheel.maxBatch()];
        if (scoreCache < 0) {
            throw new IllegalArgumentException("score cache size must be >= 0, was " + scoreCache);
        }
        this.earlyScores = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Double> eldest) {
                return size() > scoreCache;
            }
        };
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
    public Admission admit(String ip, long fingerprint, long seq) {
        if (pendingByFingerprint.containsKey(fingerprint)) {
            return Admission.DUPLICATE;
        }
        Double early = earlyScores.remove(fingerprint);
        PendingUrl url = new PendingUrl(ip, fingerprint, seq, early == null ? 0.0 : early);
        if (order == Order.FIFO) {
            if (!overflow.isEmpty() || !enterWheel(url)) {
                return Admission.IP_FULL;
            }
        } else {
            long out = pool.offer(poolKey(fingerprint), url.score());
            if (out == poolKey(fingerprint)) {
                return Admission.FRONTIER_FULL;
            }
            track(url);
            if (out != ScoreBucketPool.NONE) {
                evict(out);
            }
        }
        return Admission.QUEUED;
    }

    /**
     * Puts a URL straight into the wheel, bypassing the priority pool: how revisits enter, so that pages due again
     * are not starved by a pool full of well-scored new URLs. Refused ({@link Admission#IP_FULL}) when the residue
     * is full; the caller tries again later.
     */
    public Admission admitToWheel(String ip, long fingerprint, long seq) {
        if (pendingByFingerprint.containsKey(fingerprint)) {
            return Admission.DUPLICATE;
        }
        Double early = earlyScores.remove(fingerprint);
        return enterWheel(new PendingUrl(ip, fingerprint, seq, early == null ? 0.0 : early))
                ? Admission.QUEUED : Admission.IP_FULL;
    }

    @Override
    public boolean restore(PendingUrl url) {
        if (pendingByFingerprint.containsKey(url.fingerprint())) {
            return false;
        }
        if (order == Order.FIFO) {
            if (!overflow.isEmpty() || !enterWheel(url)) {
                overflow.add(url);
                track(url);
            }
        } else {
            if (pool.size() < pool.capacity()) {
                pool.offer(poolKey(url.fingerprint()), url.score());
            } else {
                overflow.add(url); // more than the pool holds (it was shrunk by configuration): keep, never evict
            }
            track(url);
        }
        return true;
    }

    /** Schedules {@code url} in the wheel and tracks it; false (nothing changed) if its residue is full. */
    private boolean enterWheel(PendingUrl url) {
        if (!wheel.enqueue(ipKey(url.ip()), url.seq())) {
            return false;
        }
        wheelBySeq.put(url.seq(), url);
        if (!pendingByFingerprint.containsKey(url.fingerprint())) {
            track(url);
        }
        return true;
    }

    private void track(PendingUrl url) {
        pendingByFingerprint.put(url.fingerprint(), url);
        pendingPerIp.merge(url.ip(), 1, Integer::sum);
    }

    private void untrack(PendingUrl url) {
        pendingByFingerprint.remove(url.fingerprint());
        pendingPerIp.computeIfPresent(url.ip(), (ip, n) -> n == 1 ? null : n - 1);
    }

    private void evict(long poolKey) {
        PendingUrl url = pendingByFingerprint.get(fromPoolKey(poolKey));
        if (url != null) {
            untrack(url);
            evicted.accept(url);
        }
    }

    @Override
    public PendingUrl updateScore(long fingerprint, double score) {
        PendingUrl current = pendingByFingerprint.get(fingerprint);
        if (current == null) {
            earlyScores.put(fingerprint, score);
            return null;
        }
        PendingUrl moved = current.withScore(score);
        pendingByFingerprint.put(fingerprint, moved);
        if (wheelBySeq.containsKey(moved.seq())) {
            wheelBySeq.put(moved.seq(), moved); // already placed in a step: the score no longer moves it
        } else if (pool != null) {
            pool.rescore(poolKey(fingerprint), score);
        }
        return moved;
    }

    @Override
    public void fetched(String ip, long fetchedAt) {
        if (outstanding > 0) {
            outstanding--;
        }
    }

    @Override
    public int releaseReady(ReleaseSink sink) {
        long now = clock.millis();
        if (!timer.due(now) || (outstanding > 0 && now - timer.lastStepMs() < stepTimeoutMs)) {
            return 0;
        }
        refill();
        steps++;
        if (outstanding > 0) {
            stepsAfterTimeout++;
        }
        int n = wheel.next(batch);
        timer.stepped(now);
        outstanding = n;
        for (int i = 0; i < n; i++) {
            PendingUrl url = wheelBySeq.remove(batch[i]);
            untrack(url);
            sink.released(url, now);
        }
        return n;
    }

    /** Before a step: restored overflow first (FIFO), then the pool's best (PRIORITY), while the wheel takes them. */
    private void refill() {
        int attempts = wheel.maxBatch();
        while (!overflow.isEmpty() && attempts-- > 0) {
            PendingUrl url = overflow.peek();
            if (!wheel.enqueue(ipKey(url.ip()), url.seq())) {
                break; // keep the restored order; retry at the next step
            }
            overflow.poll();
            if (pool != null) {
                pool.remove(poolKey(url.fingerprint()));
            }
            wheelBySeq.put(url.seq(), pendingByFingerprint.get(url.fingerprint()));
        }
        if (pool == null) {
            return;
        }
        // Bounded work per step: at most H/2 attempts, the most one step can hand out. A URL whose residue is full
        // goes back to the pool (end of its bucket) and is tried again at a later step.
        long[] blocked = new long[Math.max(0, attempts)];
        int nBlocked = 0;
        while (attempts-- > 0 && !pool.isEmpty()) {
            long key = pool.pollBest();
            PendingUrl url = pendingByFingerprint.get(fromPoolKey(key));
            if (url == null) {
                continue;
            }
            if (wheel.enqueue(ipKey(url.ip()), url.seq())) {
                wheelBySeq.put(url.seq(), url);
            } else {
                blocked[nBlocked++] = key;
            }
        }
        for (int i = 0; i < nBlocked; i++) {
            PendingUrl url = pendingByFingerprint.get(fromPoolKey(blocked[i]));
            pool.offer(blocked[i], url.score());
        }
    }

    /** {@link ScoreBucketPool} reserves {@code Long.MIN_VALUE}; that one fingerprint is stored as MAX_VALUE. */
    private static long poolKey(long fingerprint) {
        return fingerprint == ScoreBucketPool.NONE ? Long.MAX_VALUE : fingerprint;
    }

    private long fromPoolKey(long key) {
        return key == Long.MAX_VALUE && !pendingByFingerprint.containsKey(Long.MAX_VALUE) ? ScoreBucketPool.NONE : key;
    }

    @Override
    public PendingUrl pending(long fingerprint) {
        return pendingByFingerprint.get(fingerprint);
    }

    @Override
    public int size() {
        return pendingByFingerprint.size();
    }

    @Override
    public int activeIps() {
        return pendingPerIp.size();
    }

    /** URLs placed in the wheel's steps. */
    public int inWheel() {
        return wheelBySeq.size();
    }

    /** The current step t. */
    public long step() {
        return wheel.step();
    }

    /** URLs the wheel refused because their residue was full (FIFO drops and PRIORITY retries). */
    public long wheelRefusals() {
        return wheel.dropped();
    }

    /** Steps taken so far. */
    public long steps() {
        return steps;
    }

    /** Steps taken with fetches of the previous step still unreported (the step timeout expired). */
    public long stepsAfterTimeout() {
        return stepsAfterTimeout;
    }

    /** Fetches of the last step not reported yet. */
    public int outstanding() {
        return outstanding;
    }

    public Order order() {
        return order;
    }
}
