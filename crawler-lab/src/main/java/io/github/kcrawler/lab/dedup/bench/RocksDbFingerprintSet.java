package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.store.FingerprintSet;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link FingerprintSet} directly on RocksDB, for the url-seen throughput benchmark only: the service's set goes
 * through a Kafka Streams store ({@code KeyValueFingerprintSet}), which adds a changelog write per insert on top of
 * this. Options follow Kafka Streams' RocksDBStore defaults (50 MiB LRU block cache, 4 KiB blocks, 10-bit Bloom
 * filter, 16 MiB write buffers ×3, no compression, universal compaction, WAL off) except that
 * {@code optimizeFiltersForHits} is left off, so every level keeps its Bloom filter — the best case for a
 * RocksDB-only URL-seen test, whose lookups of new URLs are all misses. Keys are the fingerprint as 8 big-endian
 * bytes, values one byte, as in the service.
 */
public final class RocksDbFingerprintSet implements FingerprintSet, AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] MARKER = {1};

    private final LRUCache cache;
    private final BloomFilter filter;
    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final byte[] key = new byte[Long.BYTES];

    /** Opens (creating) a database in {@code dir}, which must be empty or absent. */
    public RocksDbFingerprintSet(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (var listing = Files.list(dir)) {
            if (listing.findAny().isPresent()) {
                throw new IOException("RocksDB directory " + dir + " is not empty");
            }
        }
        cache = new LRUCache(50L * 1024 * 1024);
        filter = new BloomFilter(10.0, false);
        BlockBasedTableConfig table = new BlockBasedTableConfig();
        table.setBlockCache(cache);
        table.setBlockSize(4096L);
        table.setFilterPolicy(filter);
        options = new Options();
        options.setTableFormatConfig(table);
        options.setWriteBufferSize(16L * 1024 * 1024);
        options.setMaxWriteBufferNumber(3);
        options.setCompressionType(CompressionType.NO_COMPRESSION);
        options.setCompactionStyle(CompactionStyle.UNIVERSAL);
        options.setCreateIfMissing(true);
        options.setErrorIfExists(false);
        options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
        options.setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
        writeOptions = new WriteOptions().setDisableWAL(true);
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            close();
            throw new IOException("cannot open RocksDB in " + dir, e);
        }
    }

    @Override
    public boolean add(long fingerprint) {
        byte[] k = key(fingerprint);
        try {
            if (db.get(k) != null) {
                return false;
            }
            db.put(writeOptions, k, MARKER);
            return true;
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB add failed", e));
        }
    }

    @Override
    public boolean contains(long fingerprint) {
        try {
            return db.get(key(fingerprint)) != null;
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB get failed", e));
        }
    }

    @Override
    public void remove(long fingerprint) {
        try {
            db.delete(writeOptions, key(fingerprint));
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB delete failed", e));
        }
    }

    private byte[] key(long fingerprint) {
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            key[i] = (byte) fingerprint;
            fingerprint >>>= 8;
        }
        return key;
    }

    @Override
    public void close() {
        if (db != null) {
            db.close();
        }
        writeOptions.close();
        options.close();
        filter.close();
        cache.close();
    }
}
