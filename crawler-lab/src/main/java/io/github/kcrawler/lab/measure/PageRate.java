package io.github.kcrawler.lab.measure;

import java.util.Arrays;

/**
 * The crawl's page rate, from the arrival times of page requests as the simulated web saw them, between 10 % and
 * 90 % of the page budget: start-up (broker, services, the first robots.txt and the first links) and the tail
 * (the last big hosts, served at the politeness rate) are excluded, so the figure is the pipeline's steady rate.
 *
 * <p>Definitions, for {@code n} page request times sorted ascending ({@code t[0] ≤ t[1] ≤ ...}) and a budget
 * {@code N} (the page budget, or the pages a complete crawl fetches; capped at {@code n}):
 * <ul>
 *   <li>the span runs from the {@code a}-th request to the {@code b}-th (1-based), {@code a = ceil(0.1 N)},
 *   {@code b = floor(0.9 N)}, i.e. from {@code t[a-1]} to {@code t[b-1]};</li>
 *   <li>{@code pagesPerSecond = (b - a) / (t[b-1] - t[a-1])}: requests after the a-th up to the b-th, over the
 *   time they took;</li>
 *   <li>windows: consecutive windows of {@code window} seconds from {@code t[a-1]}, only those that end by
 *   {@code t[b-1]} (full windows inside the span); each window's rate is the requests of the span whose time falls
 *   in {@code [start, start + window)}, divided by the window length. The slowest and fastest of them are
 *   reported. When the span is shorter than one window, there is one window, the span itself, and its rate is
 *   {@code pagesPerSecond}.</li>
 * </ul>
 * With fewer than two requests in the span, or a span of no time, every figure is 0 (not computable).
 *
 * @param pagesPerSecond page requests per second between 10 % and 90 % of the budget
 * @param slowestWindowPagesPerSecond the lowest rate of a full window inside the span
 * @param fastestWindowPagesPerSecond the highest rate of a full window inside the span
 * @param windows full windows inside the span (1 when the span is shorter than a window)
 * @param fromMs time of the a-th request
 * @param toMs time of the b-th request
 */
public record PageRate(double pagesPerSecond, double slowestWindowPagesPerSecond,
                       double fastestWindowPagesPerSecond, int windows, double fromMs, double toMs) {
    /** The window length of issue 19: 10 seconds. */
    public static final double WINDOW_SECONDS = 10.0;

    private static final PageRate NONE = new PageRate(0, 0, 0, 0, 0, 0);

    /**
     * @param timesMs page request times in milliseconds (any order; not modified)
     * @param budget  the page budget (or the pages of a complete crawl); values above {@code timesMs.length} are
     *                capped, so a crawl that fell short is measured over what it fetched
     * @param windowSeconds window length, > 0
     */
    public static PageRate of(double[] timesMs, long budget, double windowSeconds) {
        if (!(windowSeconds > 0)) {
            throw new IllegalArgumentException("window must be > 0 s, was " + windowSeconds);
        }
        double[] t = timesMs.clone();
        Arrays.sort(t);
        long n = Math.min(budget, t.length);
        if (n < 2) {
            return NONE;
        }
        int a = (int) Math.max(1, (long) Math.ceil(0.1 * n));
        int b = (int) Math.floor(0.9 * n);
        if (b <= a) {
            return NONE;
        }
        double from = t[a - 1];
        double to = t[b - 1];
        double spanMs = to - from;
        if (!(spanMs > 0)) {
            return NONE;
        }
        double rate = (b - a) / (spanMs / 1000.0);
        double windowMs = windowSeconds * 1000.0;
        int full = (int) Math.floor(spanMs / windowMs);
        if (full == 0) {
            return new PageRate(rate, rate, rate, 1, from, to);
        }
        long[] counts = new long[full];
        // requests after the a-th: indices a .. b-1 (0-based), the a-th itself opens the span
        for (int i = a; i < b; i++) {
            int w = (int) Math.floor((t[i] - from) / windowMs);
            if (w < full) {
                counts[w]++;
            }
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long c : counts) {
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        assert min <= max;
        return new PageRate(rate, min / windowSeconds, max / windowSeconds, full, from, to);
    }
}
