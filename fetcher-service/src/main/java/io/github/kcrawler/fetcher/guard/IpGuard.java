package io.github.kcrawler.fetcher.guard;

import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The per-IP last-access guard: the fetcher's final word on politeness (DESIGN §4.5). The scheduler's wheel spaces
 * requests to one IP by T in steps, but a timeout, a robots.txt fetch or a redirect to the same IP can still bunch
 * accesses, so every network access to a server goes through here first.
 *
 * <p>Invariants, per IP: at most one access is granted and not yet released (one request in flight), and a grant
 * comes strictly more than the interval of its request after the previous access <em>ended</em> (its release).
 * Counting from the end rather than the start is stricter than "starts at least T apart" and makes the guarantee
 * hold where it is judged, at the server: the server saw the previous request before it finished answering it,
 * so however long the request queued there, two arrivals are more than T apart. The cost is one response time per
 * interval, small against T. The interval is chosen per request by the caller: {@code max(T, robots Crawl-delay
 * of its host)}, capped. Waiters are served first come, first served.
 *
 * <p>Cost: a waiting request costs one queue entry and, for the head of each IP's queue, one scheduled task on the
 * {@link TaskScheduler} (the Netty timer wheel in production) — no thread per IP, no polling. Memory is bounded
 * by the IPs accessed within the longest interval: an idle IP whose last access is older than
 * {@code maxIntervalMillis} constrains nothing and is evicted by a sweep that runs at most every
 * {@link #SWEEP_EVERY_MS}.
 *
 * <p>Thread-safe: one lock around the map; callbacks always run on the scheduler, never under the lock or on the
 * caller's stack (so a release from inside a callback cannot recurse).
 */
public final class IpGuard {
    /** How often idle IPs are swept out of the map. */
    public static final long SWEEP_EVERY_MS = 10_000;

    private final CrawlClock clock;
    private final TaskScheduler scheduler;
    private final long maxIntervalMillis;
    private final Timer waitTimer;
    private final Map<String, IpState> states = new HashMap<>();
    private long lastSweep;
    private int waiting;

    /**
     * @param maxIntervalMillis the longest interval any caller will ask for; IPs idle that long are forgotten
     * @param waitTimer         records how long each request waited for its grant ({@code POLITENESS_WAIT})
     */
    public IpGuard(CrawlClock clock, TaskScheduler scheduler, long maxIntervalMillis, Timer waitTimer) {
        if (maxIntervalMillis < 0) {
            throw new IllegalArgumentException("maxIntervalMillis must be >= 0, was " + maxIntervalMillis);
        }
        this.clock = clock;
        this.scheduler = scheduler;
        this.maxIntervalMillis = maxIntervalMillis;
        this.waitTimer = waitTimer;
        this.lastSweep = clock.millis();
    }

    /**
     * Asks for access to {@code ip}. {@code onGranted} runs exactly once, on the scheduler, when no other access to
     * the IP is in flight and more than {@code intervalMillis} has passed since the previous one ended; the caller
     * must then call {@link #release} exactly once when the access has ended.
     */
    public void acquire(String ip, long intervalMillis, Runnable onGranted) {
        if (intervalMillis < 0) {
            throw new IllegalArgumentException("intervalMillis must be >= 0, was " + intervalMillis);
        }
        long now = clock.millis();
        Runnable grant = null;
        long wakeIn = -1;
        synchronized (this) {
            maybeSweep(now);
            IpState s = states.computeIfAbsent(ip, k -> new IpState());
            if (!s.busy && s.queue.isEmpty() && now - s.lastAccess > intervalMillis) {
                s.busy = true;
                s.lastAccess = now;
                grant = onGranted;
            } else {
                s.queue.addLast(new Waiter(intervalMillis, now, onGranted));
                waiting++;
                if (!s.busy && !s.wakeupPending) {
                    s.wakeupPending = true;
                    wakeIn = s.lastAccess + intervalMillis + 1 - now;
                }
            }
        }
        if (grant != null) {
            waitTimer.record(0, TimeUnit.MILLISECONDS);
            scheduler.execute(grant);
        } else if (wakeIn >= 0) {
            scheduleWakeup(ip, wakeIn);
        }
    }

    /** Ends the access granted for {@code ip}; the next interval for the IP runs from now. */
    public void release(String ip) {
        long now = clock.millis();
        Decision d;
        synchronized (this) {
            IpState s = states.get(ip);
            if (s == null || !s.busy) {
                throw new IllegalStateException("release of " + ip + " without a grant");
            }
            s.busy = false;
            s.lastAccess = Math.max(s.lastAccess, now);
            d = decide(s, now);
        }
        finish(ip, d.grant, d.wakeIn, now);
    }

    /** IPs currently tracked (busy, waited on, or accessed within the longest interval). */
    public synchronized int trackedIps() {
        return states.size();
    }

    /** Requests waiting for a grant. */
    public synchronized int waiting() {
        return waiting;
    }

    private void wakeup(String ip) {
        long now = clock.millis();
        Decision d;
        synchronized (this) {
            IpState s = states.get(ip);
            if (s == null) {
                return;
            }
            s.wakeupPending = false;
            d = decide(s, now);
        }
        finish(ip, d.grant, d.wakeIn, now);
    }

    /** Under the lock: grant the head waiter if it is due, otherwise arrange one wake-up for it. */
    private Decision decide(IpState s, long now) {
        if (s.busy || s.queue.isEmpty()) {
            return Decision.NONE;
        }
        Waiter head = s.queue.peekFirst();
        long due = s.lastAccess + head.intervalMillis + 1;
        if (due <= now) {
            s.queue.pollFirst();
            waiting--;
            s.busy = true;
            s.lastAccess = now;
            return new Decision(head, -1);
        }
        if (s.wakeupPending) {
            return Decision.NONE;
        }
        s.wakeupPending = true;
        return new Decision(null, due - now);
    }

    private void finish(String ip, Waiter granted, long wakeIn, long now) {
        if (granted != null) {
            waitTimer.record(Math.max(0, now - granted.enqueuedAt), TimeUnit.MILLISECONDS);
            scheduler.execute(granted.onGranted);
        } else if (wakeIn >= 0) {
            scheduleWakeup(ip, wakeIn);
        }
    }

    private void scheduleWakeup(String ip, long delayMillis) {
        // The scheduler's own ticker may disagree with the clock by a millisecond; wakeup() re-checks the clock and
        // re-arms itself if it fired early, so the invariant holds in clock terms.
        scheduler.schedule(() -> wakeup(ip), Math.max(1, delayMillis));
    }

    private void maybeSweep(long now) {
        if (now - lastSweep < SWEEP_EVERY_MS) {
            return;
        }
        lastSweep = now;
        Iterator<IpState> it = states.values().iterator();
        while (it.hasNext()) {
            IpState s = it.next();
            if (!s.busy && !s.wakeupPending && s.queue.isEmpty() && now - s.lastAccess > maxIntervalMillis) {
                it.remove();
            }
        }
    }

    private static final class IpState {
        long lastAccess = Long.MIN_VALUE / 4;
        boolean busy;
        boolean wakeupPending;
        final ArrayDeque<Waiter> queue = new ArrayDeque<>(2);
    }

    private record Waiter(long intervalMillis, long enqueuedAt, Runnable onGranted) {
    }

    private record Decision(Waiter grant, long wakeIn) {
        static final Decision NONE = new Decision(null, -1);
    }
}
