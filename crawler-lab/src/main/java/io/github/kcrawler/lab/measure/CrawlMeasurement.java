package io.github.kcrawler.lab.measure;

import io.github.kcrawler.websim.WebSim;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * Measures one crawl of the simulated web in this process, from {@link #start} (services running, before
 * seeding) to {@link #finish} (budget reached or crawl quiet): page rate and its windows and politeness efficiency
 * from websim's access times, CPU per thread group, records and bytes per topic, state-store operations when
 * asked, GC share. A figure that cannot be read (the cluster does not answer) is logged and left empty; it never
 * fails the crawl.
 */
public final class CrawlMeasurement implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlMeasurement.class);
    private static final long ADMIN_TIMEOUT_MS = 30_000;

    /**
     * The figures of issue 19, item 1, per page fetched (websim's count of page GETs answered 200 or 304).
     *
     * @param pageRate              page rate between 10 % and 90 % of the budget and its 10-second windows
     * @param elapsedSeconds        from seeding to the budget-th page request (the last one without a budget)
     * @param cpuMsPerPage          {@code total} and per thread group ({@link ThreadGroups#ALL})
     * @param recordsPerPage        {@code total} and per topic, from log-end offsets (transaction markers included)
     * @param bytesPerPage          {@code total} and per topic, from log sizes
     * @param storeOpsPerPage       RocksDB operations per page, or null without {@code --store-metrics}
     * @param gcShare               GC time / elapsed time of the measurement
     * @param politenessEfficiency  of the 10 busiest IPs
     * @param brokerRequestsPerPage requests the broker handled, {@code total} and per API (empty when the broker
     *                              is not in this process)
     * @param brokerLocalMsPerPage  milliseconds those requests spent in the broker's request handlers, likewise
     */
    public record Figures(PageRate pageRate, double elapsedSeconds, Map<String, Double> cpuMsPerPage,
                          Map<String, Double> recordsPerPage, Map<String, Double> bytesPerPage,
                          StoreOps storeOpsPerPage, double gcShare, PolitenessEfficiency politenessEfficiency,
                          Map<String, Double> brokerRequestsPerPage, Map<String, Double> brokerLocalMsPerPage) {
    }

    private final WebSim websim;
    private final Admin admin;
    private final boolean storeOps;
    private final AccessTimes accesses = new AccessTimes();
    private final ThreadCpuSampler cpu;
    private final LogOffsets offsetsAtStart;
    private final Map<String, long[]> storeOpsAtStart;
    private final long gcAtStart;
    private final BrokerRequests brokerAtStart;
    private BrokerRequests brokerAtEnd;
    private final long startNanos;
    private long seededNanos;
    private boolean stopped;
    private long endNanos;
    private long gcMillis;
    private LogOffsets offsetsAtEnd;
    private Map<String, long[]> storeOpsAtEnd = Map.of();

    private CrawlMeasurement(WebSim websim, Admin admin, String topicPrefix, boolean storeOps) {
        this.websim = websim;
        this.admin = admin;
        this.storeOps = storeOps;
        websim.accesses().addListener(accesses);
        this.offsetsAtStart = offsets(admin);
        this.storeOpsAtStart = storeOps ? CountingRocksDbConfigSetter.counts() : Map.of();
        this.gcAtStart = gcMillis();
        this.brokerAtStart = BrokerRequests.read();
        this.cpu = new ThreadCpuSampler(new ThreadGroups(topicPrefix), 200);
        this.startNanos = System.nanoTime();
        this.seededNanos = startNanos;
        cpu.start();
    }

    /**
     * Starts measuring now: call once the services run and before seeding.
     *
     * @param storeOps count state-store operations: the services must run with {@link CountingRocksDbConfigSetter}
     */
    public static CrawlMeasurement start(WebSim websim, Admin admin, String topicPrefix, boolean storeOps) {
        return new CrawlMeasurement(websim, admin, topicPrefix, storeOps);
    }

    /** Marks the start of the crawl proper (seeds sent). */
    public void seeded() {
        seededNanos = System.nanoTime();
    }

    /** Ends the measurement now (idempotent): CPU, GC, log-end offsets and store counts are read once here. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        cpu.stop();
        endNanos = System.nanoTime();
        if (LOG.isDebugEnabled() || Boolean.getBoolean("kcrawler.measure.threads")) {
            LOG.info("threads by group: {}", cpu.namesByGroup());
        }
        gcMillis = gcMillis() - gcAtStart;
        brokerAtEnd = BrokerRequests.read();
        websim.accesses().removeListener(accesses);
        offsetsAtEnd = offsets(admin);
        storeOpsAtEnd = storeOps ? CountingRocksDbConfigSetter.counts() : Map.of();
    }

    /**
     * Ends the measurement if not yet done ({@link #stop}) and computes the figures.
     *
     * @param budget       the page budget, or the pages of a complete crawl
     * @param pagesFetched pages fetched (the denominator of every per-page figure)
     * @param politenessMs T
     */
    public Figures finish(long budget, long pagesFetched, long politenessMs) {
        stop();
        Map<String, Double> records = Map.of();
        Map<String, Double> bytes = Map.of();
        if (offsetsAtStart != null && offsetsAtEnd != null) {
            records = LogOffsets.perPage(LogOffsets.records(offsetsAtStart, offsetsAtEnd), pagesFetched);
            bytes = LogOffsets.perPage(LogOffsets.bytes(offsetsAtStart, offsetsAtEnd), pagesFetched);
        }
        StoreOps ops = storeOps ? StoreOps.between(storeOpsAtStart, storeOpsAtEnd, pagesFetched) : null;
        double wallMs = (endNanos - startNanos) / 1e6;
        return new Figures(PageRate.of(accesses.pageTimesMs(), budget, PageRate.WINDOW_SECONDS),
                accesses.secondsToPage(seededNanos, budget),
                ThreadCpuSampler.msPerPage(cpu.cpuNanos(), pagesFetched), records, bytes, ops,
                wallMs > 0 ? gcMillis / wallMs : 0,
                PolitenessEfficiency.of(accesses.spans(), politenessMs, PolitenessEfficiency.TOP),
                BrokerRequests.requestsPerPage(brokerAtStart, brokerAtEnd, pagesFetched),
                BrokerRequests.localMsPerPage(brokerAtStart, brokerAtEnd, pagesFetched));
    }

    @Override
    public void close() {
        stop();
    }

    private static LogOffsets offsets(Admin admin) {
        try {
            return LogOffsets.read(admin, ADMIN_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            LOG.warn("could not read log-end offsets and log sizes; records and bytes per page left empty", e);
            return null;
        }
    }

    /** Total GC time of this JVM, in milliseconds, over every collector. */
    static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }
}
