package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.scheduler.politeness.PendingUrl;
import io.github.kcrawler.scheduler.politeness.Spill;
import io.micrometer.core.instrument.Counter;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The frontier's {@link Spill} in the scheduler's pending store: a deferred URL keeps its whole {@link PendingEntry}
 * under {@link Spill#key} (best score bucket first, then admission order) instead of its pending key, so it is as
 * durable as a pending URL — put and deleted in the same exactly-once transaction as the record that moved it — and
 * costs the frontier no heap. Moving an entry between the two keys is one delete and one put. Not thread-safe (one
 * per stream task, like the store).
 */
final class StoreSpill implements Spill {
    private static final Logger LOG = LoggerFactory.getLogger(StoreSpill.class);
    /** Every spill key lies in [FROM, TO]: '~' then hex digits, all below 'g'. */
    private static final String FROM = String.valueOf(Spill.PREFIX);
    private static final String TO = Spill.PREFIX + "g";

    private final KeyValueStore<String, PendingEntry> store;
    private final Counter deferred;
    private final Counter takenBack;
    private final List<KeyValue<String, PendingEntry>> batch = new ArrayList<>();
    private long size;
    /**
     * No spill key below this one is in the store: the last key taken back, lowered by every put below it. A scan
     * starts here, so it does not walk over the deletes of the keys taken back before (RocksDB keeps them as
     * tombstones until a compaction).
     */
    private String floor = FROM;

    StoreSpill(KeyValueStore<String, PendingEntry> store, Counter deferred, Counter takenBack) {
        this.store = store;
        this.deferred = deferred;
        this.takenBack = takenBack;
    }

    /** Whether a stored key is a spill key of this entry (else it is a pending key, or junk). */
    static boolean isSpillKey(String key, PendingEntry entry) {
        return key.charAt(0) == Spill.PREFIX && key.equals(Spill.key(entry.score(), entry.seq()));
    }

    /** Counts an entry found under a spill key while the task's frontier is rebuilt. */
    void restored() {
        size++;
    }

    /** Stores a newly admitted URL the frontier answered {@code DEFERRED} for. */
    void put(PendingEntry entry) {
        String key = Spill.key(entry.score(), entry.seq());
        store.put(key, entry);
        if (key.compareTo(floor) < 0) {
            floor = key;
        }
        size++;
        deferred.increment();
    }

    @Override
    public void defer(PendingUrl url) {
        String key = PendingEntry.key(url.ip(), url.seq());
        PendingEntry entry = store.get(key);
        if (entry == null) {
            // The index and the store are built together; this is a bug, not bad input. Say so loudly.
            LOG.error("deferred URL {} has no stored entry under {}", url, key);
            return;
        }
        store.delete(key);
        put(entry.withScore(url.score()));
    }

    @Override
    public int takeBack(int max, Sink sink) {
        if (size == 0 || max <= 0) {
            return 0;
        }
        batch.clear();
        scan(floor, max);
        if (batch.size() < max && batch.size() < size && !floor.equals(FROM)) {
            batch.clear(); // the count says there is more: look from the start once (the floor was wrong)
            scan(FROM, max);
        }
        int taken = 0;
        for (KeyValue<String, PendingEntry> kv : batch) {
            store.delete(kv.key);
            floor = kv.key; // keys come in order; none below it is left
            size--;
            PendingEntry entry = kv.value;
            if (entry != null && sink.accept(entry.toPendingUrl())) {
                store.put(entry.key(), entry);
                taken++;
                takenBack.increment();
            } // else a copy of a URL that is pending already (or junk, counted when it was rebuilt): nothing is lost
        }
        if (batch.size() < max && size != 0) {
            LOG.warn("spill counted {} deferred URLs but the store has no more; recounting as 0", size);
            size = 0;
        }
        if (size == 0) {
            floor = FROM;
        }
        batch.clear();
        return taken;
    }

    private void scan(String from, int max) {
        try (KeyValueIterator<String, PendingEntry> it = store.range(from, TO)) {
            while (it.hasNext() && batch.size() < max) {
                batch.add(it.next());
            }
        }
    }

    @Override
    public long size() {
        return size;
    }
}
