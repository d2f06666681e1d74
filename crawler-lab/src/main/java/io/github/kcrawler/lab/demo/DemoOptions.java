package io.github.kcrawler.lab.demo;

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
 * @param seeds        seed pages, spread evenly over the page ids ({@link #seedPages}) and so over the hosts
 * @param storeMetrics count state-store operations (RocksDB statistics through
 *                     {@link io.github.kcrawler.lab.measure.CountingRocksDbConfigSetter}; 5–10 % slower RocksDB by its wiki)
 * @param seedPageIds  seed pages by id, replacing {@code seeds} when not empty (bench order's seeds of a real graph)
 */
public record DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                          int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                          Map<String, String> settings, double pagesPerHost, int statusPort, boolean hostile,
                          int seeds, boolean storeMetrics, java.util.List<Integer> seedPageIds) {
    /** The setting {@link #storeMetrics} sets, to {@link io.github.kcrawler.lab.measure.CountingRocksDbConfigSetter}. */
    public static final String STORE_METRICS_KEY = "kafka.rocksdb.config.setter";
    /** {@code statusPort} value for no status page. */
    public static final int NO_STATUS_PAGE = -1;
    public static final double DEFAULT_PAGES_PER_HOST = 30;

    /*
     * The default demo's web (issue 19, item 4): a crawl that finishes in well under 90 s on 2 cores, and in which
     * politeness binds, so that the summary's politeness efficiency says how well the busiest servers are served.
     * A complete crawl needs at least (requests to the busiest IP) × T: the politeness bound, printed at start.
     * websim draws host sizes from a Pareto law capped at 100 × the mean pages per host; with 15,000 pages at a mean
     * of 5 (about 3,700 hosts) over 64 IPs, the busiest IP holds 559 pages (and 56 robots.txt): ≥ 61.5 s at
     * T = 100 ms, the ten busiest 310–559 pages (DemoDefaultsTest computes it from the layout). 64 IPs at one request
     * per T ask for at most 640 requests a second, which the pipeline carries on 2 cores, so the busy IPs keep a
     * backlog and are served once per T from their first request to their last; 100 seeds spread over the web
     * (DEFAULT_DEMO_SEEDS) start every busy IP within the first seconds. The former defaults (20,000 pages, a mean
     * of 3, 1,024 IPs, one seed: busiest IP 195 pages) crawled in ~40 s but no IP kept a backlog, so their
     * efficiency (0.36–0.51) measured discovery, not pacing; the ones before (256 IPs, a mean of 30) put 1,849
     * pages on one IP, ≥ 185 s. T stays at 100 ms, the floor BUbiNG warns below.
     */
    public static final int DEFAULT_GENERATED_PAGES = 15_000;
    public static final long DEFAULT_POLITENESS_MS = 100;
    public static final int DEFAULT_IPS = 64;
    /** Mean pages per host of the default demo's generated web (see above); bench e2e keeps {@link #DEFAULT_PAGES_PER_HOST}. */
    public static final double DEFAULT_DEMO_PAGES_PER_HOST = 5;
    /** Seed pages of the default demo's generated web (see above); one with {@code --hostile} or {@code --graph}. */
    public static final int DEFAULT_DEMO_SEEDS = 100;
    public static final int DEFAULT_MAX_DEPTH = 1000;
    public static final Path DEFAULT_DATA_DIR = Path.of("data", "demo");
    public static final long DEFAULT_MAX_SECONDS = 1800;
    /**
     * IPs of the generated web under {@code --hostile} unless {@code --ips} says otherwise: a host of its own for
     * nearly every one of its ~100 hosts, so a trickling hostile server holds no ordinary host's IP.
     */
    public static final int DEFAULT_HOSTILE_IPS = 1_024;
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
        if (seeds < 1 || (graph == null && seeds > generatedPages)) {
            throw new IllegalArgumentException("seeds must be in 1..pages, was " + seeds);
        }
        seedPageIds = java.util.List.copyOf(seedPageIds);
        for (Integer p : seedPageIds) {
            if (p < 0 || (graph == null && p >= generatedPages)) {
                throw new IllegalArgumentException("seed page ids must be in 0..pages-1, was " + p);
            }
        }
        if (storeMetrics && settings.containsKey(STORE_METRICS_KEY)) {
            throw new IllegalArgumentException("--store-metrics sets " + STORE_METRICS_KEY + "; do not set both");
        }
    }

    /** Options with seeds spread by count ({@code seeds}), none given by id. */
    public DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                       int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                       Map<String, String> settings, double pagesPerHost, int statusPort, boolean hostile,
                       int seeds, boolean storeMetrics) {
        this(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions, dataDir, maxSeconds,
                progress, settings, pagesPerHost, statusPort, hostile, seeds, storeMetrics, java.util.List.of());
    }

    /** Options with one seed and no store metrics. */
    public DemoOptions(Path graph, int generatedPages, long maxPages, long politenessMs, int ips, int latencyMs,
                       int maxDepth, int partitions, Path dataDir, long maxSeconds, boolean progress,
                       Map<String, String> settings, double pagesPerHost, int statusPort, boolean hostile) {
        this(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions, dataDir, maxSeconds,
                progress, settings, pagesPerHost, statusPort, hostile, 1, false);
    }

    /** These options with {@code n} seeds. */
    public DemoOptions withSeeds(int n) {
        return new DemoOptions(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions,
                dataDir, maxSeconds, progress, settings, pagesPerHost, statusPort, hostile, n, storeMetrics,
                seedPageIds);
    }

    /** These options with the seed pages given by id (they replace {@link #seeds}). */
    public DemoOptions withSeedPageIds(java.util.List<Integer> ids) {
        return new DemoOptions(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions,
                dataDir, maxSeconds, progress, settings, pagesPerHost, statusPort, hostile, seeds, storeMetrics, ids);
    }

    /** These options with state-store operations counted or not. */
    public DemoOptions withStoreMetrics(boolean on) {
        return new DemoOptions(graph, generatedPages, maxPages, politenessMs, ips, latencyMs, maxDepth, partitions,
                dataDir, maxSeconds, progress, settings, pagesPerHost, statusPort, hostile, seeds, on, seedPageIds);
    }

    /**
     * {@code n} seed pages of a web of {@code numPages}, spread evenly over the page ids: page
     * {@code floor(i · numPages / n)} for i = 0 .. n−1 (page 0 first, distinct while n ≤ numPages). Hosts own
     * runs of consecutive ids, so the seeds fall on hosts all over the web, deterministically.
     */
    public static java.util.List<Integer> seedPages(int n, int numPages) {
        if (n < 1 || n > numPages) {
            throw new IllegalArgumentException("seeds must be in 1.." + numPages + ", was " + n);
        }
        java.util.List<Integer> pages = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pages.add((int) ((long) i * numPages / n));
        }
        return java.util.List.copyOf(pages);
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
