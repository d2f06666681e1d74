package io.github.kcrawler.app.status;

import java.util.List;
import java.util.Map;

/**
 * What {@code GET /api/status} returns (JSON). Totals are cumulative since the services started; {@link Rates} are
 * over the last polling interval (about one second). A value that cannot be known yet (a percentile over an
 * interval without fetches, a hit rate without tests) is null, never a made-up zero.
 *
 * @param v                    format version of this document
 * @param time                 epoch milliseconds of the read
 * @param uptimeSeconds        since the status page started
 * @param source               what was read (in-process registry, or the scraped endpoints)
 * @param sourceErrors         endpoints or meters that could not be read at this poll
 * @param pagesFetched         requests that got a response (2xx–5xx, redirects, not-modified)
 * @param pagesPerSecond       over the last interval
 * @param bytesFetched         body bytes received
 * @param bytesPerSecond       over the last interval
 * @param fetchErrors          requests that failed (DNS, connection, timeout, protocol, malformed URL)
 * @param errorsByReason       failures by fetch outcome (lower case); every reason present, zeros included
 * @param declinedByReason     requests the crawler declined by policy (robots.txt, scope, page budget)
 * @param fetchesByStatus      fetches by HTTP status class ({@code none} = no response)
 * @param frontierSize         URLs waiting in the scheduler
 * @param inFlight             fetches on the network now
 * @param activeIps            IPs with at least one URL waiting in the scheduler
 * @param released             fetch requests the scheduler released
 * @param droppedByReason      URLs the scheduler dropped
 * @param linksDiscovered      outlinks sent to the URL-seen test
 * @param linksRejectedByReason outlinks not followed
 * @param dnsFailuresByReason  host names that did not resolve
 * @param warcRecords          WARC records written
 * @param rankUpdates          score updates the ranker published
 * @param badRecords           unreadable records skipped, all services
 * @param deadLetters          records that failed processing and were sent to {@code crawl.deadletter}, all
 *                             services ({@code crawler.deadletter.records})
 * @param deadLettersBySource  the same by {@code service topic} (only those that occurred)
 * @param urlSeen              URL-seen test counters by tier (paper 000)
 * @param rates                the last interval, also the newest point of {@code /api/history}
 * @param activity             busiest hosts and IPs and the most recent errors, read from the fetch results topic;
 *                             null when the page has no access to Kafka
 */
public record StatusReport(int v, long time, double uptimeSeconds, String source, List<String> sourceErrors,
                           long pagesFetched, Double pagesPerSecond, long bytesFetched, Double bytesPerSecond,
                           long fetchErrors, Map<String, Long> errorsByReason, Map<String, Long> declinedByReason,
                           Map<String, Long> fetchesByStatus, long frontierSize, long inFlight, long activeIps,
                           long released, Map<String, Long> droppedByReason, long linksDiscovered,
                           Map<String, Long> linksRejectedByReason, Map<String, Long> dnsFailuresByReason,
                           long warcRecords, long rankUpdates, long badRecords, long deadLetters,
                           Map<String, Long> deadLettersBySource, UrlSeen urlSeen, Rates rates,
                           Activity activity) {
    public static final int VERSION = 1;

    /**
     * The fetch results of the last {@code windowSeconds}: where the crawl spends its fetches, and what failed last.
     *
     * @param results      results in the window
     * @param busiestHosts hosts with the most results in the window (at most ten)
     * @param busiestIps   server IPs with the most results in the window (at most ten)
     * @param recentErrors the newest failures and HTTP errors first
     * @param read         results read since the page started
     * @param unreadable   records that could not be read
     * @param problem      why the topic cannot be read now (null when it can)
     */
    public record Activity(double windowSeconds, long results, List<Busiest> busiestHosts, List<Busiest> busiestIps,
                           List<RecentError> recentErrors, long read, long unreadable, String problem) {
    }

    /** A host or IP with its fetches, errors and body bytes in the window. */
    public record Busiest(String name, long fetches, long errors, long bytes) {
    }

    /** One failed fetch: when, what, where and why. */
    public record RecentError(long time, String url, String host, String ip, String outcome, int status,
                              String error) {
    }

    /** URL-seen tests (cumulative) and what each tier answered. */
    public record UrlSeen(long tests, long newUrls, long lruHits, long sbflPositives, long storageLookups,
                          long storageHits, long forgotten) {
    }

    /**
     * One point of the charts: rates and percentiles over one polling interval, sizes at its end.
     *
     * @param t                       epoch milliseconds
     * @param latencyP50Ms            fetch latency percentiles from the histogram's buckets over the interval
     * @param lruHitRate              share of the interval's URL-seen tests answered by the LRU
     * @param sbflHitRate             share answered "seen" by the SBFL
     * @param storageHitRate          share found in the fingerprint store
     * @param politenessWaitP50Ms     wait at the fetcher's per-IP guard, percentiles over the interval
     * @param errorsPerSecondByReason failures per second by outcome
     */
    public record Rates(long t, double intervalSeconds, double pagesPerSecond, double bytesPerSecond,
                        double errorsPerSecond, Double latencyP50Ms, Double latencyP90Ms, Double latencyP99Ms,
                        long frontierSize, long inFlight, long activeIps, double releasedPerSecond,
                        double urlSeenTestsPerSecond, Double lruHitRate, Double sbflHitRate, Double storageHitRate,
                        Double newUrlRate, double politenessWaitsPerSecond, Double politenessWaitP50Ms,
                        Double politenessWaitP99Ms, Map<String, Double> errorsPerSecondByReason) {
    }
}
