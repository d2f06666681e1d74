package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchRequest;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link KeptResults} against an exact model: a result is kept until its own delivery takes it, delivery starts past
 * it, or a completed rebalance leaves its partition elsewhere; every result that leaves without answering is dropped
 * exactly once (its slot given up, its listener told), and none is ever lost silently. {@link KeptResultsIT} shows
 * the same with a real producer and broker.
 */
class KeptResultsTest {
    private static final List<TopicPartition> PARTITIONS = List.of(new TopicPartition("r", 0),
            new TopicPartition("r", 1), new TopicPartition("r", 2));

    /** One fetched job whose results are built; counts how often it was told it is over. */
    private static final class Job {
        final OffsetTracker.Slot slot;
        final Completion completion;
        int over;

        Job(TopicPartition tp, long offset) {
            this(new OffsetTracker.Slot(tp, offset));
        }

        Job(OffsetTracker.Slot slot) {
            this.slot = slot;
            String url = "http://127.0.0.1:1/" + slot.partition.partition() + "/" + slot.offset;
            FetchJob job = new FetchJob("127.0.0.1", FetchRequest.fresh(url, Fingerprints.url(url), 0, 1, 0), slot);
            completion = new Completion(job, 1, (j, e) -> over++);
        }
    }

    private record Key(TopicPartition tp, long offset) {
    }

    @Test
    void keptUntilTakenPassedOrGoneElsewhere_andEachDroppedOnce() {
        forAll(300, gen -> {
            KeptResults kept = new KeptResults();
            Map<Key, Job> model = new HashMap<>();
            Set<TopicPartition> assigned = null; // null: a rebalance is under way (as at start: no rebalance ended)
            List<Job> all = new ArrayList<>();
            Set<Job> answered = new HashSet<>();
            int steps = gen.intIn(1, 200);
            for (int i = 0; i < steps; i++) {
                TopicPartition tp = PARTITIONS.get(gen.intIn(0, PARTITIONS.size() - 1));
                long offset = gen.intIn(0, 15);
                Key key = new Key(tp, offset);
                switch (gen.weighted(5, 3, 2, 1, 1)) {
                    case 0 -> { // results ready after their partition left
                        Job j = new Job(tp, offset);
                        all.add(j);
                        assertThat(kept.keep(j.completion, j.slot)).as("no later delivery waits").isNull();
                        if (assigned != null && !assigned.contains(tp)) {
                            assertThat(j.over).as("gone elsewhere: dropped at once").isEqualTo(1);
                        } else {
                            Job before = model.put(key, j);
                            if (before != null) {
                                assertThat(before.over).as("replaced: the earlier one is dropped").isEqualTo(1);
                            }
                        }
                    }
                    case 1 -> { // the record is delivered here again
                        Completion c = kept.take(new OffsetTracker.Slot(tp, offset));
                        Job expected = model.remove(key);
                        assertThat(c).isSameAs(expected == null ? null : expected.completion);
                        if (expected != null) {
                            answered.add(expected);
                        }
                    }
                    case 2 -> { // delivery of tp starts at offset
                        kept.passed(tp, offset);
                        model.keySet().removeIf(k -> k.tp().equals(tp) && k.offset() < offset);
                    }
                    case 3 -> {
                        kept.rebalancing();
                        assigned = null;
                    }
                    default -> {
                        Set<TopicPartition> owned = new HashSet<>();
                        PARTITIONS.forEach(p -> {
                            if (gen.bool()) {
                                owned.add(p);
                            }
                        });
                        kept.retain(owned);
                        assigned = owned;
                        model.keySet().removeIf(k -> !owned.contains(k.tp()));
                    }
                }
                assertThat(kept.size()).isEqualTo(model.size());
            }
            for (Job j : all) {
                boolean waiting = model.containsValue(j);
                int expectedOver = waiting || answered.contains(j) ? 0 : 1;
                assertThat(j.over).as("job %s: told over once when dropped, never when kept or answered",
                        j.slot.partition + "@" + j.slot.offset).isEqualTo(expectedOver);
                assertThat(j.slot.hasGivenUp()).isEqualTo(expectedOver == 1);
            }
            kept.retain(Set.of());
            assertThat(kept.size()).isZero();
            assertThat(all).allSatisfy(j -> assertThat(j.over).isEqualTo(answered.contains(j) ? 0 : 1));
        });
    }

    @Test
    void resultsWhoseLaterDeliveryAlreadyWaitsAnswerItAtOnce() {
        TopicPartition tp = PARTITIONS.get(0);
        OffsetTracker tracker = new OffsetTracker();
        Job first = new Job(tracker.add(tp, 4));
        first.slot.started(); // on the network
        tracker.remove(List.of(tp)); // lost
        OffsetTracker.Slot again = tracker.add(tp, 4); // back, and delivered again: it waits for the earlier fetch
        again.started();
        assertThat(again.earlier()).isSameAs(first.slot);
        KeptResults kept = new KeptResults();
        assertThat(kept.keep(first.completion, first.slot)).isSameAs(again);
        assertThat(kept.size()).as("not kept: it answers now").isZero();
        assertThat(first.over).isZero();
    }
}
