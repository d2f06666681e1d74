package io.github.kcrawler.lab.demo;

import io.github.kcrawler.lab.measure.PolitenessEfficiency;
import io.github.kcrawler.lab.measure.StoreOps;
import io.github.kcrawler.app.runtime.DeadLetterSummary;
import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The result of a demo crawl. The counts of fetches, duplicates and politeness violations come from the simulated
 * web's own access accounting, not from the crawler.
 *
 * @param reachablePages pages reachable from the seeds within the depth limit, honouring robots.txt
 * @param expectedPages  min(reachablePages, maxPages): what a complete crawl fetches
 * @param elapsedSeconds from seeding to the budget-th page request websim saw (without a budget: the last page
 *                       request); format 2 and earlier: from the monitor's start to the last page fetched
 * @param pagesPerSecond page requests per second between 10 % and 90 % of the page budget (without a budget: of the
 *                       expected pages), from websim's access times, so start-up and the tail are excluded
 *                       ({@link io.github.kcrawler.lab.measure.PageRate}); format 2 and earlier: distinct pages per
 *                       elapsed second, now {@code meanPagesPerSecond}
 * @param stages         per-stage record counts and rates from the services' metrics
 * @param fetchErrors    fetches that failed (timeouts, resets, protocol errors, DNS and connect failures)
 * @param errorsByReason every fetch that did not end in ok, not_modified or redirect, by reason code (only reasons
 *                       that occurred), from the fetcher's metrics: the failures of {@code fetchErrors} and also
 *                       the server's refusals (http_error, throttled, too_large, inflated_too_large,
 *                       redirect_limit, redirect_loop) and the crawler's policy (robots_denied,
 *                       host_budget_exhausted, ...). Format 1 held the failures only
 * @param warcFiles      WARC files written
 * @param hostile        whether websim served its hostile modes (format 2)
 * @param wallSeconds    from the start of the command to the end of the crawl, broker and websim start included
 *                       (format 2)
 * @param linksRejectedByReason outlinks the fetcher dropped, by reason (trap-repeated-segments, trap-query-params,
 *                       limit, address, ...; only reasons that occurred) (format 2)
 * @param robotsFetchesByResult robots.txt fetches by how they ended (parsed, allow_all, deferred_http,
 *                       deferred_network, not_fetched: not sent because the asking request's partition moved; only
 *                       results that occurred) (format 2)
 * @param hostileAccesses requests websim counted per hostile mode (empty without {@code --hostile}) (format 2)
 * @param maxHeapBytes   the largest Java heap use of this process during the run: sampled every 100 ms and read
 *                       before each garbage collection (format 2)
 * @param heapBaselineBytes heap used after a full GC once broker, services and websim had started, before seeding
 *                       (format 2)
 * @param heapEndBytes   heap used after a full GC at the end of the crawl, services still running (format 2)
 * @param heapLimitBytes the JVM's maximum heap ({@code -Xmx}) (format 2)
 * @param meanPagesPerSecond distinct pages fetched per elapsed second, start-up and tail included (format 3)
 * @param slowestWindowPagesPerSecond the slowest 10-second window between 10 % and 90 % of the budget (format 3)
 * @param fastestWindowPagesPerSecond the fastest such window (format 3)
 * @param windows        how many full 10-second windows that span held (1: the span was shorter) (format 3)
 * @param cpuMsPerPage   CPU milliseconds per page fetched: {@code total} (the process) and per thread group —
 *                       broker, dedup, scheduler, ranker, fetcher, fetcherIo (Netty event loops and DNS), websim,
 *                       other Java threads, rocksdb (RocksDB's native flush and compaction threads, from /proc),
 *                       jvm (GC, JIT and other native threads)
 *                       ({@link io.github.kcrawler.lab.measure.ThreadGroups}) (format 3)
 * @param recordsPerPage records written per page fetched, {@code total} and per topic, changelogs, repartition
 *                       and the broker's internal topics included, from log-end offsets (transaction markers occupy
 *                       offsets and are counted) (format 3)
 * @param bytesPerPage   log bytes per page fetched, {@code total} and per topic, from the replicas' log sizes
 *                       (compaction can make a topic's figure smaller than what was written) (format 3)
 * @param storeOpsPerPage RocksDB operations per page fetched, with {@code --store-metrics}; null otherwise
 *                       ({@link io.github.kcrawler.lab.measure.StoreOps}) (format 3)
 * @param gcShare        GC time / elapsed time while measuring (format 3)
 * @param politenessEfficiency (requests × T) / (last − first request) for the 10 busiest IPs: min, median and
 *                       each IP ({@link io.github.kcrawler.lab.measure.PolitenessEfficiency}) (format 3)
 * @param seeds          seed pages the crawl started from (format 3)
 * @param busiestIpPages pages on the simulated IP that holds the most: the politeness bound of a complete crawl is
 *                       busiestIpPages × T (format 3)
 * @param boundedValues  server-controlled values the fetcher dropped or truncated at their limit, by
 *                       {@code "<field> <action>"} (only those that occurred; issue 20, docs/HOSTILE.md)
 * @param deadLetters    records the services could not process and sent to {@code crawl.deadletter}: count and the
 *                       first few by service, topic, partition, offset and exception (format 3, issue 20)
 * @param brokerRequestsPerPage requests the broker handled per page fetched, {@code total} and per API (Kafka's
 *                       {@code RequestsPerSec} counts; empty when the broker runs in another process)
 *                       ({@link io.github.kcrawler.lab.measure.BrokerRequests}) (format 3)
 * @param brokerLocalMsPerPage milliseconds per page those requests spent in the broker's request handlers
 *                       ({@code LocalTimeMs}), {@code total} and per API (format 3)
 */
public record DemoSummary(int v, String graph, int partitions, long politenessMs, int ips, long maxPages,
                          long pagesFetched, long distinctUrlsFetched, long duplicateFetches,
                          long politenessViolations, double minGapMs, long robotsFetches, long disallowedFetched,
                          long reachablePages, long expectedPages, long missingPages, long fetchErrors,
                          double elapsedSeconds, double pagesPerSecond, Map<String, Double> stages,
                          Map<String, Long> errorsByReason, int warcFiles,
                          boolean hostile, double wallSeconds, Map<String, Long> linksRejectedByReason,
                          Map<String, Long> robotsFetchesByResult, Map<String, Long> hostileAccesses,
                          long maxHeapBytes, long heapBaselineBytes, long heapEndBytes, long heapLimitBytes,
                          double meanPagesPerSecond, double slowestWindowPagesPerSecond,
                          double fastestWindowPagesPerSecond, int windows, Map<String, Double> cpuMsPerPage,
                          Map<String, Double> recordsPerPage, Map<String, Double> bytesPerPage,
                          StoreOps storeOpsPerPage, double gcShare, PolitenessEfficiency politenessEfficiency,
                          int seeds, long busiestIpPages, Map<String, Long> boundedValues,
                          DeadLetterSummary deadLetters, Map<String, Double> brokerRequestsPerPage,
                          Map<String, Double> brokerLocalMsPerPage) {
    public static final int VERSION = 3;

    public void write(Path file) throws IOException {
        JsonSerde.writeIndented(file, this);
    }

    public String toText() {
        String text = String.format("""
                Crawl finished: %,d distinct pages in %.1f s (mean %,.0f pages/s; %.1f s wall time)
                  expected (reachable within budget): %,d   missing: %,d
                  duplicate fetches: %,d   politeness violations: %,d (T = %d ms, smallest gap %.1f ms)
                  robots.txt fetches: %,d   disallowed pages fetched: %,d   WARC files written: %,d
                  fetch errors: %,d
                  not fetched or refused, by reason: %s
                  heap: max %s, baseline %s, end %s (after a full GC), limit %s""",
                distinctUrlsFetched, elapsedSeconds, meanPagesPerSecond, wallSeconds, expectedPages, missingPages,
                duplicateFetches, politenessViolations, politenessMs, minGapMs, robotsFetches, disallowedFetched,
                warcFiles, fetchErrors, join(errorsByReason), mib(maxHeapBytes), mib(heapBaselineBytes),
                mib(heapEndBytes), mib(heapLimitBytes));
        if (hostile) {
            text += String.format("%n  links rejected, by reason: %s%n  robots.txt fetches, by result: %s"
                            + "%n  requests to hostile hosts (websim's count): %s%n  bounded values: %s",
                    join(linksRejectedByReason), join(robotsFetchesByResult), join(hostileAccesses),
                    join(boundedValues));
        }
        if (cpuMsPerPage != null && !cpuMsPerPage.isEmpty()) {
            text += String.format("%n  CPU per page: %s ms", joinMs(cpuMsPerPage));
        }
        if (recordsPerPage != null && !recordsPerPage.isEmpty()) {
            text += String.format("%n  records per page: %.1f (bytes %,.0f); GC share %.1f %%",
                    recordsPerPage.getOrDefault("total", 0.0),
                    bytesPerPage == null ? 0.0 : bytesPerPage.getOrDefault("total", 0.0), 100 * gcShare);
        }
        if (storeOpsPerPage != null) {
            text += String.format("%n  state-store operations per page (RocksDB): %.1f", storeOpsPerPage.total());
        }
        if (brokerRequestsPerPage != null && brokerRequestsPerPage.containsKey("total")) {
            text += String.format("%n  broker requests per page: %.1f (%s)", brokerRequestsPerPage.get("total"),
                    topEntries(brokerRequestsPerPage, 4));
        }
        if (deadLetters != null) {
            text += String.format("%n  %s", deadLetters.describe("crawl.deadletter"));
        }
        // the two figures a newcomer looks for come last
        text += String.format("%n  pages/s between 10 %% and 90 %% of the budget: %,.0f (10-s windows: slowest %,.0f,"
                        + " fastest %,.0f)", pagesPerSecond, slowestWindowPagesPerSecond, fastestWindowPagesPerSecond);
        if (politenessEfficiency != null) {
            text += String.format("%n  politeness efficiency of the %d busiest IPs: min %.2f, median %.2f "
                            + "(1.0 = one request per T = %d ms); median gap between two requests to one of them "
                            + "%.1f ms", politenessEfficiency.ips().size(), politenessEfficiency.min(),
                    politenessEfficiency.median(), politenessMs, politenessEfficiency.medianGapMs());
        }
        return text;
    }

    private static String joinMs(Map<String, Double> ms) {
        return ms.entrySet().stream().filter(e -> e.getKey().equals("total") || e.getValue() >= 0.0005)
                .map(e -> String.format("%s %.3f", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static String join(Map<String, Long> counts) {
        if (counts == null || counts.isEmpty()) {
            return "none";
        }
        return counts.entrySet().stream().map(e -> String.format("%s %,d", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    /** The {@code n} largest entries but {@code total}, as "name value, …", one decimal. */
    private static String topEntries(Map<String, Double> m, int n) {
        return m.entrySet().stream().filter(e -> !e.getKey().equals("total"))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(n)
                .map(e -> String.format("%s %.1f", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
