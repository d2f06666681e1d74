package io.github.kcrawler.lab.soak;

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
 *
 * <p><b>Live set.</b> The same test on a second series when one is given: the heap after the full collections the
 * soak forces at a fixed interval, i.e. the live set. The heap after every GC also counts garbage the collector has
 * not yet chosen to reclaim (G1 leaves old regions to mixed collections), so it can drift with no leak; the live set
 * cannot. Both must be flat; a run without forced collections is judged on the first series alone.
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
     * One heap series judged after the warm-up.
     *
     * @param series              what the points are ("heap after GC", "live set")
     * @param measured            the series had points at all (an unmeasured live set does not count)
     * @param points              points after the warm-up
     * @param meanBytes           their mean
     * @param minBytes            the smallest after the warm-up (-1 without points)
     * @param maxBytes            the largest after the warm-up (-1 without points)
     * @param slopeBytesPerSecond least-squares slope
     * @param trend               slope x post-warm-up duration / mean (signed)
     * @param secondQuarterMeanBytes mean in the second quarter of the run
     * @param lastQuarterMeanBytes   mean in the last quarter of the run
     * @param quarterChange       last-quarter mean / second-quarter mean - 1
     * @param flat                trend below tolerance and quarter change within tolerance (true when not measured)
     */
    public record HeapLevel(String series, boolean measured, int points, double meanBytes, long minBytes,
                            long maxBytes, double slopeBytesPerSecond, double trend, double secondQuarterMeanBytes,
                            double lastQuarterMeanBytes, double quarterChange, boolean flat) {
    }

    /**
     * The verdict with its figures.
     *
     * @param windows          post-warm-up rate windows with their deviation from the mean (rate/mean - 1)
     * @param meanRate         post-warm-up mean pages/s
     * @param maxRateDeviation the largest |deviation| of any window
     * @param rateFlat         every window within tolerance
     * @param heap             heap after every GC
     * @param liveSet          heap after the forced full GCs (not measured when the soak forced none)
     * @param flat             rateFlat, heap flat and live set flat
     * @param reasons          why it is not flat (empty when flat)
     */
    public record Verdict(double warmupSeconds, double endSeconds, double tolerance, List<Window> windows,
                          double meanRate, double maxRateDeviation, boolean rateFlat, HeapLevel heap,
                          HeapLevel liveSet, boolean flat, List<String> reasons) {
        public Verdict {
            windows = List.copyOf(windows);
            reasons = List.copyOf(reasons);
        }

        /** Heap after every GC and the live set (if measured) both flat. */
        public boolean heapFlat() {
            return heap.flat() && liveSet.flat();
        }
    }

    /** Fewer post-warm-up windows than this cannot show flatness. */
    static final int MIN_WINDOWS = 2;
    /** Fewer collections in a quarter than this cannot show a heap level. */
    static final int MIN_GCS_PER_QUARTER = 2;

    private Flatness() {
    }

    /** {@link #judge(List, List, List, double, double, double, double)} without a live-set series. */
    public static Verdict judge(List<Sample> samples, List<HeapPoint> heap, double warmupSeconds, double endSeconds,
                                double windowSeconds, double tolerance) {
        return judge(samples, heap, null, warmupSeconds, endSeconds, windowSeconds, tolerance);
    }

    /**
     * @param samples       cumulative counts in time order (at least one at or before the warm-up end for the first
     *                      window to count)
     * @param heap          heap after each GC, in time order
     * @param liveSet       heap after each forced full GC, in time order; null when none were forced
     * @param warmupSeconds end of the warm-up
     * @param endSeconds    end of the run (the last sample's time, normally)
     * @param windowSeconds rate window
     * @param tolerance     allowed relative deviation, e.g. 0.10
     */
    public static Verdict judge(List<Sample> samples, List<HeapPoint> heap, List<HeapPoint> liveSet,
                                double warmupSeconds, double endSeconds, double windowSeconds, double tolerance) {
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

        HeapLevel heapLevel = level("heap after GC", "collections", heap, warmupSeconds, endSeconds, tolerance,
                reasons);
        HeapLevel liveLevel = liveSet == null ? new HeapLevel("live set", false, 0, Double.NaN, -1, -1, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, true)
                : level("live set", "forced full collections", liveSet, warmupSeconds, endSeconds, tolerance, reasons);
        return new Verdict(warmupSeconds, endSeconds, tolerance, windows, meanRate, maxDev, rateFlat, heapLevel,
                liveLevel, rateFlat && heapLevel.flat() && liveLevel.flat(), reasons);
    }

    /** Judges one heap series; adds to {@code reasons} why it is not flat. */
    private static HeapLevel level(String series, String pointsName, List<HeapPoint> heap, double warmupSeconds,
                                   double endSeconds, double tolerance, List<String> reasons) {
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
        boolean flat = true;
        int inSecond = countBetween(heap, endSeconds * 0.25, endSeconds * 0.5);
        int inLast = countBetween(heap, endSeconds * 0.75, endSeconds);
        if (inSecond < MIN_GCS_PER_QUARTER || inLast < MIN_GCS_PER_QUARTER) {
            flat = false;
            reasons.add(String.format("too few %s to judge the %s: %d in the second quarter, %d in the last "
                    + "(need %d each)", pointsName, series, inSecond, inLast, MIN_GCS_PER_QUARTER));
        } else {
            if (!(trend < tolerance)) {
                flat = false;
                reasons.add(String.format("%s trends upward: slope %.0f KiB/s, %.1f%% of the mean %.0f MiB over the "
                        + "post-warm-up %.0f s (tolerance %.0f%%)", series, slope / 1024, 100 * trend,
                        mean / (1 << 20), endSeconds - warmupSeconds, 100 * tolerance));
            }
            if (!(Math.abs(quarterChange) <= tolerance)) {
                flat = false;
                reasons.add(String.format("mean %s in the last quarter (%.0f MiB) differs %.1f%% from the second "
                        + "quarter (%.0f MiB; tolerance %.0f%%)", series, q4 / (1 << 20), 100 * quarterChange,
                        q2 / (1 << 20), 100 * tolerance));
            }
        }
        return new HeapLevel(series, true, post.size(), mean, min, max, slope, trend, q2, q4, quarterChange, flat);
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
