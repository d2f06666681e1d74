package io.github.kcrawler.lab.faults;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fetchers' consumer group as the fault and scale scenarios wait for it. A fetcher process reports healthy before
 * the group has handed it partitions, and after a restart the group rebalances (with the cooperative assignor, in two
 * rounds). Until it has, the crawl has not recovered: a scale phase timed from the processes' health measured the
 * hand-over (CI, 2026-11-29: 5.2 → 6.7 → 6.1 pages/s for 1 → 3 → 1 fetchers), and a broker killed 2 s after a
 * restarted fetcher's crawl resumed cost 10 and 14 duplicate fetches in two CI runs of {@code FaultsIT}: pages
 * fetched in the last second before the kill were fetched again right after the broker came back, with the fetcher
 * reporting it was out of its group — most likely a rebalance still under way when the broker died (not proven).
 */
final class FetcherGroup {
    /** The group's id (the scenarios use no topic prefix). */
    static final String ID = "fetcher";
    private static final long POLL_MS = 200;

    private FetcherGroup() {
    }

    /**
     * Waits until the group is {@code STABLE} with exactly {@code members} members, each holding partitions; a broker
     * that does not answer yet counts as not settled.
     *
     * @return seconds waited
     * @throws IllegalStateException when it has not settled within {@code timeout} (the last description in the message)
     */
    static double awaitStable(Admin admin, int members, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        String last = "no answer";
        while (true) {
            try {
                ConsumerGroupDescription g = admin.describeConsumerGroups(List.of(ID)).all()
                        .get(10, TimeUnit.SECONDS).get(ID);
                if (settled(g, members)) {
                    return (System.nanoTime() - start) / 1e9;
                }
                last = g.toString();
            } catch (ExecutionException | TimeoutException e) {
                last = e.toString(); // the broker is restarting: ask again
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the fetcher group did not settle on " + members + " member(s) within "
                        + timeout + ": " + last);
            }
            Thread.sleep(POLL_MS);
        }
    }

    static boolean settled(ConsumerGroupDescription g, int members) {
        return g.groupState() == GroupState.STABLE && g.members().size() == members
                && g.members().stream().noneMatch(m -> m.assignment().topicPartitions().isEmpty());
    }
}
