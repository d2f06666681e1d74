package io.github.kcrawler.app.demo;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What a demo crawl of the simulated web runs with.
 *
 * @param graph        a BVGraph basename to serve, or null for a generated graph of {@code generatedPages}
 * @param maxPages     page budget (0 = the whole reachable web)
 * @param politenessMs T: minimum time between two requests to one simulated IP, checked by websim
 * @param ips          simulated server IPs (several hosts each)
 * @param latencyMs    websim's response latency
 * @param maxDepth     link depth limit
 * @param maxSeconds   give up after this long
 * @param settings     further service settings ({@code key -> value})
 * @param pagesPerHost mean pages per host of the generated web (smaller spreads the crawl over more hosts)
 * @param statusPort   port of the status page on 127.0.0.1 (0 = a free port, {@link #NO_STATUS_PAGE} = none)
 * @param hostile      serve every hostile mode of websim besides the ordinary web, with the short fetch timeouts
 *                     and per-host budget of {@link #HOSTILE_SETTINGS} (a setting given in {@code settings} wins)
 */
public record DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                          int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                          Map<String, String> settings, double pagesPerHost, int statusPort, boolean hostile) {
    /** {@code statusPort} value for no status page. */
    public static final int NO_STATUS_PAGE = -1;
    public static final double DEFAULT_PAGES_PER_HOST = 30;

    public static final int DEFAULT_GENERATED_PAGES = 20_000;
    public static final long DEFAULT_POLITENESS_MS = 100;
    public static final int DEFAULT_IPS = 256;
    public static final int DEFAULT_MAX_DEPTH = 1000;
    public static final Path DEFAULT_DATA_DIR = Path.of("data", "demo");
    public static final long DEFAULT_MAX_SECONDS = 1800;
    /** Pages of the generated web under {@code --hostile} unless {@code --pages} says otherwise. */
    public static final int DEFAULT_HOSTILE_PAGES = 1_000;
    /**
     * Fetcher settings of a hostile demo, so that it finishes in a minute or two: a trickling server is cut after
     * 10 s instead of 60 s, a silent one (robots.txt that never answers) after 5 s. Not shorter: on 2 cores shared
     * with other builds, an ordinary loopback fetch once took over 2 s and a 2 s first-byte timeout lost the seed. The per-host budget, which ends
     * the calendar and session-id traps, is set by the runner from the ordinary web's largest host.
     */
    public static final Map<String, String> HOSTILE_SETTINGS = Map.of(
            "connect-timeout-ms", "3000",
            "first-byte-timeout-ms", "5000",
            "read-timeout-ms", "5000",
            "total-timeout-ms", "10000");
    /** Mean pages per host under {@code --hostile}: small hosts keep the per-host budget, and so the traps, short. */
    public static final double DEFAULT_HOSTILE_PAGES_PER_HOST = 10;
    /** The smallest per-host budget of a hostile demo: how far the traps run before they are cut. */
    public static final long HOSTILE_MIN_PAGES_PER_HOST = 40;

    public DemoOptions {
        if (graph == null && generatedPages < 1) {
            throw new IllegalArgumentException("generated pages must be >= 1, was " + generatedPages);
        }
        if (maxPages < 0) {
            throw new IllegalArgumentException("max-pages must be >= 0 (0 = no limit), was " + maxPages);
        }
        if (politenessMs < 1) {
            throw new IllegalArgumentException("politeness-ms must be >= 1, was " + politenessMs);
        }
        if (ips < 1 || ips > 65_000) {
            throw new IllegalArgumentException("ips must be in 1..65000, was " + ips);
        }
        if (latencyMs < 0) {
            throw new IllegalArgumentException("latency-ms must be >= 0, was " + latencyMs);
        }
        if (maxDepth < 0) {
            throw new IllegalArgumentException("max-depth must be >= 0, was " + maxDepth);
        }
        Objects.requireNonNull(dataDir, "data dir");
        if (!(pagesPerHost >= 1)) {
            throw new IllegalArgumentException("pages per host must be >= 1, was " + pagesPerHost);
        }
        settings = Map.copyOf(settings);
        if (statusPort < NO_STATUS_PAGE || statusPort > 65_535) {
            throw new IllegalArgumentException("status port must be in 0..65535 (or -1 for none), was " + statusPort);
        }
    }

    /** Options without a status page. */
    public DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                       int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                       Map<String, String> settings, double pagesPerHost) {
        this(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions, dataDir, maxSeconds,
                progress, settings, pagesPerHost, NO_STATUS_PAGE, false);
    }

    /** Options without hostile modes. */
    public DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                       int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                       Map<String, String> settings, double pagesPerHost, int statusPort) {
        this(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions, dataDir, maxSeconds,
                progress, settings, pagesPerHost, statusPort, false);
    }
}
