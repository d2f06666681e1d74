package io.github.kcrawler.lab.measure;

import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives every RocksDB store instance a block cache of {@value #CACHE_BYTES} bytes instead of Kafka Streams' 50 MiB,
 * so that a benchmark's state of a few hundred thousand pages stands to its cache as a crawl's state of tens of
 * millions does to the default one (the pattern of Kafka Streams' "RocksDB config setter" documentation). The size
 * comes from the Streams configuration (the crawler passes {@code kafka.}{@value #CACHE_BYTES} through). Lab only:
 * the product keeps Streams' defaults.
 */
public final class BlockCacheRocksDbConfigSetter implements RocksDBConfigSetter {
    /** The Streams configuration key of the cache size per store instance, in bytes. */
    public static final String CACHE_BYTES = "kcrawler.lab.rocksdb.block.cache.bytes";
    private static final AtomicInteger CONFIGURED = new AtomicInteger();
    private Cache cache;

    /** How many store instances this process has given a cache so far (a bench states it, as proof it applied). */
    public static int configured() {
        return CONFIGURED.get();
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Object v = configs.get(CACHE_BYTES);
        if (v == null) {
            throw new IllegalArgumentException(CACHE_BYTES + " is not set");
        }
        long bytes = Long.parseLong(v.toString().trim());
        if (bytes < 1) {
            throw new IllegalArgumentException(CACHE_BYTES + " must be >= 1, was " + bytes);
        }
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        cache = new LRUCache(bytes);
        table.setBlockCache(cache);
        options.setTableFormatConfig(table);
        CONFIGURED.incrementAndGet();
    }

    @Override
    public void close(String storeName, Options options) {
        if (cache != null) {
            cache.close();
            cache = null;
        }
    }
}
