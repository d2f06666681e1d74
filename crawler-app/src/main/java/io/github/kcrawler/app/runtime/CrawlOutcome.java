package io.github.kcrawler.app.runtime;

import java.util.List;

/**
 * How a crawl ended, for its exit code and its last words (issue 20, "honest exit").
 *
 * @param ending      why the loop stopped
 * @param problems    services that died or gave up, a sentence each (empty if none)
 * @param deadLetters records the services dead-lettered
 */
public record CrawlOutcome(Ending ending, List<String> problems, DeadLetterSummary deadLetters) {
    public enum Ending {
        /** {@link IdleRule}: nothing left to do. */
        IDLE,
        /** Stopped on request: Ctrl-C, a page budget spent. */
        STOPPED,
        /** The time limit passed. */
        TIME_LIMIT,
        /** A service died or gave up. */
        SERVICE_FAILED
    }

    public CrawlOutcome {
        problems = List.copyOf(problems);
    }

    public boolean serviceFailed() {
        return !problems.isEmpty();
    }

    /** What went wrong, a line each; empty for a clean crawl. */
    public List<String> reasons(String deadLetterTopic) {
        List<String> out = new java.util.ArrayList<>();
        for (String p : problems) {
            out.add("service failed: " + p);
        }
        if (deadLetters.count() > 0) {
            out.add(String.format("%,d record(s) could not be processed and were dead-lettered to %s"
                    + " (read them with kafka-console-consumer --property print.headers=true)", deadLetters.count(),
                    deadLetterTopic));
        }
        return out;
    }
}
