package io.github.kcrawler.app.status;

import io.github.kcrawler.app.runtime.CrawlMonitor;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which hosts and IPs the crawl is busiest on and its most recent errors, from the fetch results themselves (the
 * metrics deliberately carry no per-host series: their number is unbounded). Keeps the results of the last
 * {@code window} milliseconds, at most {@code maxResults} of them, and the last {@code maxErrors} errors; memory is
 * bounded whatever the crawl does. Fed by one thread, read by others.
 */
public final class ActivityWindow {
    /** How many hosts and IPs the tables show. */
    public static final int TOP = 10;
    private static final int MAX_TEXT = 300;

    private final long windowMillis;
    private final int maxResults;
    private final int maxErrors;
    private final ArrayDeque<Seen> results = new ArrayDeque<>();
    private final ArrayDeque<StatusReport.RecentError> errors = new ArrayDeque<>();
    private long read;
    private long unreadable;
    private String problem;

    private record Seen(long at, String host, String ip, boolean error, long bytes) {
    }

    public ActivityWindow(long windowMillis, int maxResults, int maxErrors) {
        if (windowMillis < 1 || maxResults < 1 || maxErrors < 1) {
            throw new IllegalArgumentException("window, result and error bounds must be >= 1, were "
                    + windowMillis + ", " + maxResults + ", " + maxErrors);
        }
        this.windowMillis = windowMillis;
        this.maxResults = maxResults;
        this.maxErrors = maxErrors;
    }

    /** One fetch result read at {@code nowMillis}; {@code ip} is the record's key. */
    public synchronized void add(FetchResult r, String ip, long nowMillis) {
        read++;
        if (r == null || r.outcome() == null) {
            unreadable++;
            return;
        }
        boolean error = isError(r.outcome());
        String host = host(r.url());
        results.addLast(new Seen(nowMillis, host, clip(ip == null ? "?" : ip), error, Math.max(0, r.length())));
        while (results.size() > maxResults) {
            results.removeFirst();
        }
        if (error) {
            errors.addLast(new StatusReport.RecentError(r.fetchedAt() > 0 ? r.fetchedAt() : nowMillis, clip(r.url()),
                    host, clip(ip), r.outcome().name().toLowerCase(Locale.ROOT), r.status(), clip(r.error())));
            while (errors.size() > maxErrors) {
                errors.removeFirst();
            }
        }
    }

    /** Why results cannot be read now (null once they can), shown on the page. */
    public synchronized void problem(String why) {
        this.problem = clip(why);
    }

    /** A record that could not be read. */
    public synchronized void unreadable() {
        read++;
        unreadable++;
    }

    public synchronized StatusReport.Activity snapshot(long nowMillis) {
        for (Iterator<Seen> it = results.iterator(); it.hasNext(); ) {
            if (it.next().at() >= nowMillis - windowMillis) {
                break;
            }
            it.remove();
        }
        Map<String, long[]> hosts = new HashMap<>();
        Map<String, long[]> ips = new HashMap<>();
        for (Seen s : results) {
            count(hosts, s.host(), s);
            count(ips, s.ip(), s);
        }
        List<StatusReport.RecentError> recent = new ArrayList<>(errors);
        java.util.Collections.reverse(recent);
        return new StatusReport.Activity(windowMillis / 1000.0, results.size(), top(hosts), top(ips), recent, read,
                unreadable, problem);
    }

    private static void count(Map<String, long[]> into, String key, Seen s) {
        long[] c = into.computeIfAbsent(key, k -> new long[3]);
        c[0]++;
        c[1] += s.error() ? 1 : 0;
        c[2] += s.bytes();
    }

    private static List<StatusReport.Busiest> top(Map<String, long[]> counts) {
        return counts.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0])
                        .thenComparing(Map.Entry::getKey))
                .limit(TOP)
                .map(e -> new StatusReport.Busiest(e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2]))
                .toList();
    }

    /** Failures and HTTP errors (4xx, 5xx): what an operator looks for first. */
    static boolean isError(FetchOutcome o) {
        return CrawlMonitor.FAILURES.contains(o) || o == FetchOutcome.HTTP_ERROR;
    }

    static String host(String url) {
        if (url == null) {
            return "?";
        }
        try {
            String h = URI.create(url).getHost();
            return h == null ? "?" : clip(h.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return "(unparsable URL)";
        }
    }

    private static String clip(String s) {
        if (s == null) {
            return null;
        }
        return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT) + "…";
    }
}
