package io.github.kcrawler.lab.soak;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a soak run does: the generated web websim serves in this JVM, the crawl in a child JVM with a bounded heap,
 * how long, how often it is sampled and how flatness is judged. Every default is here; the constructor rejects bad
 * values naming them.
 *
 * @param pages           pages of the generated web
 * @param ips             simulated server IPs
 * @param pagesPerHost    mean pages per host of the generated web
 * @param seeds           seed pages, spread evenly over the page ids (many seeds shorten the ramp-up from one page
 *                        to thousands of busy IPs, which otherwise takes minutes)
 * @param politenessMs    T, checked by websim
 * @param partitions      partitions of every topic
 * @param maxDepth        link depth limit of the crawl
 * @param minutes         how long the crawl runs before it is stopped with SIGTERM
 * @param heap            the child's {@code -Xmx} (e.g. {@code 1g}, {@code 768m})
 * @param intervalSeconds sampling interval of websim's counts, the child's RSS and metrics
 * @param liveSetSeconds  interval of the class histograms ({@code jcmd <pid> GC.class_histogram}), each after a
 *                        full collection whose heap after GC is the live set the verdict also judges; 0 = none
 *                        (at most an eighth of the run, so that each judged quarter has two)
 * @param windowSeconds   rate window of the verdict
 * @param warmupFraction  leading share of the run excluded from the verdict (at most 0.25)
 * @param tolerance       allowed relative deviation (0.10 = 10 %)
 * @param stopSeconds     how long to wait for the child to stop after SIGTERM before killing it
 * @param dataDir         working directory (wiped at start)
 * @param jar             the crawler's shaded jar the child runs
 * @param jvmOptions      further options for the child JVM
 * @param settings        further service settings passed to the child with {@code --set}
 */
