package io.github.kcrawler.ranker.processor;

import it.unimi.dsi.fastutil.longs.LongIterator;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Which URLs' scores changed since the last publication, without a store of its own (issue 19: the former
 * {@code rank-pending} store wrote one changelog record per changed URL only to remember this).
 *
 * <h2>How</h2>
 * Publication happens in <em>flushes</em>, numbered by a per-task epoch E. Every write of a URL's entry to the
 * (already changelogged) score store carries the epoch it was made in; the set of URLs changed in the current epoch
 * is kept in memory. A flush publishes that set, clears it, increments E and writes E under a reserved key of the
 * same store ({@link #MARK_KEY}, one byte, so it can never be a fingerprint key): one extra changelog record per
 * flush and task, none per URL.
 *
 * <h2>Why nothing is lost (exactly-once)</h2>
 * Under exactly-once a commit is a prefix of the task's processing: its store writes, its output records and its
 * input offsets become visible together or not at all. A flush's published records and its write of E + 1 happen in
 * one punctuation, so they are in the same commit. After a crash, a rebalance or a clean stop (whose last commit may
 * include changes made after the last flush), the task restarts from some commit C with mark E_C:
 * <ul>
 *   <li>an entry with epoch &lt; E_C was changed before a flush that is inside C, so its score (the latest in C,
 *   since any later change would have raised its epoch) was published in C;</li>
 *   <li>an entry with epoch ≥ E_C was changed after the last flush inside C and not published: {@link #recover}
 *   finds exactly these by one scan of the store at task start and marks them changed again.</li>
 * </ul>
 * So after any restart each changed score is published once by the next flush; nothing is lost and nothing is
 * published twice for one change. The price is that scan: O(entries of the partition) once per task start, cheaper
 * than the changelog restore the same start pays after a crash.
 *
 * <p>Not thread-safe; one per stream task.
 *
 * @param <V> the store's value type
 */
final class UnpublishedScores<V> {
    /** How the score store's values carry epochs. */
    interface Epochs<V> {
        /** The epoch the entry was last changed in (the task's epoch, for the mark). */
        long epochOf(V value);

        /** The value stored under {@link #MARK_KEY}: it records the current epoch. */
        V mark(long epoch);

        /** Whether a changed entry is to be published at all (incremental PageRank publishes unfetched URLs only). */
        boolean publishable(V value);
    }

    /** The reserved key of the epoch mark: one byte, while fingerprint keys have eight. */
    static final Bytes MARK_KEY = Bytes.wrap(new byte[] {0});

    private final KeyValueStore<Bytes, V> store;
    private final Epochs<V> epochs;
    private final LongOpenHashSet changed = new LongOpenHashSet();
    private long epoch;

    UnpublishedScores(KeyValueStore<Bytes, V> store, Epochs<V> epochs) {
        this.store = Objects.requireNonNull(store, "store");
        this.epochs = Objects.requireNonNull(epochs, "epochs");
    }

    /**
     * Reads the epoch mark and marks as changed every publishable entry written since the last flush the store
     * holds; call once when the task starts.
     *
     * @return how many entries were found changed and not yet published
     */
    int recover() {
        V mark = store.get(MARK_KEY);
        epoch = mark == null ? 0 : epochs.epochOf(mark);
        changed.clear();
        try (KeyValueIterator<Bytes, V> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, V> next = it.next();
                if (next.key.get().length == Long.BYTES && next.value != null
                        && epochs.epochOf(next.value) >= epoch && epochs.publishable(next.value)) {
                    changed.add(FingerprintKeys.fingerprint(next.key));
                }
            }
        }
        return changed.size();
    }

    /** The epoch to store with an entry written now. */
    long epoch() {
        return epoch;
    }

    /** Records that the entry of {@code fingerprint} changed (its store write carries {@link #epoch()}). */
    void changed(long fingerprint) {
        changed.add(fingerprint);
    }

    int size() {
        return changed.size();
    }

    /**
     * Hands every fingerprint changed since the last flush to {@code publish} once, then starts the next epoch and
     * writes its mark. Does nothing (and writes nothing) when nothing changed.
     */
    void flush(LongConsumer publish) {
        if (changed.isEmpty()) {
            return;
        }
        for (LongIterator it = changed.iterator(); it.hasNext(); ) {
            publish.accept(it.nextLong());
        }
        changed.clear();
        epoch++;
        store.put(MARK_KEY, epochs.mark(epoch));
    }
}
