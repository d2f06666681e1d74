package io.github.kcrawler.scheduler.store;

import io.github.kcrawler.scheduler.revisit.BucketFileStore;
import io.github.kcrawler.scheduler.revisit.RevisitQueue;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The time-keyed B-tree baseline of paper 003 (§4.2: Berkeley DB 4.6.21 B-tree keyed by scheduled time, 64 KiB pages,
 * cache = buffer size, pop = get + delete of the minimum key), on RocksDB here since it ships with Kafka Streams.
 *
 * <p>Keys are {@code [at:8][seq:4][gen:4]} big-endian (time order, then a unique suffix); values
 * {@code [key:8][record]}. Poll iterates from the smallest key and deletes each due entry. Key-based update and
 * delete use the same in-memory sequence index as SAT/L (key → seq, seq → at/gen), so the comparison is only about
 * the on-disk organisation; the index is rebuilt by a scan on reopen, so the store is persistent.
 *
 * <p>Options: block cache = the buffer size (LRU, index and filter blocks charged to it), memtable = a quarter of it
 * (at least 256 KiB, two of them), 64 KiB blocks as the paper's pages, no compression, no WAL (Berkeley DB Data Store
 * has no log), and optionally direct I/O for reads and for flush/compaction so the page cache does not hide I/O.
 * I/O volume comes from RocksDB statistics: written = flush + compaction writes; read = compaction reads + bytes of
 * blocks read into the block cache.
 */
public final class RocksDbTimeKeyedStore implements RevisitQueue {
    static {
        RocksDB.loadLibrary();
    }

    private static final long NONE = Long.MIN_VALUE;
    private static final int META_VERSION = 1;
    /** The queue's time, kept beside RocksDB's own files: "v1 &lt;now&gt;". */
    private static final String META = "revisit-queue.meta";

    private final LRUCache cache;
    private final Statistics statistics;
    private final Options options;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions;
    private final RocksDB db;
    private final Path metaFile;
    private final Long2IntOpenHashMap seqOf = new Long2IntOpenHashMap();
    private final IntArrayList freeSeqs = new IntArrayList();
    private final byte[] dbKey = new byte[16];
    private final byte[] scratch = new byte[BucketFileStore.MAX_RECORD_BYTES];
    private int[] gen = new int[1024];
    private long[] atOf = new long[1024];
    private int nextSeq;
    private long now;
    private boolean closed;

