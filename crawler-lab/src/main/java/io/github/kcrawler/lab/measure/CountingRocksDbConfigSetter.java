package io.github.kcrawler.lab.measure;

import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Options;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts the operations that reach each RocksDB state store, for {@code --store-metrics}: set as the Streams
 * services' {@code rocksdb.config.setter}, it gives every RocksDB instance a {@link Statistics} object and
 * changes nothing else. Kafka Streams' own store metrics ({@code stream-state-metrics}, recording level DEBUG) are
 * rates over a sample window with no cumulative count, so they could only be integrated, not counted; RocksDB's
 * tickers are counts.
 *
 * <p>Counted per store name, over all its instances (one per task): {@code reads} = keys read by get and multi-get
 * ({@code NUMBER_KEYS_READ + NUMBER_MULTIGET_KEYS_READ}), {@code writes} = keys written by put, delete and write
 * batches ({@code NUMBER_KEYS_WRITTEN}), {@code seeks} = iterator seeks ({@code NUMBER_DB_SEEK}), {@code nexts} =
 * iterator steps ({@code NUMBER_DB_NEXT + NUMBER_DB_PREV}). Not counted: what the Streams record cache answers
 * before RocksDB, and in-memory stores (the ranker's pending store). Statistics cost RocksDB 5–10 % (its wiki, "Statistics") per
 * operation, which is why this runs only when asked. Streams records its own RocksDB metrics only when the user
 * gave no statistics, so with this setter those are off.
 */
public final class CountingRocksDbConfigSetter implements RocksDBConfigSetter {
    /** Per store name: the live instances' statistics and the counts of closed ones. */
    private static final Map<String, Store> STORES = new TreeMap<>();
    private Statistics statistics;

    private static final class Store {
        final List<Statistics> live = new ArrayList<>();
        final long[] retired = new long[OPS];
    }

    /** The operation kinds, in the order of the arrays of {@link #counts()}. */
    public static final List<String> KINDS = List.of("reads", "writes", "seeks", "nexts");
    private static final int OPS = 4;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        statistics = new Statistics();
        options.setStatistics(statistics);
        synchronized (STORES) {
            STORES.computeIfAbsent(storeName, k -> new Store()).live.add(statistics);
        }
    }

    @Override
    public void close(String storeName, Options options) {
        if (statistics == null) {
            return;
        }
        synchronized (STORES) {
            Store s = STORES.get(storeName);
            if (s != null && s.live.remove(statistics)) {
                long[] c = read(statistics);
                for (int i = 0; i < OPS; i++) {
                    s.retired[i] += c[i];
                }
            }
        }
        statistics.close();
        statistics = null;
    }

    private static long[] read(Statistics s) {
        return new long[] {
            s.getTickerCount(TickerType.NUMBER_KEYS_READ) + s.getTickerCount(TickerType.NUMBER_MULTIGET_KEYS_READ),
            s.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN),
            s.getTickerCount(TickerType.NUMBER_DB_SEEK),
            s.getTickerCount(TickerType.NUMBER_DB_NEXT) + s.getTickerCount(TickerType.NUMBER_DB_PREV)};
    }

    /** Cumulative counts per store name since this process started, in the order of {@link #KINDS}. */
    public static Map<String, long[]> counts() {
        Map<String, long[]> out = new LinkedHashMap<>();
        synchronized (STORES) {
            STORES.forEach((name, s) -> {
                long[] c = s.retired.clone();
                for (Statistics st : s.live) {
                    long[] l = read(st);
                    for (int i = 0; i < OPS; i++) {
                        c[i] += l[i];
                    }
                }
                out.put(name, c);
            });
        }
        return out;
    }
}
