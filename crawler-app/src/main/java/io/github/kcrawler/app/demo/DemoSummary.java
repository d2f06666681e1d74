package io.github.kcrawler.app.demo;

import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.file.Files;
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
 * @param errorsByReason failed fetches by reason (only reasons that occurred), from the fetcher's metrics
 * @param warcFiles      WARC files written
 */
public record DemoSummary(int v, String graph, int partitions, long politenessMs, int ips, long maxPages,
                          long pagesFetched, long distinctUrlsFetched, long duplicateFetches,
                          long politenessViolations, double minGapMs, long robotsFetches, long disallowedFetched,
                          long reachablePages, long expectedPages, long missingPages, long fetchErrors,
                          double elapsedSeconds, double pagesPerSecond, Map<String, Double> stages,
                          Map<String, Long> errorsByReason, int warcFiles) {
    public static final int VERSION = 1;

    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, JsonSerde.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(this));
    }

    public String toText() {
        return String.format("""
                Crawl finished: %,d distinct pages in %.1f s (%,.0f pages/s)
                  expected (reachable within budget): %,d   missing: %,d
                  duplicate fetches: %,d   politeness violations: %,d (T = %d ms, smallest gap %.1f ms)
                  robots.txt fetches: %,d   disallowed pages fetched: %,d   WARC files written: %,d
                  fetch errors: %,d%s""",
                distinctUrlsFetched, elapsedSeconds, pagesPerSecond, expectedPages, missingPages, duplicateFetches,
                politenessViolations, politenessMs, minGapMs, robotsFetches, disallowedFetched, warcFiles,
                fetchErrors, errorsByReason == null || errorsByReason.isEmpty() ? ""
                        : " (" + errorsByReason.entrySet().stream()
                        .map(e -> String.format("%s %,d", e.getKey(), e.getValue()))
                        .collect(java.util.stream.Collectors.joining(", ")) + ")");
    }
}
