package io.github.kcrawler.app.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The soak's verdict: after a warm-up, is the crawl rate flat and does the heap after GC show no upward trend?
 *
 * <p><b>Rate.</b> The cumulative page count (websim's own, sampled) is cut into consecutive windows of
 * {@code windowSeconds} starting at the end of the warm-up (only whole windows); the count at a window boundary is
 * interpolated linearly between the two samples around it. Each window's rate must be within {@code ±tolerance} of
 * the post-warm-up mean rate (total pages over total time of those windows).
 *
 * <p><b>Heap.</b> Over the collections after the warm-up: the least-squares slope of heap-after-GC against time,
 * times the post-warm-up duration, must be below {@code tolerance} of the mean heap after GC (an upward trend fails;
 * a falling heap does not), and the mean heap after GC in the last quarter of the run must be within
 * {@code ±tolerance} of the mean in the second quarter (quarters of the whole run, so the warm-up may be at most a
 * quarter of it). Too few windows or collections to judge is reported as not flat, with the reason.
 */
public final class Flatness {

    /** A cumulative count at a time (seconds since the crawl started). */
    public record Sample(double seconds, long count) {
    }

    /** One window's rate. */
    public record Window(double fromSeconds, double toSeconds, double perSecond, double deviation) {
    }

    /** A heap-after-GC point (seconds since the crawl started, bytes). */
    public record HeapPoint(double seconds, long bytes) {
    }

    /**
     * The verdict with its figures.
     *
     * @param windows             post-warm-up rate windows with their deviation from the mean (rate/mean - 1)
     * @param meanRate            post-warm-up mean pages/s
     * @param maxRateDeviation    the largest |deviation| of any window
     * @param rateFlat            every window within tolerance
     * @param heapPoints          collections after the warm-up
     * @param heapMeanBytes       their mean heap after GC
     * @param heapMinBytes        smallest heap after GC after the warm-up
     * @param heapMaxBytes        largest heap after GC after the warm-up
     * @param heapSlopeBytesPerSecond least-squares slope
     * @param heapTrend           slope x post-warm-up duration / mean heap (signed)
     * @param heapSecondQuarterMeanBytes mean heap after GC in the second quarter of the run
     * @param heapLastQuarterMeanBytes   mean heap after GC in the last quarter of the run
     * @param heapQuarterChange   last-quarter mean / second-quarter mean - 1
     * @param heapFlat            trend below tolerance and quarter change within tolerance
     * @param flat                rateFlat and heapFlat
     * @param reasons             why it is not flat (empty when flat)
     */
    public record Verdict(double warmupSeconds, double endSeconds, double tolerance, List<Window> windows,
                          double meanRate, double maxRateDeviation, boolean rateFlat, int heapPoints,
                          double heapMeanBytes, long heapMinBytes, long heapMaxBytes, double heapSlopeBytesPerSecond,
                          double heapTrend, double heapSecondQuarterMeanBytes, double heapLastQuarterMeanBytes,
                          double heapQuarterChange, boolean heapFlat, boolean flat, List<String> reasons) {
        public Verdict {
            windows = List.copyOf(windows);
            reasons = List.copyOf(reasons);
        }
    }

    /** Fewer post-warm-up windows than this cannot show flatness. */
    static final int MIN_WINDOWS = 2;
    /** Fewer collections in a quarter than this cannot show a heap level. */
    static final int MIN_GCS_PER_QUARTER = 2;

    private Flatness() {
    }

    /**
     * @param samples       cumulative counts in time order (at least one at or before the warm-up end for the first
     *                      window to count)
     * @param heap          heap after each GC, in time order
     * @param warmupSeconds end of the warm-up
     * @param endSeconds    end of the run (the last sample's time, normally)
     * @param windowSeconds rate window
     * @param tolerance     allowed relative deviation, e.g. 0.10
     */
    public static Verdict judge(List<Sample> samples, List<HeapPoint> heap, double warmupSeconds, double endSeconds,
                                double windowSeconds, double tolerance) {
        if (!(windowSeconds > 0) || !(tolerance > 0) || !(warmupSeconds >= 0) || !(endSeconds > warmupSeconds)) {
            throw new IllegalArgumentException(String.format(
                    "need window > 0, tolerance > 0, 0 <= warm-up < end; was window %s, tolerance %s, warm-up %s, "
                            + "end %s",
                    windowSeconds, tolerance, warmupSeconds, endSeconds));
        }
        if (warmupSeconds > endSeconds / 4 + 1e-9) {
            throw new IllegalArgumentException("warm-up must be at most a quarter of the run (the heap check compares "
                    + "the second and last quarters), was " + warmupSeconds + " s of " + endSeconds + " s");
        }
        List<String> reasons = new ArrayList<>();

        // Rate windows.
        List<double[]> raw = new ArrayList<>();
        double lastSample = samples.isEmpty() ? Double.NaN : samples.get(samples.size() - 1).seconds();
        double limit = Math.min(endSeconds, lastSample);
        for (double from = warmupSeconds; from + windowSeconds <= limit + 1e-9; from += windowSeconds) {
            double a = countAt(samples, from);
            double b = countAt(samples, from + windowSeconds);
            if (Double.isNaN(a) || Double.isNaN(b)) {
                continue;
            }
            raw.add(new double[] {from, from + windowSeconds, (b - a) / windowSeconds});
        }
        double meanRate = raw.stream().mapToDouble(w -> w[2]).average().orElse(Double.NaN);
        List<Window> windows = new ArrayList<>();
        double maxDev = 0;
        for (double[] w : raw) {
            double dev = meanRate > 0 ? w[2] / meanRate - 1 : Double.NaN;
            windows.add(new Window(w[0], w[1], w[2], dev));
            maxDev = Double.isNaN(dev) ? Double.NaN : Math.max(maxDev, Math.abs(dev));
        }
        boolean rateFlat = true;
        if (windows.size() < MIN_WINDOWS) {
            rateFlat = false;
            reasons.add(String.format("only %d whole %.0f s rate windows after the warm-up (need %d)", windows.size(),
                    windowSeconds, MIN_WINDOWS));
        } else if (!(meanRate > 0)) {
            rateFlat = false;
            reasons.add("no pages fetched after the warm-up");
        } else if (!(maxDev <= tolerance)) {
            rateFlat = false;
            reasons.add(String.format("a rate window deviates %.1f%% from the post-warm-up mean %.1f pages/s "
                    + "(tolerance %.0f%%)", 100 * maxDev, meanRate, 100 * tolerance));
        }

        // Heap after GC.
        List<HeapPoint> post = heap.stream().filter(p -> p.seconds() >= warmupSeconds && p.seconds() <= endSeconds)
                .toList();
        double mean = post.stream().mapToLong(HeapPoint::bytes).average().orElse(Double.NaN);
        long min = post.stream().mapToLong(HeapPoint::bytes).min().orElse(-1);
        long max = post.stream().mapToLong(HeapPoint::bytes).max().orElse(-1);
        double slope = slope(post);
        double trend = slope * (endSeconds - warmupSeconds) / mean;
        double q2 = meanBetween(heap, endSeconds * 0.25, endSeconds * 0.5);
        double q4 = meanBetween(heap, endSeconds * 0.75, endSeconds);
        double quarterChange = q4 / q2 - 1;
        boolean heapFlat = true;
        if (countBetween(heap, endSeconds * 0.25, endSeconds * 0.5) < MIN_GCS_PER_QUARTER
                || countBetween(heap, endSeconds * 0.75, endSeconds) < MIN_GCS_PER_QUARTER) {
            heapFlat = false;
            reasons.add(String.format("too few collections to judge the heap: %d in the second quarter, %d in the "
                    + "last (need %d each)", countBetween(heap, endSeconds * 0.25, endSeconds * 0.5),
                    countBetween(heap, endSeconds * 0.75, endSeconds), MIN_GCS_PER_QUARTER));
        } else {
            if (!(trend < tolerance)) {
                heapFlat = false;
                reasons.add(String.format("heap after GC trends upward: slope %.0f KiB/s, %.1f%% of the mean %.0f MiB "
                        + "over the post-warm-up %.0f s (tolerance %.0f%%)", slope / 1024, 100 * trend,
                        mean / (1 << 20), endSeconds - warmupSeconds, 100 * tolerance));
            }
            if (!(Math.abs(quarterChange) <= tolerance)) {
                heapFlat = false;
                reasons.add(String.format("mean heap after GC in the last quarter (%.0f MiB) differs %.1f%% from the "
                        + "second quarter (%.0f MiB; tolerance %.0f%%)", q4 / (1 << 20), 100 * quarterChange,
                        q2 / (1 << 20), 100 * tolerance));
            }
        }
        return new Verdict(warmupSeconds, endSeconds, tolerance, windows, meanRate, maxDev, rateFlat, post.size(),
                mean, min, max, slope, trend, q2, q4, quarterChange, heapFlat, rateFlat && heapFlat, reasons);
    }

    /** The cumulative count at time t, interpolated between the samples around it; NaN outside the samples. */
    static double countAt(List<Sample> samples, double t) {
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            if (s.seconds() == t) {
                return s.count();
            }
            if (s.seconds() > t) {
                if (i == 0) {
                    return Double.NaN;
                }
                Sample p = samples.get(i - 1);
                return p.count() + (s.count() - p.count()) * (t - p.seconds()) / (s.seconds() - p.seconds());
            }
        }
        return Double.NaN;
    }

    /** Least-squares slope of bytes over seconds (bytes/s); NaN with fewer than two distinct times. */
    static double slope(List<HeapPoint> points) {
        int n = points.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mx = points.stream().mapToDouble(HeapPoint::seconds).average().orElseThrow();
        double my = points.stream().mapToDouble(HeapPoint::bytes).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (HeapPoint p : points) {
            sxy += (p.seconds() - mx) * (p.bytes() - my);
            sxx += (p.seconds() - mx) * (p.seconds() - mx);
        }
        return sxx > 0 ? sxy / sxx : Double.NaN;
    }

    private static double meanBetween(List<HeapPoint> heap, double from, double to) {
        return heap.stream().filter(p -> p.seconds() >= from && p.seconds() <= to).mapToLong(HeapPoint::bytes)
                .average().orElse(Double.NaN);
    }

    private static int countBetween(List<HeapPoint> heap, double from, double to) {
        return (int) heap.stream().filter(p -> p.seconds() >= from && p.seconds() <= to).count();
    }
}
