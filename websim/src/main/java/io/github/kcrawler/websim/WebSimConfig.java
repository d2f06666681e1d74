package io.github.kcrawler.websim;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Everything that defines a simulated web and its server, immutable and validated on construction (each message
 * names the field and the bad value). Defaults live in {@link #defaults()} and nowhere else; the command line and
 * embedding code start from {@link #builder()}.
 *
 * @param graph BVGraph basename to serve, or null to generate a graph of {@code generatePages} pages
 * @param generatePages pages of the generated graph (ignored when {@code graph} is set)
 * @param seed seed of every deterministic choice (host runs, IPs, robots.txt, generated links, page text)
 * @param meanPagesPerHost approximate mean number of pages per host (host sizes are heavy-tailed)
 * @param seedPages page ids to start crawling from; empty = page 0 for a generated graph, the page with the
 *     largest out-degree for a real one
 * @param ips number of simulated IP addresses (127.1.x.y), at most {@link SiteLayout#MAX_IPS}
 * @param port TCP port on every simulated address; 0 = pick a free one
 * @param latencyMs delay before each response is written, scheduled on the event loop
 * @param politenessMs T: an access to an IP less than T ms after the previous access to that IP is a politeness
 *     violation; 0 disables the check
 * @param politenessToleranceMs slack subtracted from T before comparing (clock and network jitter)
 * @param robotsDisallowFraction fraction of hosts whose robots.txt disallows some of their pages
 * @param crawlDelayFraction fraction of hosts whose robots.txt has a Crawl-delay
 * @param crawlDelaySeconds the Crawl-delay value those hosts announce
 * @param hostsFile where to write the hosts file, or null for a temporary file deleted on close
 * @param accessLog where to write the TSV access log, or null for none
 * @param ioThreads Netty event-loop threads; 0 = min(4, available processors)
 * @param changeModel how pages change: {@link ChangeModel#NONE} (static pages), or a per-page change interval drawn
 *     from paper 003's Zipf or Peaked distribution ({@link ChangeSchedule})
 * @param changeUnitMs the time unit of change intervals, ms (at least 1000, so that Last-Modified, which has whole
 *     seconds, differs between versions)
 * @param changeMaxInterval T: change intervals are 1…T units
 * @param timeSource the clock that decides a page's current version (and the Date header); tests pass a fake one
 * @param hostile the hostile modes served, each on its own host and address ({@link HostileMode}); empty (the
 *     default) = none, and then nothing of them is bound, linked or listed in the hosts file
 */
public record WebSimConfig(
        Path graph,
        int generatePages,
        long seed,
        double meanPagesPerHost,
        List<Integer> seedPages,
        int ips,
        int port,
        int latencyMs,
        long politenessMs,
        long politenessToleranceMs,
        double robotsDisallowFraction,
        double crawlDelayFraction,
        double crawlDelaySeconds,
        Path hostsFile,
        Path accessLog,
        int ioThreads,
        ChangeModel changeModel,
        long changeUnitMs,
        int changeMaxInterval,
        InstantSource timeSource,
        Set<HostileMode> hostile) {

    public static final int MAX_GENERATED_PAGES = 100_000_000;
    /** The largest change interval T accepted, in units. */
    public static final int MAX_CHANGE_INTERVAL = 10_000_000;
    /** The largest change time unit accepted: one day. */
    public static final long MAX_CHANGE_UNIT_MS = 86_400_000L;

    public WebSimConfig {
        check(generatePages >= 1 && generatePages <= MAX_GENERATED_PAGES,
                "generatePages must be in [1, " + MAX_GENERATED_PAGES + "], was " + generatePages);
        check(meanPagesPerHost >= 1.0 && meanPagesPerHost <= 1_000_000.0,
                "meanPagesPerHost must be in [1, 1000000], was " + meanPagesPerHost);
        check(seedPages != null, "seedPages must not be null (use an empty list for the default)");
        for (Integer p : seedPages) {
            check(p != null && p >= 0, "seedPages must be page ids >= 0, was " + p);
        }
        seedPages = List.copyOf(seedPages);
        check(ips >= 1 && ips <= SiteLayout.MAX_IPS, "ips must be in [1, " + SiteLayout.MAX_IPS + "], was " + ips);
        check(port >= 0 && port <= 65535, "port must be in [0, 65535], was " + port);
        check(latencyMs >= 0 && latencyMs <= 600_000, "latencyMs must be in [0, 600000], was " + latencyMs);
        check(politenessMs >= 0, "politenessMs must be >= 0, was " + politenessMs);
        check(politenessToleranceMs >= 0, "politenessToleranceMs must be >= 0, was " + politenessToleranceMs);
        check(robotsDisallowFraction >= 0 && robotsDisallowFraction <= 1,
                "robotsDisallowFraction must be in [0, 1], was " + robotsDisallowFraction);
        check(crawlDelayFraction >= 0 && crawlDelayFraction <= 1,
                "crawlDelayFraction must be in [0, 1], was " + crawlDelayFraction);
        check(crawlDelaySeconds > 0 && crawlDelaySeconds <= 86_400,
                "crawlDelaySeconds must be in (0, 86400], was " + crawlDelaySeconds);
        check(ioThreads >= 0 && ioThreads <= 256, "ioThreads must be in [0, 256], was " + ioThreads);
        check(changeModel != null, "changeModel must not be null (NONE for static pages)");
        check(changeUnitMs >= 1000 && changeUnitMs <= MAX_CHANGE_UNIT_MS,
                "changeUnitMs must be in [1000, " + MAX_CHANGE_UNIT_MS + "], was " + changeUnitMs);
        check(changeMaxInterval >= 1 && changeMaxInterval <= MAX_CHANGE_INTERVAL,
                "changeMaxInterval must be in [1, " + MAX_CHANGE_INTERVAL + "], was " + changeMaxInterval);
        check(timeSource != null, "timeSource must not be null (InstantSource.system() for the real clock)");
        check(hostile != null, "hostile must not be null (an empty set for none)");
        for (HostileMode m : hostile) {
            check(m != null, "hostile must not contain null, was " + hostile);
        }
        hostile = hostile.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(hostile));
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The defaults: a generated 20,000-page web on 64 addresses, T = 1000 ms, 10% of hosts with Disallow, static
     * pages (when a change model is chosen: 1-minute units, intervals up to 9,600 units, paper 003's smaller T), the
     * system clock, no hostile modes.
     */
    public static WebSimConfig defaults() {
        return new WebSimConfig(null, 20_000, 42L, 30.0, List.of(), 64, 0, 0, 1000L, 0L, 0.10, 0.0, 1.0, null, null,
                0, ChangeModel.NONE, 60_000L, 9_600, InstantSource.system(), Set.of());
    }

    public static Builder builder() {
        return new Builder(defaults());
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Whether the graph is generated rather than loaded. */
    public boolean generated() {
        return graph == null;
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private Path graph;
        private int generatePages;
        private long seed;
        private double meanPagesPerHost;
        private List<Integer> seedPages;
        private int ips;
        private int port;
        private int latencyMs;
        private long politenessMs;
        private long politenessToleranceMs;
        private double robotsDisallowFraction;
        private double crawlDelayFraction;
        private double crawlDelaySeconds;
        private Path hostsFile;
        private Path accessLog;
        private int ioThreads;
        private ChangeModel changeModel;
        private long changeUnitMs;
        private int changeMaxInterval;
        private InstantSource timeSource;
        private Set<HostileMode> hostile;

        private Builder(WebSimConfig c) {
            graph = c.graph;
            generatePages = c.generatePages;
            seed = c.seed;
            meanPagesPerHost = c.meanPagesPerHost;
            seedPages = c.seedPages;
            ips = c.ips;
            port = c.port;
            latencyMs = c.latencyMs;
            politenessMs = c.politenessMs;
            politenessToleranceMs = c.politenessToleranceMs;
            robotsDisallowFraction = c.robotsDisallowFraction;
            crawlDelayFraction = c.crawlDelayFraction;
            crawlDelaySeconds = c.crawlDelaySeconds;
            hostsFile = c.hostsFile;
            accessLog = c.accessLog;
            ioThreads = c.ioThreads;
            changeModel = c.changeModel;
            changeUnitMs = c.changeUnitMs;
            changeMaxInterval = c.changeMaxInterval;
            timeSource = c.timeSource;
            hostile = c.hostile;
        }

        /** Serve the BVGraph at {@code basename} (null: generate). */
        public Builder graph(Path basename) {
            this.graph = basename;
            return this;
        }

        /** Generate a graph of {@code pages} pages (and clear any graph basename). */
        public Builder generate(int pages) {
            this.graph = null;
            this.generatePages = pages;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder meanPagesPerHost(double mean) {
            this.meanPagesPerHost = mean;
            return this;
        }

        public Builder seedPages(List<Integer> pages) {
            this.seedPages = pages;
            return this;
        }

        public Builder ips(int ips) {
            this.ips = ips;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder latencyMs(int latencyMs) {
            this.latencyMs = latencyMs;
            return this;
        }

        public Builder politenessMs(long politenessMs) {
            this.politenessMs = politenessMs;
            return this;
        }

        public Builder politenessToleranceMs(long toleranceMs) {
            this.politenessToleranceMs = toleranceMs;
            return this;
        }

        public Builder robotsDisallowFraction(double fraction) {
            this.robotsDisallowFraction = fraction;
            return this;
        }

        public Builder crawlDelayFraction(double fraction) {
            this.crawlDelayFraction = fraction;
            return this;
        }

        public Builder crawlDelaySeconds(double seconds) {
            this.crawlDelaySeconds = seconds;
            return this;
        }

        public Builder hostsFile(Path file) {
            this.hostsFile = file;
            return this;
        }

        public Builder accessLog(Path file) {
            this.accessLog = file;
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = threads;
            return this;
        }

        /** How pages change (NONE: static). */
        public Builder changeModel(ChangeModel model) {
            this.changeModel = model;
            return this;
        }

        /** The time unit of change intervals, ms (≥ 1000). */
        public Builder changeUnitMs(long unitMs) {
            this.changeUnitMs = unitMs;
            return this;
        }

        /** T: change intervals are 1…T units. */
        public Builder changeMaxInterval(int maxInterval) {
            this.changeMaxInterval = maxInterval;
            return this;
        }

        /** The clock deciding page versions (tests: a fake one). */
        public Builder timeSource(InstantSource source) {
            this.timeSource = source;
            return this;
        }

        /** The hostile modes to serve (empty: none); see {@link HostileMode#parseList(String)} for a CLI list. */
        public Builder hostile(Set<HostileMode> modes) {
            this.hostile = modes;
            return this;
        }

        public WebSimConfig build() {
            return new WebSimConfig(graph, generatePages, seed, meanPagesPerHost, seedPages, ips, port, latencyMs,
                    politenessMs, politenessToleranceMs, robotsDisallowFraction, crawlDelayFraction, crawlDelaySeconds,
                    hostsFile, accessLog, ioThreads, changeModel, changeUnitMs, changeMaxInterval, timeSource,
                    hostile);
        }
    }
}
