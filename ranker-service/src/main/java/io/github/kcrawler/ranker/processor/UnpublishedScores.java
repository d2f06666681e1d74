package io.github.kcrawler.ranker.processor;

import it.unimi.dsi.fastutil.longs.Long2ObjectMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Objects;

/**
 * Which URLs' scores changed since the last publication, without a store of its own (issue 19: the former
 * {@code rank-pending} store wrote one changelog record per changed URL only to remember this).
 *
 * <h2>How</h2>
 * Publication happens in <em>flushes</em>, numbered by a per-task epoch E. Every write of a URL's entry to the
 * (already changelogged) score store carries the epoch it was made in; the set of URLs changed in the current epoch
 * is kept in memory. A flush publishes that set, clears it, increments E and writes E under a reserved key of the
 * same store ({@link #MARK_KEY}, one byte, so it can never be a fingerprint key): one extra changelog record per
 * flush and task, none per URL. For up to {@link #HELD_VALUES} URLs the set also holds the latest written entry, so
 * a flush publishes it without reading the store again (a profile of {@code bench e2e} put a third of the ranker
 * thread in the page store's cached {@code get}, which the flush repeated for every changed URL); beyond that (a long {@code flush-ms}) it holds the fingerprint
 * alone and the flush reads the entry.
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

    /** How many changed entries are held as values (~1 s of a fast crawl's changes); the rest are read at the flush. */
    static final int HELD_VALUES = 1 << 16;

    /** The reserved key of the epoch mark: one byte, while fingerprint keys have eight. */
    static final Bytes MARK_KEY = Bytes.wrap(new byte[] {0});

    private final KeyValueStore<Bytes, V> store;
    private final Epochs<V> epochs;
    /** Fingerprint → its latest entry, or null when not held (read from the store at the flush). */
    private final Long2ObjectOpenHashMap<V> changed = new Long2ObjectOpenHashMap<>();
    private final int heldValues;
    private int held;
    private long epoch;

    UnpublishedScores(KeyValueStore<Bytes, V> store, Epochs<V> epochs) {
        this(store, epochs, HELD_VALUES);
    }

    /** With another bound on the values held (tests reach it with a few URLs). */
    UnpublishedScores(KeyValueStore<Bytes, V> store, Epochs<V> epochs, int heldValues) {
        this.store = Objects.requireNonNull(store, "store");
        this.epochs = Objects.requireNonNull(epochs, "epochs");
        if (heldValues < 0) {
            throw new IllegalArgumentException("heldValues must be >= 0, was " + heldValues);
        }
        this.heldValues = heldValues;
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
        held = 0;
        try (KeyValueIterator<Bytes, V> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, V> next = it.next();
                if (next.key.get().length == Long.BYTES && next.value != null
                        && epochs.epochOf(next.value) >= epoch && epochs.publishable(next.value)) {
                    changed(FingerprintKeys.fingerprint(next.key), next.value);
                }
            }
        }
        return changed.size();
    }

    /** The epoch to store with an entry written now. */
    long epoch() {
        return epoch;
    }

    /**
     * Records that the entry of {@code fingerprint} was written as {@code value} (carrying {@link #epoch()}), to be
     * published by the next flush.
     */
    void changed(long fingerprint, V value) {
        Objects.requireNonNull(value, "value");
        V before = changed.get(fingerprint);
        if (before != null) {
            changed.put(fingerprint, value);
        } else if (held < heldValues) {
            changed.put(fingerprint, value);
            held++;
        } else {
            changed.put(fingerprint, null);
        }
    }

    /** Records that the entry of {@code fingerprint} was written as one not to publish: an earlier change is dropped. */
    void withdrawn(long fingerprint) {
        if (changed.remove(fingerprint) != null) {
            held--;
        }
    }

    int size() {
        return changed.size();
    }

    /** Receives one changed entry at a flush. */
    @FunctionalInterface
    interface Publisher<V> {
        void publish(long fingerprint, V latest);
    }

    /**
     * Hands every entry changed since the last flush, as last written, to {@code publish} once, then starts the next
     * epoch and writes its mark. Does nothing (and writes nothing) when nothing changed.
     */
    void flush(Publisher<V> publish) {
        if (changed.isEmpty()) {
            return;
        }
        for (Long2ObjectMap.Entry<V> e : changed.long2ObjectEntrySet()) {
            V latest = e.getValue() != null ? e.getValue() : store.get(FingerprintKeys.key(e.getLongKey()));
            if (latest != null && epochs.publishable(latest)) {
                publish.publish(e.getLongKey(), latest);
            }
        }
        changed.clear();
        held = 0;
        epoch++;
        store.put(MARK_KEY, epochs.mark(epoch));
    }
}