public record SoakConfig(int pages, int ips, double pagesPerHost, int seeds, long politenessMs, int partitions,
                         int maxDepth, double minutes, String heap, int intervalSeconds, int liveSetSeconds,
                         int windowSeconds,
                         double warmupFraction, double tolerance, int stopSeconds, Path dataDir, Path jar,
                         List<String> jvmOptions, Map<String, String> settings) {

    public static final int DEFAULT_PAGES = 1_000_000;
    public static final int DEFAULT_IPS = 4096;
    public static final double DEFAULT_PAGES_PER_HOST = 30;
    public static final int DEFAULT_SEEDS = 256;
    /**
     * T of 4 s: a polite, steady offered load (about 300 pages/s over 4,096 IPs here) below what the machine can do,
     * as a production crawl runs, so a change in the rate means the crawler slowed down, not that the CPU ran out.
     * At T = 20 ms the crawl is CPU-bound and its rate follows the web's shape (BENCHMARKS.md, "Soak").
     */
    public static final long DEFAULT_POLITENESS_MS = 4_000;
    public static final int DEFAULT_PARTITIONS = 4;
    public static final int DEFAULT_MAX_DEPTH = 1000;
    public static final double DEFAULT_MINUTES = 15;
    public static final String DEFAULT_HEAP = "1g";
    public static final int DEFAULT_INTERVAL_SECONDS = 10;
    /**
     * A forced full collection a minute: about 0.5 s of pause on the 1 GiB heap, well under 1 % of the run, and 12
     * live-set points in the 12 judged minutes of a 15-minute soak. Shorter runs get an eighth of their length.
     */
    public static final int DEFAULT_LIVE_SET_SECONDS = 60;
    public static final int MIN_LIVE_SET_SECONDS = 5;
    public static final int DEFAULT_WINDOW_SECONDS = 60;
    public static final double DEFAULT_WARMUP_FRACTION = 0.20;
    public static final double DEFAULT_TOLERANCE = 0.10;
    public static final int DEFAULT_STOP_SECONDS = 180;
    public static final Path DEFAULT_DATA_DIR = Path.of("data", "bench-soak");

    private static final Pattern HEAP = Pattern.compile("(\\d{1,9})([kmgKMG]?)");

    public SoakConfig {
        if (pages < 1 || pages > 100_000_000) {
            throw new IllegalArgumentException("pages must be in 1..100000000, was " + pages);
        }
        if (ips < 1 || ips > 65_000) {
            throw new IllegalArgumentException("ips must be in 1..65000, was " + ips);
        }
        if (!(pagesPerHost >= 1)) {
            throw new IllegalArgumentException("pages per host must be >= 1, was " + pagesPerHost);
        }
        if (seeds < 1 || seeds > pages) {
            throw new IllegalArgumentException("seeds must be in 1..pages (" + pages + "), was " + seeds);
        }
        if (politenessMs < 1) {
            throw new IllegalArgumentException("politeness-ms must be >= 1, was " + politenessMs);
        }
        if (partitions < 1 || partitions > 1024) {
            throw new IllegalArgumentException("partitions must be in 1..1024, was " + partitions);
        }
        if (maxDepth < 0) {
            throw new IllegalArgumentException("max-depth must be >= 0, was " + maxDepth);
        }
        if (!(minutes > 0) || minutes > 24 * 60) {
            throw new IllegalArgumentException("minutes must be in (0, 1440], was " + minutes);
        }
        heapBytes(heap);
        if (intervalSeconds < 1 || intervalSeconds > 3600) {
            throw new IllegalArgumentException("interval-seconds must be in 1..3600, was " + intervalSeconds);
        }
        if (liveSetSeconds != 0 && (liveSetSeconds < MIN_LIVE_SET_SECONDS || liveSetSeconds > minutes * 60 / 8)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "live-set-seconds must be 0 (no forced "
                    + "full GCs) or in %d..%d (an eighth of the %s-minute run, so each judged quarter has two), "
                    + "was %d", MIN_LIVE_SET_SECONDS, (long) (minutes * 60 / 8), minutes, liveSetSeconds));
        }
        if (windowSeconds < intervalSeconds) {
            throw new IllegalArgumentException("window-seconds must be >= interval-seconds (" + intervalSeconds
                    + "), was " + windowSeconds);
        }
        if (!(warmupFraction >= 0) || warmupFraction > 0.25) {
            throw new IllegalArgumentException("warm-up fraction must be in [0, 0.25] (the heap check compares the "
                    + "second and last quarters of the run), was " + warmupFraction);
        }
        if (!(tolerance > 0) || tolerance >= 1) {
            throw new IllegalArgumentException("tolerance must be in (0, 1), was " + tolerance);
        }
        if (stopSeconds < 1) {
            throw new IllegalArgumentException("stop-seconds must be >= 1, was " + stopSeconds);
        }
        if (minutes * 60 * (1 - warmupFraction) < 2 * windowSeconds) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "a run of %s minutes with a %s warm-up "
                    + "leaves fewer than two %d s rate windows: run longer or shorten --window-seconds", minutes,
                    warmupFraction, windowSeconds));
        }
        Objects.requireNonNull(dataDir, "data dir");
        Objects.requireNonNull(jar, "jar");
        jvmOptions = List.copyOf(jvmOptions);
        for (String o : jvmOptions) {
            if (o.startsWith("-Xmx") || o.startsWith("-Xlog:gc")) {
                throw new IllegalArgumentException("set the heap with --heap and leave -Xlog:gc to the soak, was " + o);
            }
        }
        settings = Map.copyOf(settings);
    }

    /** The live-set interval for a run of this length when none is given: a minute, or an eighth of a short run. */
    public static int defaultLiveSetSeconds(double minutes) {
        return (int) Math.max(MIN_LIVE_SET_SECONDS, Math.min(DEFAULT_LIVE_SET_SECONDS, Math.floor(minutes * 60 / 8)));
    }

    /** The seed page ids: {@code seeds} pages spread evenly over {@code [0, pages)}, starting with page 0. */
    public List<Integer> seedPages() {
        List<Integer> out = new java.util.ArrayList<>(seeds);
        for (int i = 0; i < seeds; i++) {
            out.add((int) ((long) i * pages / seeds));
        }
        return out;
    }

    /** The length of the run in seconds. */
    public double seconds() {
        return minutes * 60;
    }

    /** The child's maximum heap in bytes. */
    public long heapBytes() {
        return heapBytes(heap);
    }

    static long heapBytes(String heap) {
        Matcher m = heap == null ? null : HEAP.matcher(heap);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("heap must be a size like 1g, 768m or 524288k, was " + heap);
        }
        long n = Long.parseLong(m.group(1));
        long bytes = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            default -> n;
        };
        if (bytes < (64L << 20)) {
            throw new IllegalArgumentException("heap must be at least 64m for the broker and four services, was "
                    + heap);
        }
        return bytes;
    }
}
