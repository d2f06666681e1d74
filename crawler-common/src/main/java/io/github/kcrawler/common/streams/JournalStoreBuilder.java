package io.github.kcrawler.common.streams;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a store whose changelog is a {@link JournalStore}'s: Streams' metered layer and (optionally) its record cache
 * over the journal over the inner store, topped by a thin layer that logs the journal's batch once the cache has been
 * flushed into it, before each commit. The topology sees a logged store (its changelog topic is
 * {@code <application.id>-<name>-changelog}, created and restored as for any logged store); Streams' own per-key
 * logging layer is left out, since the journal is the logging. Logging cannot be turned off.
 */
public final class JournalStoreBuilder<K, V> implements StoreBuilder<KeyValueStore<K, V>> {
    private final KeyValueBytesStoreSupplier inner;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private boolean caching;
    private Map<String, String> logConfig = new HashMap<>();
    private JournalSnapshots snapshots = JournalSnapshots.DEFAULTS;

    private JournalStoreBuilder(KeyValueBytesStoreSupplier inner, Serde<K> keySerde, Serde<V> valueSerde) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.keySerde = Objects.requireNonNull(keySerde, "keySerde");
        this.valueSerde = Objects.requireNonNull(valueSerde, "valueSerde");
    }

    /** A journal-logged store over {@code inner} (for instance {@code Stores.persistentKeyValueStore}), uncached. */
    public static <K, V> JournalStoreBuilder<K, V> of(KeyValueBytesStoreSupplier inner, Serde<K> keySerde,
                                                       Serde<V> valueSerde) {
        return new JournalStoreBuilder<>(inner, keySerde, valueSerde);
    }

    /** When snapshots are taken (a service's {@code journal-snapshot-*} settings); see {@link JournalStore}. */
    public JournalStoreBuilder<K, V> withSnapshots(JournalSnapshots when) {
        this.snapshots = Objects.requireNonNull(when, "snapshots");
        return this;
    }

    @Override
    public JournalStoreBuilder<K, V> withCachingEnabled() {
        caching = true;
        return this;
    }

    @Override
    public JournalStoreBuilder<K, V> withCachingDisabled() {
        caching = false;
        return this;
    }

    @Override
    public JournalStoreBuilder<K, V> withLoggingEnabled(Map<String, String> config) {
        this.logConfig = new HashMap<>(Objects.requireNonNull(config, "config"));
        return this;
    }

    @Override
    public JournalStoreBuilder<K, V> withLoggingDisabled() {
        throw new UnsupportedOperationException("a journal store is its changelog; use a plain store instead");
    }

    @Override
    public KeyValueStore<K, V> build() {
        JournalStore journal = new JournalStore(inner.get(), snapshots);
        KeyValueBytesStoreSupplier once = new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return inner.name();
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                return journal;
            }

            @Override
            public String metricsScope() {
                return inner.metricsScope();
            }
        };
        StoreBuilder<KeyValueStore<K, V>> stack = Stores.keyValueStoreBuilder(once, keySerde, valueSerde)
                .withLoggingDisabled();
        return new Top<>((caching ? stack.withCachingEnabled() : stack.withCachingDisabled()).build(), journal);
    }

    @Override
    public Map<String, String> logConfig() {
        return logConfig;
    }

    @Override
    public boolean loggingEnabled() {
        return true;
    }

    @Override
    public String name() {
        return inner.name();
    }

    /** The top of the stack: passes everything down, and logs the journal's batch after the cache's flush. */
    static final class Top<K, V> extends WrappedStateStore<KeyValueStore<K, V>, K, V> implements KeyValueStore<K, V> {
        private final JournalStore journal;

        Top(KeyValueStore<K, V> stack, JournalStore journal) {
            super(stack);
            this.journal = journal;
        }

        JournalStore journal() {
            return journal;
        }

        @Override
        public void flushCache() {
            super.flushCache();
            journal.flushJournal();
        }

        @Override
        public void clearCache() {
            super.clearCache();
            journal.clearJournal();
        }

        @Override
        public void put(K key, V value) {
            wrapped().put(key, value);
        }

        @Override
        public V putIfAbsent(K key, V value) {
            return wrapped().putIfAbsent(key, value);
        }

        @Override
        public void putAll(List<KeyValue<K, V>> entries) {
            wrapped().putAll(entries);
        }

        @Override
        public V delete(K key) {
            return wrapped().delete(key);
        }

        @Override
        public V get(K key) {
            return wrapped().get(key);
        }

        @Override
        public KeyValueIterator<K, V> range(K from, K to) {
            return wrapped().range(from, to);
        }

        @Override
        public KeyValueIterator<K, V> reverseRange(K from, K to) {
            return wrapped().reverseRange(from, to);
        }

        @Override
        public KeyValueIterator<K, V> all() {
            return wrapped().all();
        }

        @Override
        public KeyValueIterator<K, V> reverseAll() {
            return wrapped().reverseAll();
        }

        @Override
        public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(P prefix, PS prefixKeySerializer) {
            return wrapped().prefixScan(prefix, prefixKeySerializer);
        }

        @Override
        public long approximateNumEntries() {
            return wrapped().approximateNumEntries();
        }
    }
}
