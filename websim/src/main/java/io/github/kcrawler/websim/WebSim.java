package io.github.kcrawler.websim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running simulated web: graph, layout, server and access accounting, started from one {@link WebSimConfig}.
 * This is the entry point for embedding websim in-process (the crawler's demo and integration tests) as well as
 * for {@link WebSimMain}.
 *
 * <p>Start-up order matters because each part depends on the previous one: a real graph is loaded first so the
 * default seed (its page with the largest out-degree, a hub that reaches most of the big component) can be
 * protected from robots.txt rules when the layout is built; a generated graph is built over the layout's hosts, so
 * the layout comes first and the seed is page 0 (the home page of host 0). Explicit
 * {@link WebSimConfig#seedPages()} replace either default.
 */
public final class WebSim implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WebSim.class);

    private final WebSimConfig config;
    private final CsrGraph graph;
    private final SiteLayout layout;
    private final int[] seeds;
    private final ChangeSchedule changes;
    private final AccessRecorder recorder;
    private final WebSimServer server;
    private final Path hostsFile;
    private final boolean deleteHostsFile;

    private WebSim(WebSimConfig config, CsrGraph graph, SiteLayout layout, int[] seeds, ChangeSchedule changes,
            AccessRecorder recorder,
            WebSimServer server, Path hostsFile, boolean deleteHostsFile) {
        this.config = config;
        this.graph = graph;
        this.layout = layout;
        this.seeds = seeds;
        this.changes = changes;
        this.recorder = recorder;
        this.server = server;
        this.hostsFile = hostsFile;
        this.deleteHostsFile = deleteHostsFile;
    }

    /** Builds the web described by {@code config}, writes the hosts file and starts serving. */
    public static WebSim start(WebSimConfig config) throws IOException {
        long t0 = System.nanoTime();
        CsrGraph graph;
        SiteLayout layout;
        int[] seeds;
        if (config.generated()) {
            seeds = config.seedPages().isEmpty() ? new int[] {0} : toArray(config.seedPages());
            checkSeeds(seeds, config.generatePages());
            layout = SiteLayout.build(config.generatePages(), config, seeds);
            graph = GeneratedGraphSource.generate(layout);
        } else {
            graph = BvGraphSource.load(config.graph());
            seeds = config.seedPages().isEmpty() ? new int[] {graph.maxOutdegreePage()} : toArray(config.seedPages());
            checkSeeds(seeds, graph.numPages());
            layout = SiteLayout.build(graph.numPages(), config, seeds);
        }
        boolean tempHosts = config.hostsFile() == null;
        Path hosts = tempHosts ? Files.createTempFile("websim-", ".hosts") : config.hostsFile();
        ChangeSchedule changes = ChangeSchedule.of(config);
        AccessRecorder recorder = null;
        try {
            List<HostileMode> hostile = List.copyOf(config.hostile());
            Map<String, String> hostileHosts = new LinkedHashMap<>();
            for (HostileMode m : hostile) {
                hostileHosts.put(m.hostName(), m.ipAddress());
            }
            if (config.hostile().contains(HostileMode.GZIP_BOMB)) {
                HostileContent.gzipBomb(); // built in the background, ready before a crawler gets there
            }
            if (config.hostile().contains(HostileMode.MANY_LINKS)) {
                HostileContent.manyLinksPage();
            }
            layout.writeHostsFile(hosts, hostileHosts);
            recorder = new AccessRecorder(layout, hostile, config.politenessMs(), config.politenessToleranceMs(),
                    config.accessLog());
            PageRenderer renderer = new PageRenderer(layout, graph, seeds, List.copyOf(hostileHosts.keySet()));
            WebSimServer server = WebSimServer.start(layout, renderer, changes, recorder,
                    config.port(),
                    config.latencyMs(), config.ioThreads());
            LOG.info("websim: {}, {} hosts on {} addresses, port {}, started in {} ms", graph, layout.numHosts(),
                    layout.numIps(), server.port(), (System.nanoTime() - t0) / 1_000_000);
            return new WebSim(config, graph, layout, seeds, changes, recorder, server, hosts, tempHosts);
        } catch (IOException | RuntimeException e) {
            if (recorder != null) {
                recorder.close();
            }
            if (tempHosts) {
                Files.deleteIfExists(hosts);
            }
            throw e;
        }
    }

    private static int[] toArray(List<Integer> pages) {
        return pages.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void checkSeeds(int[] seeds, int numPages) {
        for (int s : seeds) {
            if (s >= numPages) {
                throw new IllegalArgumentException("seed page " + s + " is outside [0, " + numPages + ")");
            }
        }
    }

    public WebSimConfig config() {
        return config;
    }

    public WebGraphSource graph() {
        return graph;
    }

    public SiteLayout layout() {
        return layout;
    }

    /** When each page changes (the ground truth for revisit tests). */
    public ChangeSchedule changes() {
        return changes;
    }

    public int port() {
        return server.port();
    }

    /** The loopback socket addresses the server listens on, one per simulated IP. */
    public List<java.net.InetSocketAddress> boundAddresses() {
        return server.boundAddresses();
    }

    /** The seed page ids. */
    public int[] seedPages() {
        return seeds.clone();
    }

    /** Canonical URLs of the seed pages. */
    public List<String> seedUrls() {
        List<String> urls = new ArrayList<>(seeds.length);
        for (int s : seeds) {
            urls.add(url(s));
        }
        return List.copyOf(urls);
    }

    /** The canonical URL of {@code page}. */
    public String url(int page) {
        return layout.pageUrl(page, server.port());
    }

    /** The page id of a canonical page URL of this web, or -1 if {@code url} is not one. */
    public int pageOf(String url) {
        String prefix = "http://";
        if (url == null || !url.startsWith(prefix)) {
            return -1;
        }
        int slash = url.indexOf('/', prefix.length());
        if (slash < 0) {
            return -1;
        }
        int host = layout.hostIndex(url.substring(prefix.length(), slash));
        int page = WebSimHandler.parsePageId(url.substring(slash));
        return host >= 0 && page >= 0 && page < layout.numPages() && url.equals(url(page)) ? page : -1;
    }

    /** The hostile modes served (empty when none), each on its own host and address. */
    public java.util.Set<HostileMode> hostileModes() {
        return config.hostile();
    }

    /** The home page of {@code mode}'s host, linked from every seed page when the mode is enabled. */
    public String hostileUrl(HostileMode mode) {
        return "http://" + mode.hostName() + (server.port() == 80 ? "" : ":" + server.port()) + "/";
    }

    /** The hosts file ({@code IP hostname} lines) for the crawler's resolver. */
    public Path hostsFile() {
        return hostsFile;
    }

    /** What the server has observed so far. */
    public WebSimStats stats() {
        return recorder.snapshot();
    }

    /** The accounting itself: fetched pages, listeners, log flushing. */
    public AccessRecorder accesses() {
        return recorder;
    }

    /** A copy of the set of page ids fetched at least once. */
    public BitSet fetchedPages() {
        return recorder.fetchedPages();
    }

    /**
     * Pages a polite crawler reaches from the seeds within {@code maxDepth} links
     * ({@link WebGraphSource#UNLIMITED_DEPTH} for no limit): disallowed pages are neither fetched nor followed.
     */
    public BitSet reachablePages(int maxDepth) {
        return graph.reachableFrom(seeds, maxDepth, page -> !layout.isDisallowed(page));
    }

    /** Canonical URLs of {@link #reachablePages(int)}, in page-id order. */
    public List<String> reachableUrls(int maxDepth) {
        BitSet pages = reachablePages(maxDepth);
        List<String> urls = new ArrayList<>(pages.cardinality());
        for (int p = pages.nextSetBit(0); p >= 0; p = pages.nextSetBit(p + 1)) {
            urls.add(url(p));
        }
        return urls;
    }

    /** Stops the server, closes the access log and deletes a temporary hosts file. Stats stay readable. */
    @Override
    public void close() {
        server.close();
        recorder.close();
        if (deleteHostsFile) {
            try {
                Files.deleteIfExists(hostsFile);
            } catch (IOException e) {
                LOG.warn("could not delete {}", hostsFile, e);
            }
        }
    }
}
