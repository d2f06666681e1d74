package io.github.kcrawler.lab.faults;

import io.github.kcrawler.websim.Access;
import io.github.kcrawler.websim.WebSim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Watches one crawl from websim's side: samples the distinct pages served over time (for the plot) and keeps the
 * first few politeness violations and duplicate page fetches with their times, so a failed goal can be traced to
 * the disruption that caused it. The counts reported as figures stay websim's own ({@code WebSim.stats()}); this
 * only explains them.
 */
final class RunMonitor implements Consumer<Access>, AutoCloseable {
    /**
     * A violation or a duplicate fetch, at seconds since seeding; {@code gapMs} is the time since the previous access
     * of the IP (violation) or since the page's first fetch (duplicate).
     */
    public record Event(double atS, String ip, String path, double gapMs) {
    }

    private static final int MAX_EVENTS = 50;

    private final WebSim websim;
    private final long startNanos;
    private final long politenessNanos;
    private final Map<String, Long> lastAccess = new HashMap<>();
    private final BitSet seen = new BitSet();
    /** When each page was first fetched (nanos), indexed by page. */
    private long[] firstFetch = new long[1024];
    private final List<Event> violations = new ArrayList<>();
    private final List<Event> duplicates = new ArrayList<>();
    /** When every duplicate fetch happened (seconds since seeding), to attribute them to disruptions. */
    private double[] duplicateTimes = new double[16];
    private int duplicateCount;
    private final List<double[]> samples = new ArrayList<>();
    private volatile long lastRequests = -1;
    private volatile long lastChangeNanos;

    RunMonitor(WebSim websim, long politenessMs) {
        this.websim = websim;
        this.startNanos = System.nanoTime();
        this.lastChangeNanos = startNanos;
        this.politenessNanos = politenessMs * 1_000_000L;
        websim.accesses().addListener(this);
    }

    @Override
    public synchronized void accept(Access a) {
        long now = System.nanoTime();
        Long prev = lastAccess.put(a.ip(), now);
        if (prev != null && now - prev < politenessNanos && violations.size() < MAX_EVENTS) {
            violations.add(new Event(seconds(now), a.ip(), a.path(), (now - prev) / 1e6));
        }
        if (a.kind() == Access.Kind.PAGE && "GET".equals(a.method()) && (a.status() == 200 || a.status() == 304)) {
            if (seen.get(a.page())) {
                if (duplicateCount == duplicateTimes.length) {
                    duplicateTimes = Arrays.copyOf(duplicateTimes, duplicateCount * 2);
                }
                duplicateTimes[duplicateCount++] = seconds(now);
                if (duplicates.size() < MAX_EVENTS) {
                    duplicates.add(new Event(seconds(now), a.ip(), a.path(), (now - firstFetch[a.page()]) / 1e6));
                }
            } else {
                seen.set(a.page());
                if (a.page() >= firstFetch.length) {
                    firstFetch = Arrays.copyOf(firstFetch, Math.max(a.page() + 1, firstFetch.length * 2));
                }
                firstFetch[a.page()] = now;
            }
        }
    }

    double seconds() {
        return seconds(System.nanoTime());
    }

    private double seconds(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    long distinct() {
        return websim.stats().distinctUrlsFetched();
    }

    /** Takes a sample (call about twice a second); returns the distinct pages served so far. */
    long sample() {
        var stats = websim.stats();
        long now = System.nanoTime();
        if (stats.requests() != lastRequests) {
            lastRequests = stats.requests();
            lastChangeNanos = now;
        }
        synchronized (this) {
            samples.add(new double[] {seconds(now), stats.distinctUrlsFetched()});
        }
        return stats.distinctUrlsFetched();
    }

    /** Milliseconds since websim last saw a request (as of the last sample). */
    long quietMs() {
        return (System.nanoTime() - lastChangeNanos) / 1_000_000L;
    }

    synchronized double[] sampleTimes() {
        return samples.stream().mapToDouble(s -> s[0]).toArray();
    }

    synchronized long[] sampleDistinct() {
        return samples.stream().mapToLong(s -> (long) s[1]).toArray();
    }

    synchronized List<Event> violations() {
        return List.copyOf(violations);
    }

    synchronized List<Event> duplicates() {
        return List.copyOf(duplicates);
    }

    /** The time of every duplicate page fetch so far, in order. */
    synchronized double[] duplicateTimes() {
        return Arrays.copyOf(duplicateTimes, duplicateCount);
    }

    @Override
    public void close() {
        websim.accesses().removeListener(this);
    }
}
