package io.github.kcrawler.dedup.store;

import io.github.kcrawler.dedup.content.ContentFingerprintDb;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The content-fingerprint DB of {@link io.github.kcrawler.dedup.content.ImpCbFilter} on plain RocksDB, for the lab's
 * {@code bench imp-cbf} and the tests (the service runs {@link KeyValueContentFingerprintDb}). Keys are the 128-bit
 * fingerprint as 16 big-endian bytes (high half first), values {@code ContentRecord}s; the metadata lives under a
 * 5-byte key that no 16-byte record key can equal, and {@link #forEach} skips it. Options follow Kafka Streams'
 * RocksDBStore defaults as the url-seen benchmark's {@code RocksDbFingerprintSet} does (50 MiB LRU block cache,
 * 4 KiB blocks, 10-bit Bloom filter, 16 MiB write buffers ×3, no compression, universal compaction) so the IMP-CB
 * benchmark's baseline and filter run on a store configured as the service's. The WAL is on by default (the DB is the
 * system of record across restarts); the benchmark may turn it off for both variants alike.
 *
 * <p>{@link #get} copies into the caller's buffer ({@code RocksDB.get(key, value)}), so reads allocate nothing on the
 * Java side. Not thread-safe (it reuses one key buffer).
 */
public final class RocksDbContentFingerprintDb implements ContentFingerprintDb {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] METADATA_KEY = {0, 'm', 'e', 't', 'a'};
    private static final int KEY_BYTES = 16;

    private final LRUCache cache;
    private final BloomFilter bloom;
    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final byte[] key = new byte[KEY_BYTES];
    private boolean closed;

    private RocksDbContentFingerprintDb(Path dir, boolean wal) throws IOException {
        Files.createDirectories(dir);
        cache = new LRUCache(50L * 1024 * 1024);
        bloom = new BloomFilter(10.0, false);
        BlockBasedTableConfig table = new BlockBasedTableConfig();
        table.setBlockCache(cache);
        table.setBlockSize(4096L);
        table.setFilterPolicy(bloom);
        options = new Options();
        options.setTableFormatConfig(table);
        options.setWriteBufferSize(16L * 1024 * 1024);
        options.setMaxWriteBufferNumber(3);
        options.setCompressionType(CompressionType.NO_COMPRESSION);
        options.setCompactionStyle(CompactionStyle.UNIVERSAL);
        options.setCreateIfMissing(true);
        options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
        options.setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
        writeOptions = new WriteOptions().setDisableWAL(!wal);
        RocksDB opened = null;
        try {
            opened = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            closeOptions();
            throw new IOException("cannot open RocksDB in " + dir, e);
        }
        db = opened;
    }

    /** Opens (creating if absent) the DB in {@code dir} with the write-ahead log on. */
    public static RocksDbContentFingerprintDb open(Path dir) throws IOException {
        return new RocksDbContentFingerprintDb(dir, true);
    }

    /**
     * Opens (creating if absent) the DB in {@code dir}; {@code wal = false} trades the last unflushed writes on a
     * crash for write speed (Kafka Streams runs its stores so, recovering from the changelog).
     */
    public static RocksDbContentFingerprintDb open(Path dir, boolean wal) throws IOException {
        return new RocksDbContentFingerprintDb(dir, wal);
    }

    @Override
    public int get(long hi, long lo, byte[] into) {
        try {
            int n = db.get(key(hi, lo), into);
            return n == RocksDB.NOT_FOUND ? NOT_FOUND : n;
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB get failed", e));
        }
    }

    @Override
    public void put(long hi, long lo, byte[] value, int length) {
        try {
            byte[] k = key(hi, lo);
            db.put(writeOptions, k, 0, KEY_BYTES, value, 0, length);
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB put failed", e));
        }
    }

    @Override
    public void delete(long hi, long lo) {
        try {
            db.delete(writeOptions, key(hi, lo));
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB delete failed", e));
        }
    }

    @Override
    public void forEach(RecordVisitor visitor) {
        ensureOpen();
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                if (k.length != KEY_BYTES) {
                    continue;
                }
                byte[] v = it.value();
                visitor.visit(readLong(k, 0), readLong(k, 8), v, v.length);
            }
            it.status();
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB scan failed", e));
        }
    }

    @Override
    public byte[] metadata() {
        ensureOpen();
        try {
            return db.get(METADATA_KEY);
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB get failed", e));
        }
    }

    @Override
    public void putMetadata(byte[] value) {
        ensureOpen();
        try {
            db.put(writeOptions, METADATA_KEY, value);
        } catch (RocksDBException e) {
            throw new UncheckedIOException(new IOException("RocksDB put failed", e));
        }
    }

    /** RocksDB's estimate of the number of keys (metadata included). */
    public long estimatedKeys() {
        ensureOpen();
        try {
            return db.getLongProperty("rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            return -1;
        }
    }

    private byte[] key(long hi, long lo) {
        ensureOpen();
        writeLong(key, 0, hi);
        writeLong(key, 8, lo);
        return key;
    }

    private static void writeLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long readLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** Use after close would touch freed native memory (a JVM crash), so it throws instead. */
    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("fingerprint DB is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        db.close();
        closeOptions();
    }

    private void closeOptions() {
        writeOptions.close();
        options.close();
        bloom.close();
        cache.close();
    }
}
