package io.github.kcrawler.lab.faults;

import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the scale scenario ({@link ScaleScenario}) measured; every count is websim's own.
 *
 * @param reachable            pages reachable within the depth limit: the crawl's goal
 * @param duplicateFetchRatio  duplicate page fetches / distinct pages
 * @param lostUrls             reachable pages never fetched
 * @param phases               the three phases: one fetcher, {@code maxFetchers}, one again
 * @param timeS                sample times (seconds since seeding) of {@code distinct}
 * @param goals                each goal of issue 23's scale test and whether it was met
 */
public record ScaleResult(int v, Settings settings, long reachable, long distinctPages, long pageFetches,
                          long duplicateFetches, double duplicateFetchRatio, long lostUrls, List<String> lostSample,
                          long politenessViolations, List<Phase> phases, double seconds,
                          List<String> exitedOnTheirOwn, double[] timeS, long[] distinct,
                          List<RunMonitor.Event> duplicateSample, List<RunMonitor.Event> violationSample,
                          Map<String, Boolean> goals, boolean passed,
                          String machine) {
    public static final int VERSION = 1;

    /** The scenario's settings, as the summary states them. */
    public record Settings(int pages, int ips, double pagesPerHost, long politenessMs, int partitions, int latencyMs,
                           int fetcherInFlight, int maxFetchers, double phaseSeconds, double warmupFraction,
                           long sessionTimeoutMs, String serviceHeap) {
    }

    /** One phase: how many fetcher processes ran, from when to when (seconds since seeding), pages at its ends. */
    public record Phase(String name, int fetchers, double startS, double endS, long distinctAtStart,
                        long distinctAtEnd) {
        public long pages() {
            return distinctAtEnd - distinctAtStart;
        }

        public double pagesPerSecond() {
            return endS > startS ? pages() / (endS - startS) : 0;
        }
    }

    /** Pages/s of the phase on N fetchers over the first phase's (NaN without three phases). */
    public double speedUp() {
        return phases.size() == 3 && phases.get(0).pagesPerSecond() > 0
                ? phases.get(1).pagesPerSecond() / phases.get(0).pagesPerSecond() : Double.NaN;
    }

    /** Pages/s of the phase on N fetchers over the last phase's (NaN without three phases). */
    public double slowDown() {
        return phases.size() == 3 && phases.get(2).pagesPerSecond() > 0
                ? phases.get(1).pagesPerSecond() / phases.get(2).pagesPerSecond() : Double.NaN;
    }

    public void write(Path file) throws IOException {
        JsonSerde.writeIndented(file, this);
    }

    /** A few lines for the terminal. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        for (Phase p : phases) {
            sb.append(String.format(Locale.ROOT, "  %-18s %d fetcher(s)  %6.1f .. %6.1f s  %,6d pages  %6.1f pages/s%n",
                    p.name(), p.fetchers(), p.startS(), p.endS(), p.pages(), p.pagesPerSecond()));
        }
        sb.append(String.format(Locale.ROOT, "speed-up %.2fx on scale-up, %.2fx back on scale-down%n", speedUp(),
                slowDown()));
        sb.append(String.format(Locale.ROOT, "distinct %,d of %,d reachable in %.1f s | lostUrls %d | "
                        + "duplicateFetchRatio %.4f (%d) | politenessViolations %d%n", distinctPages, reachable,
                seconds, lostUrls, duplicateFetchRatio, duplicateFetches, politenessViolations));
        goals.forEach((k, ok) -> sb.append(String.format("  %-40s %s%n", k, ok ? "met" : "NOT MET")));
        return sb.toString();
    }
}
