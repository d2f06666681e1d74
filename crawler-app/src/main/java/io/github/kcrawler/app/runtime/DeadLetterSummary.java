package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.service.DeadLetters;

import java.util.ArrayList;
import java.util.List;

/**
 * The records this crawl's services sent to {@code crawl.deadletter} (issue 20): how many, and the first few by
 * service, source topic, partition, offset and exception — field {@code deadLetters} of the summaries. Counted in
 * this process since it started; the topic itself keeps every letter of every run.
 *
 * @param count   letters written
 * @param first   up to {@link DeadLetters#RECENT} of them, per service in service order
 */
public record DeadLetterSummary(long count, List<DeadLetters.Letter> first) {
    public static final DeadLetterSummary NONE = new DeadLetterSummary(0, List.of());

    public DeadLetterSummary {
        first = List.copyOf(first);
    }

    public static DeadLetterSummary of(List<DeadLetters> services) {
        long count = 0;
        List<DeadLetters.Letter> first = new ArrayList<>();
        for (DeadLetters d : services) {
            count += d.count();
            for (DeadLetters.Letter l : d.recent()) {
                if (first.size() < DeadLetters.RECENT) {
                    first.add(l);
                }
            }
        }
        return new DeadLetterSummary(count, first);
    }

    /** Lines for the text summary: nothing when there were none. */
    public String describe(String topic) {
        if (count == 0) {
            return "dead letters: none";
        }
        StringBuilder sb = new StringBuilder(String.format("dead letters: %,d record(s) failed processing and were"
                + " sent to %s", count, topic));
        for (DeadLetters.Letter l : first) {
            sb.append(System.lineSeparator()).append("    ").append(l.describe());
        }
        if (count > first.size()) {
            sb.append(System.lineSeparator()).append(String.format("    ... and %,d more", count - first.size()));
        }
        return sb.toString();
    }
}
