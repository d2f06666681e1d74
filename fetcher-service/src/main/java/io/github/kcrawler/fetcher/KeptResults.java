package io.github.kcrawler.fetcher;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Built results of jobs whose partition left this instance before they were committed, by partition and record
 * offset, until the record comes back here or cannot any more (consumer thread only; {@link TransactionalOutput}
 * produces what they answer).
 *
 * <p>The usual case: a broker restart, after which every member of the group lost its partitions at once and was
 * given them again. A result kept here answers the new delivery of its record, and is committed with that
 * delivery's offset, instead of the page being fetched a second time.
 *
 * <p>Invariants: a kept result answers only a delivery of its own partition and offset; it is dropped as soon as
 * that delivery cannot come here any more — Kafka delivers a partition in offset order from its committed offset,
 * so once delivery starts past the record ({@link #passed}), or a completed rebalance leaves its partition elsewhere
 * ({@link #retain}), it is gone for good. Memory is bounded by what was in flight when the partitions left.
 */
final class KeptResults {
    private static final Logger LOG = LoggerFactory.getLogger(KeptResults.class);

    private final Map<TopicPartition, TreeMap<Long, Completion>> byPartition = new HashMap<>();
    /** The partitions the last completed rebalance left here; null while one is under way. */
    private Set<TopicPartition> assigned;
    /** Kept results that answered a new delivery since the last completed rebalance (for its log line). */
    private long answeredSinceRebalance;

    /**
     * The results of {@code c}, whose partition left ({@code s} is revoked): returns the later delivery of the same
     * record that already waits for them ({@link OffsetTracker.Slot#later()}), which they answer now; otherwise
     * keeps them for one, or drops them if the record cannot come back, and returns null.
     */
    OffsetTracker.Slot keep(Completion c, OffsetTracker.Slot s) {
        OffsetTracker.Slot later = s.later();
        if (later != null && !later.isRevoked() && !later.isDone() && !later.hasGivenUp() && later.earlier() == s) {
            return later;
        }
        if (assigned != null && !assigned.contains(s.partition)) {
            LOG.debug("results of {} not produced: its partition went to another instance", c.job().request.url());
            c.dropped(null); // the rebalance is over: the record cannot come back before the next one
            return null;
        }
        LOG.debug("results of {} kept: its partition left this instance before they were committed",
                c.job().request.url());
        Completion replaced = byPartition.computeIfAbsent(s.partition, tp -> new TreeMap<>()).put(s.offset, c);
        if (replaced != null && replaced != c) {
            replaced.dropped(null); // never lost silently: one set of results per record is enough
        }
        return null;
    }

    /** The results kept for the record {@code slot} delivers again, taken out; null if none are. */
    Completion take(OffsetTracker.Slot slot) {
        TreeMap<Long, Completion> byOffset = byPartition.isEmpty() ? null : byPartition.get(slot.partition);
        Completion c = byOffset == null ? null : byOffset.remove(slot.offset);
        if (c != null && byOffset.isEmpty()) {
            byPartition.remove(slot.partition);
        }
        return c;
    }

    /** Counts a kept result that answered a new delivery, for the next rebalance's log line. */
    void answered() {
        answeredSinceRebalance++;
    }

    /**
     * Records of {@code tp} below {@code offset} will not be delivered here again (Kafka delivers in offset order
     * from the committed offset, and another owner may have committed past them): their kept results are dropped.
     */
    void passed(TopicPartition tp, long offset) {
        TreeMap<Long, Completion> byOffset = byPartition.isEmpty() ? null : byPartition.get(tp);
        if (byOffset == null) {
            return;
        }
        SortedMap<Long, Completion> below = byOffset.headMap(offset);
        below.values().forEach(c -> c.dropped(null));
        below.clear();
        if (byOffset.isEmpty()) {
            byPartition.remove(tp);
        }
    }

    /** Partitions were revoked or lost: a rebalance is under way, and where they go is not known yet. */
    void rebalancing() {
        assigned = null;
    }

    /** A rebalance completed and this instance owns {@code owned}: results kept for other partitions are dropped. */
    void retain(Set<TopicPartition> owned) {
        assigned = Set.copyOf(owned);
        int before = size();
        byPartition.entrySet().removeIf(e -> {
            if (owned.contains(e.getKey())) {
                return false;
            }
            e.getValue().values().forEach(c -> c.dropped(null));
            return true;
        });
        int after = size();
        if (before > 0 || answeredSinceRebalance > 0) {
            LOG.info("fetch results kept across rebalances: {} answered a new delivery of their request since the "
                    + "last rebalance, {} now wait for their partition's records, {} dropped (their partitions went "
                    + "to other instances, which fetch them again)", answeredSinceRebalance, after, before - after);
        }
        answeredSinceRebalance = 0;
    }

    /** Results kept for a later delivery of their record. */
    int size() {
        int n = 0;
        for (TreeMap<Long, Completion> byOffset : byPartition.values()) {
            n += byOffset.size();
        }
        return n;
    }
}
