package io.github.kcrawler.app.demo;

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
 * @param elapsedSeconds from seeding to the last page fetched
 * @param pagesPerSecond distinct pages fetched per elapsed second
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
 *                       deferred_network) (format 2)
 * @param hostileAccesses requests websim counted per hostile mode (empty without {@code --hostile}) (format 2)
 * @param maxHeapBytes   the largest Java heap use of this process during the run: sampled every 100 ms and read
 *                       before each garbage collection (format 2)
 * @param heapBaselineBytes heap used after a full GC once broker, services and websim had started, before seeding
 *                       (format 2)
 * @param heapEndBytes   heap used after a full GC at the end of the crawl, services still running (format 2)
 * @param heapLimitBytes the JVM's maximum heap ({@code -Xmx}) (format 2)
 * @param deadLetters    records the services could not process and sent to {@code crawl.deadletter}: count and the
 *                       first few by service, topic, partition, offset and exception (format 2, issue 20)
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
                          DeadLetterSummary deadLetters) {
    public static final int VERSION = 2;

    public void write(Path file) throws IOException {
        JsonSerde.writeIndented(file, this);
    }

    public String toText() {
        String text = String.format("""
                Crawl finished: %,d distinct pages in %.1f s (%,.0f pages/s; %.1f s wall time)
                  expected (reachable within budget): %,d   missing: %,d
                  duplicate fetches: %,d   politeness violations: %,d (T = %d ms, smallest gap %.1f ms)
                  robots.txt fetches: %,d   disallowed pages fetched: %,d   WARC files written: %,d
                  fetch errors: %,d
                  not fetched or refused, by reason: %s
                  heap: max %s, baseline %s, end %s (after a full GC), limit %s""",
                distinctUrlsFetched, elapsedSeconds, pagesPerSecond, wallSeconds, expectedPages, missingPages,
                duplicateFetches, politenessViolations, politenessMs, minGapMs, robotsFetches, disallowedFetched,
                warcFiles, fetchErrors, join(errorsByReason), mib(maxHeapBytes), mib(heapBaselineBytes),
                mib(heapEndBytes), mib(heapLimitBytes));
        if (hostile) {
            text += String.format("%n  links rejected, by reason: %s%n  robots.txt fetches, by result: %s"
                            + "%n  requests to hostile hosts (websim's count): %s",
                    join(linksRejectedByReason), join(robotsFetchesByResult), join(hostileAccesses));
        }
        if (deadLetters != null) {
            text += String.format("%n  %s", deadLetters.describe("crawl.deadletter"));
        }
        return text;
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
}
