package io.github.kcrawler.lab.faults;

import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the fault scenario measured. Every count is websim's own (its access log), not the crawler's.
 *
 * @param undisturbed         the undisturbed crawl's figures; null when there was none and the reference set was
 *                            every reachable page ({@link FaultScenario#runAgainstReachable})
 * @param lostUrls            pages of the reference set (fetched in the undisturbed run, or else every reachable
 *                            page) never fetched in the disturbed one
 * @param duplicateFetchRatio websim's duplicate page fetches / distinct pages fetched, disturbed run
 * @param politenessViolations websim's count for the disturbed run (two accesses to one IP closer than T)
 * @param revisitState        the scheduler's revisit-state changelog after the disturbed run
 * @param duplicatesByDisruption the disturbed run's duplicate fetches, each counted under the last disruption that
 *                            began before it ({@link #BEFORE_ANY_DISRUPTION} for those before the first)
 * @param goals               each goal of issue 9 item 3 and whether it was met
 */
public record FaultsResult(int v, Settings settings, RunFigures undisturbed, RunFigures disturbed,
                           long lostUrls, List<String> lostSample, double duplicateFetchRatio,
                           long politenessViolations, RevisitStateCheck revisitState,
                           List<Disruption> disruptions, List<String> exitedOnTheirOwn,
                           List<RunMonitor.Event> violationSample, List<RunMonitor.Event> duplicateSample,
                           Map<String, Long> duplicatesByDisruption, Map<String, Boolean> goals, boolean passed,
                           String machine) {
    /** 2: {@code duplicatesByDisruption}. */
    public static final int VERSION = 2;
    public static final String BEFORE_ANY_DISRUPTION = "before any disruption";
    /** Issue 9: duplicate fetches at most 1 % of pages. */
    public static final double MAX_DUPLICATE_RATIO = 0.01;

    /**
     * The scenario's settings, as the summary states them.
     *
     * @param fetchers                fetcher processes (the scenario runs two)
     * @param fetcherCommitIntervalMs the fetcher's commit interval: the production default, so the duplicates
     *                                measured are what a deployment would see
     */
    public record Settings(int pages, int ips, double pagesPerHost, long politenessMs, int partitions, int maxDepth,
                           long sessionTimeoutMs, long stopMs, long quietMs, String serviceHeap, int fetchers,
                           long fetcherCommitIntervalMs) {
    }

    /**
     * One crawl's figures.
     *
     * @param seconds  from seeding until the crawl was complete
     * @param timeS    sample times (seconds since seeding) of {@code distinct}
     * @param distinct distinct pages websim had served by then
     */
    public record RunFigures(double seconds, long reachable, long distinctPages, long pageFetches,
                             long duplicateFetches, long politenessViolations, double minGapMs, long robotsFetches,
                             long disallowedFetched, double[] timeS, long[] distinct) {
    }

    /**
     * One disruption: what was done to which process, when (seconds since seeding), when it was running again and
     * when the crawl had recovered (the process healthy and websim serving a new page, or the crawl complete).
     *
     * @param midCrawl whether pages were still missing when it happened
     */
    public record Disruption(String action, String target, double atS, double resumedAtS, double recoveredAtS,
                             long distinctAt, boolean midCrawl) {
        public String label() {
            return action + " " + target;
        }
    }

    /**
     * Counts each duplicate under the last disruption that began at or before it: a duplicate is the redo of work
     * that disruption cut short (the next owner refetching what a killed fetcher had not committed, say).
     */
    static Map<String, Long> attribute(double[] duplicateTimes, List<Disruption> disruptions) {
        Map<String, Long> byDisruption = new LinkedHashMap<>();
        byDisruption.put(BEFORE_ANY_DISRUPTION, 0L);
        for (Disruption d : disruptions) {
            byDisruption.put(d.label(), 0L);
        }
        for (double t : duplicateTimes) {
            String label = BEFORE_ANY_DISRUPTION;
            for (Disruption d : disruptions) {
                if (d.atS() <= t) {
                    label = d.label();
                }
            }
            byDisruption.merge(label, 1L, Long::sum);
        }
        return byDisruption;
    }

    static Map<String, Boolean> goals(long lost, double duplicateRatio, long violations, RevisitStateCheck revisit,
                                      List<Disruption> disruptions, List<String> exited) {
        Map<String, Boolean> g = new LinkedHashMap<>();
        g.put("noLostUrls", lost == 0);
        g.put("duplicatesAtMost1Percent", duplicateRatio <= MAX_DUPLICATE_RATIO);
        g.put("noPolitenessViolations", violations == 0);
        g.put("revisitStateIntact", revisit != null && revisit.missing() == 0 && revisit.unreadable() == 0);
        g.put("everyDisruptionMidCrawlAndRecovered", disruptions.stream()
                .allMatch(d -> d.midCrawl() && Double.isFinite(d.recoveredAtS())));
        g.put("noServiceExitedOnItsOwn", exited.isEmpty());
        return g;
    }

    public void write(Path file) throws IOException {
        JsonSerde.writeIndented(file, this);
    }

    /** A few lines for the terminal. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        if (undisturbed != null) {
            sb.append(String.format(Locale.ROOT, "undisturbed: %,d distinct pages of %,d reachable in %.1f s, "
                            + "%d duplicates, %d violations%n", undisturbed.distinctPages(), undisturbed.reachable(),
                    undisturbed.seconds(), undisturbed.duplicateFetches(), undisturbed.politenessViolations()));
        } else {
            sb.append(String.format(Locale.ROOT, "no undisturbed crawl: the reference is the %,d reachable pages%n",
                    disturbed.reachable()));
        }
        sb.append(String.format(Locale.ROOT, "disturbed:   %,d distinct pages in %.1f s, %d page fetches%n",
                disturbed.distinctPages(), disturbed.seconds(), disturbed.pageFetches()));
        for (Disruption d : disruptions) {
            sb.append(String.format(Locale.ROOT, "  %-20s at %6.1f s (%,6d pages)  running again %6.1f s  "
                            + "recovered %6.1f s%s%n", d.label(), d.atS(), d.distinctAt(), d.resumedAtS(),
                    d.recoveredAtS(), d.midCrawl() ? "" : "  (crawl already complete)"));
        }
        sb.append(String.format(Locale.ROOT, "lostUrls %d | duplicateFetchRatio %.4f (%d) | politenessViolations %d"
                        + " | revisit state: %d of %d fetched pages, %d missing, %d unreadable%n", lostUrls,
                duplicateFetchRatio, disturbed.duplicateFetches(), politenessViolations,
                revisitState == null ? 0 : revisitState.fetched() - revisitState.missing(),
                revisitState == null ? 0 : revisitState.fetched(), revisitState == null ? -1 : revisitState.missing(),
                revisitState == null ? -1 : revisitState.unreadable()));
        List<String> attributed = duplicatesByDisruption.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).toList();
        if (!attributed.isEmpty()) {
            sb.append("duplicates after each disruption: ").append(String.join("; ", attributed))
                    .append(String.format("%n"));
        }
        goals.forEach((k, ok) -> sb.append(String.format("  %-40s %s%n", k, ok ? "met" : "NOT MET")));
        return sb.toString();
    }
}
