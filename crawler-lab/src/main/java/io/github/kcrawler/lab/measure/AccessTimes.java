package io.github.kcrawler.lab.measure;

import io.github.kcrawler.websim.Access;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The simulated web's access times, kept for {@link PageRate} and {@link PolitenessEfficiency}: a listener on
 * websim's access recorder ({@code AccessRecorder.addListener}), called on websim's event loops for every request.
 * It keeps the arrival time ({@link Access#atMs()}, websim's monotonic clock) of every page request
 * ({@link Access.Kind#PAGE}, any status; robots.txt excluded) in a growing primitive array, and per address the
 * arrival times of page and robots.txt requests (requests for other paths and to hostile hosts are not counted), 8
 * bytes each. It also keeps the offset between websim's clock and {@link System#nanoTime()} (the smallest
 * difference seen at a callback), so that a page request can be placed on this process's clock.
 */
public final class AccessTimes implements Consumer<Access> {
    private double[] pageTimes = new double[1 << 14];
    private int pages;
    private final Map<String, Times> ips = new HashMap<>();
    private long offsetNanos = Long.MAX_VALUE;

    @Override
    public void accept(Access a) {
        long now = System.nanoTime();
        boolean page = a.kind() == Access.Kind.PAGE;
        if (!page && a.kind() != Access.Kind.ROBOTS) {
            return;
        }
        synchronized (this) {
            offsetNanos = Math.min(offsetNanos, now - (long) (a.atMs() * 1e6));
            if (page) {
                if (pages == pageTimes.length) {
                    pageTimes = Arrays.copyOf(pageTimes, pages * 2);
                }
                pageTimes[pages++] = a.atMs();
            }
            ips.computeIfAbsent(a.ip(), ip -> new Times()).add(a.atMs());
        }
    }

    /** One address's arrival times, in arrival order (event loops may interleave them slightly). */
    private static final class Times {
        private double[] t = new double[16];
        private int n;

        void add(double atMs) {
            if (n == t.length) {
                t = Arrays.copyOf(t, n * 2);
            }
            t[n++] = atMs;
        }

        PolitenessEfficiency.Span span(String ip) {
            double[] sorted = Arrays.copyOf(t, n);
            Arrays.sort(sorted);
            return new PolitenessEfficiency.Span(ip, n, sorted[0], sorted[n - 1], medianGap(sorted));
        }

        /** The median of the gaps between consecutive times (NaN with fewer than two). */
        static double medianGap(double[] sorted) {
            if (sorted.length < 2) {
                return Double.NaN;
            }
            double[] gaps = new double[sorted.length - 1];
            for (int i = 1; i < sorted.length; i++) {
                gaps[i - 1] = sorted[i] - sorted[i - 1];
            }
            return PolitenessEfficiency.median(gaps);
        }
    }

    /** Page request times so far, in milliseconds of websim's clock, sorted. */
    public synchronized double[] pageTimesMs() {
        double[] t = Arrays.copyOf(pageTimes, pages);
        Arrays.sort(t);
        return t;
    }

    /** Per address: page and robots.txt requests, first and last arrival, the median gap between them. */
    public synchronized List<PolitenessEfficiency.Span> spans() {
        List<PolitenessEfficiency.Span> out = new ArrayList<>(ips.size());
        ips.forEach((ip, times) -> out.add(times.span(ip)));
        return out;
    }

    /** {@code atMs} of websim's clock as a {@link System#nanoTime()} value (Long.MIN_VALUE before any request). */
    public synchronized long toNanoTime(double atMs) {
        return offsetNanos == Long.MAX_VALUE ? Long.MIN_VALUE : offsetNanos + (long) (atMs * 1e6);
    }

    /**
     * Seconds from {@code startNanos} ({@link System#nanoTime()}) to the {@code budget}-th page request, or to the
     * last one when fewer arrived (or {@code budget} ≤ 0); 0 before any page request.
     */
    public double secondsToPage(long startNanos, long budget) {
        double[] t = pageTimesMs();
        if (t.length == 0) {
            return 0;
        }
        int i = budget > 0 && budget <= t.length ? (int) budget - 1 : t.length - 1;
        return Math.max(0, (toNanoTime(t[i]) - startNanos) / 1e9);
    }
}
