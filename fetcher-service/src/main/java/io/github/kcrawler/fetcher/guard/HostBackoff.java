package io.github.kcrawler.fetcher.guard;

import io.github.kcrawler.common.time.CrawlClock;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-IP back-off on top of the politeness interval T, in the manner of Scrapy's AutoThrottle: a server that says
 * "slow down" (429, 503, Retry-After), fails (5xx, timeouts, resets) or answers slowly is visited less often, and
 * the extra delay decays again while it answers well.
 *
 * <p>Rules, per IP, with d the current delay (0 = none) and T the base interval:
 * <ul>
 *   <li>429 or 503: {@code d = max(2·d, T, 1 s, Retry-After)}; a Retry-After (seconds or HTTP date) above
 *       {@code maxBackoffMillis} is clamped to it, an unparsable one is ignored.</li>
 *   <li>other 5xx, timeout, reset: {@code d = max(1.5·d, T, latency)}.</li>
 *   <li>a good response: {@code d = max((d + latency) / 2, latency)} when d is set (AutoThrottle's target delay
 *       with a target concurrency of 1: one request per response time), and the entry is dropped once
 *       {@code d <= T}.</li>
 * </ul>
 * {@code d} is always capped at {@code maxBackoffMillis}. {@link #intervalFor} returns {@code max(base, d)}: the
 * back-off can only make the guard wait longer than T, never shorter.
 *
 * <p>Memory: only IPs with a delay are kept, at most {@code capacity} (least recently touched evicted first: an
 * evicted IP falls back to T, which is still polite). Thread-safe (one lock; every operation is O(1)).
 */
public final class HostBackoff {
    /** Why the delay grew; the {@code cause} tag of {@code FETCH_BACKOFFS}. */
    public enum Cause { RETRY_AFTER, THROTTLED, SERVER_ERROR, SLOW }

    /** The smallest delay after a 429/503, even with T = 0 (an unpolite test setting must still back off). */
    public static final long MIN_THROTTLE_MILLIS = 1_000;

    private final CrawlClock clock;
    private final long baseMillis;
    private final long maxBackoffMillis;
    private final Map<String, Long> delays;

    public HostBackoff(CrawlClock clock, long baseMillis, long maxBackoffMillis, int capacity) {
        if (maxBackoffMillis < baseMillis) {
            throw new IllegalArgumentException("max back-off (" + maxBackoffMillis + " ms) must be >= the base "
                    + "interval (" + baseMillis + " ms)");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("back-off capacity must be >= 1, was " + capacity);
        }
        this.clock = clock;
        this.baseMillis = baseMillis;
        this.maxBackoffMillis = maxBackoffMillis;
        this.delays = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The interval the guard should keep for this IP: never below {@code base}. */
    public synchronized long intervalFor(String ip, long base) {
        Long d = delays.get(ip);
        return d == null ? base : Math.max(base, d);
    }

    /**
     * Records the answer of one access to {@code ip} and returns why the delay grew, or null when it did not.
     *
     * @param status       HTTP status, 0 when no response arrived
     * @param failed       the access ended in a timeout, reset or other network failure
     * @param retryAfter   the Retry-After header value, or null
     * @param latencyMillis request sent to response complete, or -1 when unknown
     */
    public synchronized Cause record(String ip, int status, boolean failed, String retryAfter, long latencyMillis) {
        long latency = Math.max(0, latencyMillis);
        Long cur = delays.get(ip);
        long d = cur == null ? 0 : cur;
        if (status == 429 || status == 503) {
            long ra = retryAfterMillis(retryAfter, clock.millis());
            long next = Math.max(Math.max(2 * d, Math.max(baseMillis, MIN_THROTTLE_MILLIS)), ra);
            put(ip, next);
            return ra > 0 ? Cause.RETRY_AFTER : Cause.THROTTLED;
        }
        if (failed || status >= 500) {
            put(ip, Math.max(Math.max(d + d / 2, baseMillis), latency));
            return Cause.SERVER_ERROR;
        }
        if (latency > baseMillis && latency > d) {
            put(ip, latency); // slower than T: one request per response time, as AutoThrottle would
            return Cause.SLOW;
        }
        if (cur != null) {
            long next = Math.max((d + latency) / 2, latency);
            if (next <= baseMillis) {
                delays.remove(ip);
            } else {
                delays.put(ip, next);
            }
        }
        return null;
    }

    /** IPs currently held back beyond T. */
    public synchronized int size() {
        return delays.size();
    }

    private void put(String ip, long delay) {
        delays.put(ip, Math.min(maxBackoffMillis, delay));
    }

    /**
     * Milliseconds from {@code now} that a Retry-After value asks for (RFC 9110 §10.2.3: delay-seconds or an
     * HTTP date); 0 when absent, in the past or unparsable. A total function on untrusted text.
     */
    public static long retryAfterMillis(String value, long now) {
        if (value == null) {
            return 0;
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > 64) {
            return 0;
        }
        boolean digits = true;
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                digits = false;
                break;
            }
        }
        if (digits) {
            if (v.length() > 9) {
                return Long.MAX_VALUE / 4; // absurd: clamped by the caller's maximum
            }
            return Long.parseLong(v) * 1000L;
        }
        try {
            long at = java.time.ZonedDateTime.parse(v, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant().toEpochMilli();
            return Math.max(0, at - now);
        } catch (java.time.DateTimeException e) {
            return 0;
        }
    }
}