    private RocksDbTimeKeyedStore(Path dir, long startTime, long bufferBytes, boolean directIo) throws IOException {
        if (bufferBytes < 1 << 20) {
            throw new IllegalArgumentException("buffer bytes must be >= 1 MiB, was " + bufferBytes);
        }
        Files.createDirectories(dir);
        cache = new LRUCache(bufferBytes);
        statistics = new Statistics();
        BlockBasedTableConfig table = new BlockBasedTableConfig();
        table.setBlockCache(cache);
        table.setBlockSize(64 * 1024);
        table.setCacheIndexAndFilterBlocks(true);
        options = new Options();
        options.setTableFormatConfig(table);
        options.setWriteBufferSize(Math.max(256 * 1024, bufferBytes / 4));
        options.setMaxWriteBufferNumber(2);
        options.setCompressionType(CompressionType.NO_COMPRESSION);
        options.setCreateIfMissing(true);
        options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
        options.setStatistics(statistics);
        options.setUseDirectReads(directIo);
        options.setUseDirectIoForFlushAndCompaction(directIo);
        writeOptions = new WriteOptions().setDisableWAL(true);
        readOptions = new ReadOptions();
        seqOf.defaultReturnValue(-1);
        Arrays.fill(atOf, NONE);
        this.now = startTime;
        this.metaFile = dir.resolve(META);
        if (Files.exists(metaFile)) {
            String[] meta = Files.readString(metaFile).trim().split(" ");
            if (meta.length != 2 || !meta[0].equals("v" + META_VERSION)) {
                closeOptions();
                throw new IOException("unsupported revisit queue meta in " + metaFile + ": " + String.join(" ", meta));
            }
            this.now = Long.parseLong(meta[1]);
        }
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            closeOptions();
            throw new IOException("cannot open RocksDB in " + dir, e);
        }
        rebuildIndex();
    }

    /** Opens (creating) the store in {@code dir}; an existing database is reopened and its index rebuilt. */
    public static RocksDbTimeKeyedStore open(Path dir, long startTime, long bufferBytes, boolean directIo)
            throws IOException {
        return new RocksDbTimeKeyedStore(dir, startTime, bufferBytes, directIo);
    }

    private void rebuildIndex() {
        int maxSeq = -1;
        try (RocksIterator it = db.newIterator(readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ByteBuffer k = ByteBuffer.wrap(it.key());
                long at = k.getLong(0);
                int seq = k.getInt(8);
                int g = k.getInt(12);
                long key = ByteBuffer.wrap(it.value()).getLong(0);
                ensureSeq(seq);
                gen[seq] = g;
                atOf[seq] = at;
                seqOf.put(key, seq);
                maxSeq = Math.max(maxSeq, seq);
            }
        }
        nextSeq = maxSeq + 1;
        for (int seq = nextSeq - 1; seq >= 0; seq--) {
            if (atOf[seq] == NONE) {
                freeSeqs.add(seq);
            }
        }
    }

    private void ensureSeq(int seq) {
        if (seq >= gen.length) {
            int n = Math.max(gen.length * 2, Integer.highestOneBit(seq) * 2);
            int old = atOf.length;
            gen = Arrays.copyOf(gen, n);
            atOf = Arrays.copyOf(atOf, n);
            Arrays.fill(atOf, old, n, NONE);
        }
    }

    private byte[] dbKey(long at, int seq, int g) {
        ByteBuffer.wrap(dbKey).putLong(0, at).putInt(8, seq).putInt(12, g);
        return dbKey;
    }

    @Override
    public void schedule(long key, long at, byte[] record) throws IOException {
        checkOpen();
        if (record.length > BucketFileStore.MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("record must be <= " + BucketFileStore.MAX_RECORD_BYTES
                    + " bytes, was " + record.length);
        }
        try {
            int seq = seqOf.get(key);
            if (seq < 0) {
                seq = freeSeqs.isEmpty() ? nextSeq++ : freeSeqs.popInt();
                ensureSeq(seq);
                seqOf.put(key, seq);
            } else {
                db.delete(writeOptions, dbKey(atOf[seq], seq, gen[seq]));
            }
            gen[seq]++;
            atOf[seq] = at;
            byte[] value = new byte[8 + record.length];
            ByteBuffer.wrap(value).putLong(0, key);
            System.arraycopy(record, 0, value, 8, record.length);
            db.put(writeOptions, dbKey(at, seq, gen[seq]), value);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB put failed", e);
        }
    }

    @Override
    public boolean update(long key, long at, byte[] record) throws IOException {
        if (!contains(key)) {
            return false;
        }
        schedule(key, at, record);
        return true;
    }

    @Override
    public boolean delete(long key) throws IOException {
        checkOpen();
        int seq = seqOf.remove(key);
        if (seq < 0) {
            return false;
        }
        try {
            db.delete(writeOptions, dbKey(atOf[seq], seq, gen[seq]));
        } catch (RocksDBException e) {
            throw new IOException("RocksDB delete failed", e);
        }
        free(seq);
        return true;
    }

    private void free(int seq) {
        gen[seq]++;
        atOf[seq] = NONE;
        freeSeqs.add(seq);
    }

    @Override
    public boolean contains(long key) {
        return seqOf.containsKey(key);
    }

    /** Pops the minimum while it is due: read the smallest key, deliver it, delete it (paper §4.2). */
    @Override
    public long poll(long time, DueSink sink) throws IOException {
        checkOpen();
        if (time < now) {
            throw new IllegalArgumentException("time must not go backwards: now " + now + ", was " + time);
        }
        now = time;
        long delivered = 0;
        try (RocksIterator it = db.newIterator(readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                ByteBuffer kb = ByteBuffer.wrap(k);
                long at = kb.getLong(0);
                if (at > time) {
                    break;
                }
                int seq = kb.getInt(8);
                int g = kb.getInt(12);
                if (seq >= nextSeq || gen[seq] != g || atOf[seq] != at) {
                    continue; // the iterator's snapshot still shows entries the sink replaced or deleted
                }
                byte[] v = it.value();
                long key = ByteBuffer.wrap(v).getLong(0);
                int len = v.length - 8;
                System.arraycopy(v, 8, scratch, 0, len);
                db.delete(writeOptions, k);
                seqOf.remove(key);
                free(seq);
                delivered++;
                sink.accept(key, at, scratch, len);
            }
            it.status();
        } catch (RocksDBException e) {
            throw new IOException("RocksDB poll failed", e);
        }
        return delivered;
    }

    /** Flushes the memtable and compacts the whole key range (benchmarks: start the measured phase settled). */
    public void compact() throws IOException {
        checkOpen();
        try (org.rocksdb.FlushOptions flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
            db.compactRange();
        } catch (RocksDBException e) {
            throw new IOException("RocksDB compaction failed", e);
        }
    }

    @Override
    public long size() {
        return seqOf.size();
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public long tolerance() {
        return 0;
    }

    @Override
    public long bytesWritten() {
        return statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES)
                + statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
    }

    @Override
    public long bytesRead() {
        return statistics.getTickerCount(TickerType.COMPACT_READ_BYTES)
                + statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_BYTES_INSERT)
                + statistics.getTickerCount(TickerType.BLOCK_CACHE_INDEX_BYTES_INSERT);
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.writeString(metaFile, "v" + META_VERSION + " " + now + "\n");
        } finally {
            db.close();
            closeOptions();
        }
    }

    private void closeOptions() {
        readOptions.close();
        writeOptions.close();
        options.close();
        statistics.close();
        cache.close();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
    }
}
