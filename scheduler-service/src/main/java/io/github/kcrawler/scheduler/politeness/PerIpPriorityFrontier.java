package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.CrawlClock;
import it.unimi.dsi.fastutil.longs.Long2DoubleLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * The foundation scheduler: per-IP priority queues plus a ready-time index, the structure IRLbot-style crawlers
 * use before anything cleverer. It is the baseline the O(1) politeness wheel of paper 004
 * ({@code ../shared/seeds/004_4207424cc682bc95.txt}, DESIGN §4.5) replaces; both sit behind {@link Frontier}.
 *
 * <p>What it guarantees: the {@code notBefore} times of two releases for one IP are at least T apart; each IP
 * gives out its highest-scored pending URL first, ties in admission order; memory is bounded by
 * {@code maxPending} URLs ({@code maxPendingPerIp} per IP) plus a bounded cache of scores that arrived early.
 *
 * <p>Structure and invariants (checked by {@link #checkInvariants()}, which tests call):
 * <ul>
 *   <li>{@code ips}: one {@link IpState} per IP that has pending URLs or whose next allowed time is still in the
 *       future; an idle IP is forgotten once its time has passed, so the map does not grow with every IP ever
 *       seen.</li>
 *   <li>{@code ready}: exactly the IPs with pending URLs, ordered by (next allowed time, id): the min-heap of the
 *       brief, kept as a red-black tree so that a fetch result can move an IP in O(log n). A tick looks only at its
 *       head, so it costs O(released · log n), never O(IPs).</li>
 *   <li>{@code byFingerprint}: every pending URL, so a score update finds and repositions its URL in O(log n).</li>
 *   <li>An IP's state is taken out of {@code ready} before its next allowed time changes (the tree's key).</li>
 * </ul>
 *
 * <p>Look-ahead: an IP is released when its next allowed time is at most {@code lookaheadMs} away (the tick
 * length), with {@code notBefore = max(now, nextAllowed)}, so a busy IP is fetched every T exactly rather than
 * every T plus up to one tick. The look-ahead must be shorter than T, so no IP is released twice in one tick.
 *
 * <p>Memory: about 150 bytes per pending URL (tree node, hash slot, record), so the default one million URLs per
 * partition cost ~150 MB of heap; the URL text lives in the persistent store, not here.
 */
public final class PerIpPriorityFrontier implements Frontier {
    private static final Comparator<PendingUrl> BEST_FIRST = (a, b) -> {
        int c = Double.compare(b.score(), a.score());
        return c != 0 ? c : Long.compare(a.seq(), b.seq());
    };
    private static final Comparator<IpState> EARLIEST_FIRST = (a, b) -> {
        int c = Long.compare(a.nextAllowed, b.nextAllowed);
        return c != 0 ? c : Long.compare(a.id, b.id);
    };

    private final CrawlClock clock;
    private final long politenessMs;
    private final long lookaheadMs;
    private final int maxPending;
    private final int maxPendingPerIp;
    private final int scoreCacheSize;

    private final Map<String, IpState> ips = new HashMap<>();
    private final TreeSet<IpState> ready = new TreeSet<>(EARLIEST_FIRST);
    private final PriorityQueue<IdleMark> idle = new PriorityQueue<>(Comparator.comparingLong(IdleMark::until));
    private final Long2ObjectOpenHashMap<PendingUrl> byFingerprint = new Long2ObjectOpenHashMap<>();
    private final Long2DoubleLinkedOpenHashMap earlyScores = new Long2DoubleLinkedOpenHashMap();
    private long nextIpId;
    private long examinedInLastRelease;

    /**
     * @param politenessMs    T: minimum time between two releases for one IP, > 0
     * @param lookaheadMs     release an IP this long before its time (normally the tick length), 0 ≤ it < T
     * @param maxPending      most URLs held at once, > 0
     * @param maxPendingPerIp most URLs held for one IP, > 0
     * @param scoreCacheSize  most scores remembered for URLs not (yet) pending, ≥ 0
     */
    public PerIpPriorityFrontier(CrawlClock clock, long politenessMs, long lookaheadMs, int maxPending,
                                 int maxPendingPerIp, int scoreCacheSize) {
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null");
        }
        if (politenessMs <= 0) {
            throw new IllegalArgumentException("politeness interval must be > 0, was " + politenessMs);
        }
        if (lookaheadMs < 0 || lookaheadMs >= politenessMs) {
            throw new IllegalArgumentException("look-ahead must be in [0, " + politenessMs + "), was " + lookaheadMs);
        }
        if (maxPending <= 0) {
            throw new IllegalArgumentException("max pending must be > 0, was " + maxPending);
        }
        if (maxPendingPerIp <= 0) {
            throw new IllegalArgumentException("max pending per IP must be > 0, was " + maxPendingPerIp);
        }
        if (scoreCacheSize < 0) {
            throw new IllegalArgumentException("score cache size must be >= 0, was " + scoreCacheSize);
        }
        this.clock = clock;
        this.politenessMs = politenessMs;
        this.lookaheadMs = lookaheadMs;
        this.maxPending = maxPending;
        this.maxPendingPerIp = maxPendingPerIp;
        this.scoreCacheSize = scoreCacheSize;
        earlyScores.defaultReturnValue(0.0);
    }

    @Override
    public Admission admit(String ip, long fingerprint, long seq) {
        requireIp(ip);
        if (byFingerprint.containsKey(fingerprint)) {
            return Admission.DUPLICATE;
        }
        if (byFingerprint.size() >= maxPending) {
            return Admission.FRONTIER_FULL;
        }
        IpState state = ips.get(ip);
        if (state != null && state.queue.size() >= maxPendingPerIp) {
            return Admission.IP_FULL;
        }
        double score = earlyScores.remove(fingerprint); // 0.0 when no score arrived before the URL
        enqueue(state != null ? state : newState(ip, Long.MIN_VALUE), fingerprint, seq, score);
        return Admission.QUEUED;
    }

    @Override
    public boolean restore(PendingUrl url) {
        if (byFingerprint.containsKey(url.fingerprint())) {
            return false;
        }
        IpState state = ips.get(url.ip());
        enqueue(state != null ? state : newState(url.ip(), Long.MIN_VALUE), url.fingerprint(), url.seq(),
                url.score());
        return true;
    }

    private void enqueue(IpState state, long fingerprint, long seq, double score) {
        PendingUrl url = new PendingUrl(state.ip, fingerprint, seq, score);
        boolean wasEmpty = state.queue.isEmpty();
        state.queue.add(url);
        byFingerprint.put(fingerprint, url);
        if (wasEmpty) {
            ready.add(state);
        }
    }

    @Override
    public PendingUrl updateScore(long fingerprint, double score) {
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("score must be finite, was " + score);
        }
        PendingUrl old = byFingerprint.get(fingerprint);
        if (old == null) {
            if (scoreCacheSize > 0) {
                earlyScores.putAndMoveToLast(fingerprint, score);
                if (earlyScores.size() > scoreCacheSize) {
                    earlyScores.removeFirstDouble();
                }
            }
            return null;
        }
        IpState state = ips.get(old.ip());
        PendingUrl moved = old.withScore(score);
        state.queue.remove(old);
        state.queue.add(moved);
        byFingerprint.put(fingerprint, moved);
        return moved;
    }

    @Override
    public void fetched(String ip, long fetchedAt) {
        requireIp(ip);
        if (fetchedAt <= 0) {
            return; // never sent
        }
        long now = clock.millis();
        long until = Math.min(fetchedAt, now) + politenessMs;
        IpState state = ips.get(ip);
        if (state == null) {
            if (until > now) {
                idle.add(new IdleMark(until, newState(ip, until)));
            }
            return;
        }
        if (until <= state.nextAllowed) {
            return;
        }
        if (state.queue.isEmpty()) {
            state.nextAllowed = until;
            idle.add(new IdleMark(until, state));
        } else {
            ready.remove(state);
            state.nextAllowed = until;
            ready.add(state);
        }
    }

    @Override
    public int releaseReady(ReleaseSink sink) {
        long now = clock.millis();
        long horizon = now > Long.MAX_VALUE - lookaheadMs ? Long.MAX_VALUE : now + lookaheadMs;
        int released = 0;
        long examined = 0;
        while (!ready.isEmpty()) {
            IpState state = ready.first();
            examined++;
            if (state.nextAllowed > horizon) {
                break;
            }
            ready.pollFirst();
            PendingUrl url = state.queue.pollFirst();
            byFingerprint.remove(url.fingerprint());
            long notBefore = Math.max(now, state.nextAllowed);
            state.nextAllowed = notBefore + politenessMs;
            assert state.nextAllowed > horizon : "look-ahead >= T would release an IP twice in one tick";
            if (state.queue.isEmpty()) {
                idle.add(new IdleMark(state.nextAllowed, state));
            } else {
                ready.add(state); // nextAllowed > horizon now (look-ahead < T): not seen again in this call
            }
            released++;
            sink.released(url, notBefore);
        }
        examinedInLastRelease = examined;
        forgetIdle(now);
        return released;
    }

    /** Drops the state of IPs with nothing pending whose next allowed time has passed: they constrain nothing. */
    private void forgetIdle(long now) {
        while (!idle.isEmpty() && idle.peek().until() <= now) {
            IdleMark mark = idle.poll();
            IpState state = mark.state();
            if (state.queue.isEmpty() && state.nextAllowed == mark.until() && ips.get(state.ip) == state) {
                ips.remove(state.ip);
            }
        }
    }

    private IpState newState(String ip, long nextAllowed) {
        IpState state = new IpState(ip, nextIpId++, nextAllowed);
        ips.put(ip, state);
        return state;
    }

    @Override
    public PendingUrl pending(long fingerprint) {
        return byFingerprint.get(fingerprint);
    }

    @Override
    public int size() {
        return byFingerprint.size();
    }

    @Override
    public int activeIps() {
        return ready.size();
    }

    /** IPs the frontier keeps state for: active ones plus idle ones still inside their politeness interval. */
    public int trackedIps() {
        return ips.size();
    }

    /** How many ready-index entries the last {@link #releaseReady} looked at: released + at most one. */
    public long examinedInLastRelease() {
        return examinedInLastRelease;
    }

    /** Scores remembered for URLs not pending. */
    public int cachedScores() {
        return earlyScores.size();
    }

    /**
     * Verifies the structure's invariants; O(n), for tests and debugging only.
     *
     * @throws IllegalStateException naming the first broken invariant
     */
    public void checkInvariants() {
        int total = 0;
        int active = 0;
        for (IpState state : ips.values()) {
            total += state.queue.size();
            if (!state.queue.isEmpty()) {
                active++;
                check(ready.contains(state), "IP with pending URLs missing from the ready index: " + state.ip);
            }
            for (PendingUrl url : state.queue) {
                check(byFingerprint.get(url.fingerprint()) == url, "fingerprint index out of date: " + url);
                check(url.ip().equals(state.ip), "URL queued under the wrong IP: " + url);
            }
        }
        check(total == byFingerprint.size(), "fingerprint index has " + byFingerprint.size() + " URLs, queues "
                + total);
        check(active == ready.size(), "ready index has " + ready.size() + " IPs, " + active + " have URLs");
        check(earlyScores.size() <= scoreCacheSize, "score cache over its bound");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    private static void requireIp(String ip) {
        if (ip == null) {
            throw new IllegalArgumentException("ip must not be null");
        }
    }

    /** Per-IP state; {@code nextAllowed} is the ready index's key and changes only while out of the index. */
    private static final class IpState {
        final String ip;
        final long id;
        final TreeSet<PendingUrl> queue = new TreeSet<>(BEST_FIRST);
        long nextAllowed;

        IpState(String ip, long id, long nextAllowed) {
            this.ip = ip;
            this.id = id;
            this.nextAllowed = nextAllowed;
        }
    }

    /** "This IP may be forgotten at {@code until} if nothing happened to it since"; stale marks are skipped. */
    private record IdleMark(long until, IpState state) {
    }
}
