package io.github.kcrawler.kafka.embedded;

import io.github.kcrawler.common.streams.JournalStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test store whose contents outlive the TopologyTestDriver that used it. The driver wipes its state directory
 * on close, so a restart cannot be shown with a RocksDB store there; handing the next driver a store that already
 * holds what the changelog would restore is exactly the situation a processor's {@code init} meets after a crash
 * (the embedded-broker tests cover the real changelog restore). It also counts the writes of keys that reach it
 * (the store's own writes, not its changelog's records: a journal store logs one record per commit). A write of
 * the empty key is a journal store's own bookkeeping (where its writer stands), not an entry, and is not counted.
 * Used by the scheduler's and the ranker's topology tests; test harness only, like {@link KafkaTestCluster}.
 */
public final class SurvivingStoreSupplier implements KeyValueBytesStoreSupplier {
    private final String storeName;
    private final ConcurrentSkipListMap<Bytes, byte[]> data = new ConcurrentSkipListMap<>();
    /** Writes that reached this store, i.e. records of its changelog (the logging layer sits right above it). */
    private final AtomicLong puts = new AtomicLong();
    private final AtomicLong deletes = new AtomicLong();

    /** @param storeName the name of the store this supplier stands in for */
    public SurvivingStoreSupplier(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public String name() {
        return storeName;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new Store();
    }

    @Override
    public String metricsScope() {
        return "surviving";
    }

    public int entries() {
        return data.size() - (data.containsKey(JournalStore.POSITION_KEY) ? 1 : 0);
    }

    /** Puts of a value that reached the store. */
    public long puts() {
        return puts.get();
    }

    /** Deletes that reached the store. */
    public long deletes() {
        return deletes.get();
    }

    private final class Store implements KeyValueStore<Bytes, byte[]> {
        private boolean open;

        @Override
        public String name() {
            return storeName;
        }

        @Override
        public void init(StateStoreContext context, StateStore root) {
            context.register(root, (key, value) -> put(Bytes.wrap(key), value));
            open = true;
        }

        @Override
        public void close() {
            open = false;
        }

        @Override
        public boolean persistent() {
            return false;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public Position getPosition() {
            return Position.emptyPosition();
        }

        @Override
        public void put(Bytes key, byte[] value) {
            if (key.equals(JournalStore.POSITION_KEY)) { // a journal store's position: bookkeeping, not an entry
                if (value == null) {
                    data.remove(key);
                } else {
                    data.put(key, value);
                }
            } else if (value == null) {
                deletes.incrementAndGet();
                data.remove(key);
            } else {
                puts.incrementAndGet();
                data.put(key, value);
            }
        }

        @Override
        public byte[] putIfAbsent(Bytes key, byte[] value) {
            byte[] old = data.get(key);
            if (old == null) {
                put(key, value);
            }
            return old;
        }

        @Override
        public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
            entries.forEach(kv -> put(kv.key, kv.value));
        }

        @Override
        public byte[] delete(Bytes key) {
            deletes.incrementAndGet();
            return data.remove(key);
        }

        @Override
        public byte[] get(Bytes key) {
            return data.get(key);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
            return iterator(data.subMap(from, true, to, true));
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> all() {
            return iterator(data);
        }

        @Override
        public long approximateNumEntries() {
            return data.size();
        }

        private KeyValueIterator<Bytes, byte[]> iterator(Map<Bytes, byte[]> view) {
            List<KeyValue<Bytes, byte[]>> snapshot = new ArrayList<>();
            view.forEach((k, v) -> snapshot.add(KeyValue.pair(k, v)));
            return new KeyValueIterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < snapshot.size();
                }

                @Override
                public KeyValue<Bytes, byte[]> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return snapshot.get(next++);
                }

                @Override
                public Bytes peekNextKey() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return snapshot.get(next).key;
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
