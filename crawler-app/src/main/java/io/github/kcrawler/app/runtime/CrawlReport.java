package io.github.kcrawler.app.runtime;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * The summary {@code crawler crawl} prints when it stops: the numbers users ask for first, and where to look next.
 *
 * @param pagesFetched     responses received in this run
 * @param activeSeconds    from start to the last page fetched
 * @param errorsByReason   failed fetches by reason (only reasons that occurred)
 * @param declinedByReason fetches declined by policy: robots.txt, scope, page budget (only those that occurred)
 * @param boundedValues    server-controlled values dropped or truncated at their limit before they entered a record,
 *                         by {@code "<field> <action>"} (e.g. {@code "etag dropped"}; only those that occurred;
 *                         {@code crawler.fetch.values.bounded}, docs/HOSTILE.md "Bounded values")
 * @param deadLetters      records the services could not process, sent to {@code deadLetterTopic}
 */
public record CrawlReport(long pagesFetched, double activeSeconds, Map<String, Long> errorsByReason,
                          Map<String, Long> declinedByReason, WarcFiles warc, Map<String, Long> boundedValues,
                          DeadLetterSummary deadLetters, String deadLetterTopic) {
    public static CrawlReport of(CrawlMonitor monitor, WarcFiles warc) {
        return of(monitor, warc, DeadLetterSummary.NONE, "crawl.deadletter");
    }

    public static CrawlReport of(CrawlMonitor monitor, WarcFiles warc, DeadLetterSummary deadLetters,
                                 String deadLetterTopic) {
        return new CrawlReport(monitor.fetched(), monitor.activeSeconds(), monitor.countsOf(CrawlMonitor.FAILURES),
                monitor.countsOf(CrawlMonitor.DECLINED), warc, monitor.boundedValues(), deadLetters,
                deadLetterTopic);
    }

    public double pagesPerSecond() {
        return activeSeconds > 0 ? pagesFetched / activeSeconds : 0;
    }

    public String toText() {
        long errors = errorsByReason.values().stream().mapToLong(Long::longValue).sum();
        return String.format("""
                Crawl stopped: %,d pages fetched in %.1f s (%,.1f pages/s)
                  fetch errors: %,d%s
                  declined by policy: %s
                  bounded values: %s
                  %s
                  %s""", pagesFetched, activeSeconds, pagesPerSecond(), errors,
                errors == 0 ? "" : " (" + join(errorsByReason) + ")",
                declinedByReason.isEmpty() ? "none" : join(declinedByReason),
                boundedValues.isEmpty() ? "none" : join(boundedValues),
                deadLetters.describe(deadLetterTopic), warc.describe());
    }

    static String join(Map<String, Long> counts) {
        return counts.entrySet().stream().map(e -> String.format("%s %,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }
}
