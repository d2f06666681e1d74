package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link UnpublishedScores} against an exact model, over seeded random histories of page writes (unfetched pages
 * changing score, pages being fetched), flushes and restarts (the in-memory set lost, {@link UnpublishedScores#recover}
 * from the store), with the bound on held values from 0 (every entry read back at the flush) to above the history's
 * URL count: every flush publishes exactly the publishable entries written since the last flush, each with its
 * latest value, once. Seeded (PropertyCheck; rerun one try with -Dkc.seed).
 */
class UnpublishedScoresTest {

    @Test
    void everyFlushPublishesTheLatestValueOfEachPublishableEntryChangedSinceTheLastOne_once() {
        PropertyCheck.forAll(300, g -> {
            KeyValueStore<Bytes, RankPage> store = store();
            int held = g.of(0, 1, 3, 8, 1_000);
            UnpublishedScores<RankPage> scores = new UnpublishedScores<>(store, RankPage.EPOCHS, held);
            scores.recover();
            int urls = g.intIn(1, 30);
            Map<Long, RankPage> latest = new HashMap<>();
            Set<Long> changedSinceFlush = new HashSet<>();
            int steps = g.intIn(1, 200);
            for (int step = 0; step < steps; step++) {
                int op = g.weighted(70, 10, 15, 5);
                if (op == 0 || op == 1) {
                    long fp = g.intIn(1, urls);
                    RankPage before = latest.getOrDefault(fp, RankPage.unfetched("http://h/" + fp, "10.0.0.1"));
                    RankPage after = op == 0 ? before.withScore(before.score() + g.doubleIn(0.01, 1), 0.0,
                            scores.epoch()) : before.asFetched(before.score(), 2, List.of(), scores.epoch());
                    store.put(FingerprintKeys.key(fp), after);
                    latest.put(fp, after);
                    if (RankPage.EPOCHS.publishable(after)) {
                        scores.changed(fp, after);
                    } else {
                        scores.withdrawn(fp);
                    }
                    changedSinceFlush.add(fp);
                } else if (op == 2) {
                    Map<Long, RankPage> published = new HashMap<>();
                    scores.flush((fp, page) -> assertThat(published.put(fp, page)).as("%s once", fp).isNull());
                    Map<Long, RankPage> expected = new HashMap<>();
                    for (long fp : changedSinceFlush) {
                        if (RankPage.EPOCHS.publishable(latest.get(fp))) {
                            expected.put(fp, latest.get(fp));
                        }
                    }
                    assertThat(published).as("flush at step %d, held bound %d", step, held).isEqualTo(expected);
                    changedSinceFlush.clear();
                } else { // a restart: only the store survives
                    scores = new UnpublishedScores<>(store, RankPage.EPOCHS, held);
                    int recovered = scores.recover();
                    assertThat(recovered).isEqualTo(changedSinceFlush.stream()
                            .filter(fp -> RankPage.EPOCHS.publishable(latest.get(fp))).count());
                }
            }
        });
    }

    private static KeyValueStore<Bytes, RankPage> store() {
        KeyValueStore<Bytes, RankPage> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("pages"),
                Serdes.Bytes(), RankPageCodec.SERDE).withLoggingDisabled().build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
