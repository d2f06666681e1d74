package io.github.kcrawler.ranker.processor;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The URLs whose score changed since the last publication, as a changelog-backed store rather than a field: under
 * exactly-once a score change and its pending publication commit together, so a crash or a partition move between
 * a commit and the next flush neither loses nor invents an update. Shared by the ranker's score processors.
 */
final class PendingScores {
    private static final byte[] PENDING = {1};
    private final KeyValueStore<Bytes, byte[]> store;

    PendingScores(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    void mark(Bytes key) {
        store.put(key, PENDING);
    }

    /** Hands every pending key to {@code publish} once and clears it. */
    void drain(Consumer<Bytes> publish) {
        List<Bytes> due = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> next = it.next();
                due.add(next.key);
            }
        }
        for (Bytes key : due) {
            publish.accept(key);
            store.delete(key);
        }
    }
}
