package io.github.kcrawler.scheduler.revisit;

import com.sun.nio.file.ExtendedOpenOption;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Scheduled-Access-Time organisation of paper 003 (§2.2 SAT, §3 SAT/L), shared by {@link SatStore} (one bucket
 * per time unit) and {@link SatlStore} (variable resolution); subclasses only choose the bucket of a record.
 *
 * <p>Layout. Each bucket b is a file {@code b-<b>.bkt} of 4 KiB pages; a page holds whole entries
 * {@code [seq:int][gen:int][key:long][at:long][len:u16][record]} after a 4-byte count of used bytes; the top bit of
 * {@code len} ({@link #DUE_AT_BUCKET}; records are shorter than a page, so it is free) marks an entry to deliver from
 * its bucket even though its true time is later (a subclass's {@link #earlyAllowance}). Each bucket has
 * a write buffer of pages drawn from the shared {@link PagePool}; when the pool runs dry, buffers are appended to their
 * files in the {@link FlushOrder} of the options (the paper's time order, or ours, farthest first), buffers smaller
 * than the average left for a second pass (paper §2.2), until an eighth of the pool is free. A flush writes whole
 * pages (a partly filled last page is sealed and padded), so every write and read is a multiple of 4 KiB at an
 * aligned offset and works with O_DIRECT.
 *
 * <p>Key-based update and delete (paper Fig. 3): the {@link SequenceIndex} gives each key a sequence number and a
 * generation, bumped whenever the key's record is replaced, deleted or delivered, and names the bucket holding the
 * live entry. An entry read from a bucket is live iff its generation is current: stale copies are skipped at read
 * time, so update and delete touch memory only.
 *
 * <p>Processing. {@code poll(now)} takes every bucket ≤ now (SAT/L checks all buffers each tick), reads its file
 * sequentially and then its in-memory pages, and for each live entry either delivers it (true time ≤ now + e, or
 * marked {@link #DUE_AT_BUCKET} when placed) or re-queues it at its true time, where the finer resolution of a nearer
 * time applies.
 *
 * <p>Persistence. {@link #close()} flushes every buffer and writes {@code store.meta} (format version
 * {@value #META_VERSION}); opening a directory reads it back and deletes it, so a store that was not closed cleanly
 * refuses to open (its recovery is the changelog's job).
 */
public abstract sealed class BucketFileStore implements RevisitQueue permits SatlStore, SatStore {
    static final int META_VERSION = 1;
    static final int PAGE_HEADER = 4;
    static final int ENTRY_HEADER = 4 + 4 + 8 + 8 + 2;
    /** Flag in an entry's length field: deliver it from the bucket it is in, whatever its true time. */
    static final int DUE_AT_BUCKET = 0x8000;
    /** Largest record: one entry per page. */
    public static final int MAX_RECORD_BYTES = PagePool.PAGE_SIZE - PAGE_HEADER - ENTRY_HEADER;
    private static final int READ_CHUNK = 256 * 1024;
    private static final String META = "store.meta";

    /** One bucket: pages in memory (the write buffer) and a count of pages already in its file. */
    private static final class Bucket {
        final long time;
        final IntArrayList pages = new IntArrayList(4);
        int usedInLast;
        long filePages;

        Bucket(long time) {
            this.time = time;
        }
    }

    private final Path dir;
    private final BucketStoreOptions options;
    private final PagePool pool;
    private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
    private final TreeMap<Long, Bucket> buffered = new TreeMap<>();
    private final ByteBuffer readBuffer;
    private final byte[] scratch = new byte[MAX_RECORD_BYTES];
    private SequenceIndex index = new SequenceIndex();
    private long now;
    private long bytesWritten;
    private long bytesRead;
    private boolean closed;

    BucketFileStore(Path dir, long startTime, BucketStoreOptions options) throws IOException {
        this.dir = dir;
        this.options = options;
        this.pool = new PagePool((int) (options.bufferBytes() / PagePool.PAGE_SIZE));
        this.readBuffer = ByteBuffer.allocateDirect(READ_CHUNK + PagePool.PAGE_SIZE).alignedSlice(PagePool.PAGE_SIZE)
                .order(ByteOrder.BIG_ENDIAN);
        this.now = startTime;
        Files.createDirectories(dir);
        Path meta = dir.resolve(META);
        if (Files.exists(meta)) {
            readMeta(meta);
            Files.delete(meta);
        } else {
            try (var listing = Files.list(dir)) {
                if (listing.anyMatch(p -> p.getFileName().toString().endsWith(".bkt"))) {
                    throw new IOException("bucket directory " + dir + " has bucket files but no " + META
                            + ": it was not closed cleanly; recover it from the changelog");
                }
            }
        }
    }

    /** The bucket for a record scheduled now for {@code at > now}. */
    abstract long bucketFor(long now, long at);

    /** Format tag of the subclass, stored in the meta file so that SAT and SAT/L files are never mixed up. */
    abstract int kind();

    /**
     * How many units early a record placed now for {@code at > now} may come out, on top of the tolerance: if its
     * bucket lies within this of {@code at}, the entry is marked to be delivered from that bucket.
     */
    long earlyAllowance(long now, long at) {
        return 0;
    }

    /**
     * {@inheritDoc} Here: {@code at - max(tolerance, earlyAllowance(scheduledAt, at))}; re-queues happen later, at
     * smaller distances, so their allowance is never larger.
     */
    @Override
    public long earliest(long scheduledAt, long at) {
        return at - Math.max(options.tolerance(), at > scheduledAt ? earlyAllowance(scheduledAt, at) : 0);
    }

    // ---------------------------------------------------------------- RevisitQueue

    @Override
    public void schedule(long key, long at, byte[] record) throws IOException {
        checkOpen();
        if (record.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("record must be <= " + MAX_RECORD_BYTES + " bytes, was "
                    + record.length);
        }
        int seq = index.assign(key);
        place(seq, index.gen(seq), key, at, record, 0, record.length);
    }

    /**
     * Inserts a record straight into {@code bucket} (now &lt; bucket ≤ at), bypassing the placement rule: for loading
     * a state computed elsewhere, such as the benchmark's initial state of paper 003 eq. (5). Records reach the
     * sink in the usual way when the bucket comes up.
     */
    public void scheduleInBucket(long key, long bucket, long at, byte[] record) throws IOException {
        checkOpen();
        if (bucket <= now || bucket > at) {
            throw new IllegalArgumentException("bucket must be in (" + now + ", " + at + "], was " + bucket);
        }
        if (record.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("record must be <= " + MAX_RECORD_BYTES + " bytes, was "
                    + record.length);
        }
        int seq = index.assign(key);
        append(seq, index.gen(seq), key, at, bucket, record, 0, record.length, false);
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
    public boolean delete(long key) {
        checkOpen();
        return index.release(key);
    }

    @Override
    public boolean contains(long key) {
        return index.contains(key);
    }

    /** The bucket holding the key's live record, or {@code Long.MIN_VALUE} if none (the paper's bucket index). */
    public long bucketOf(long key) {
        return index.bucketOf(key);
    }

    @Override
    public long poll(long time, DueSink sink) throws IOException {
        checkOpen();
        if (time < now) {
            throw new IllegalArgumentException("time must not go backwards: now " + now + ", was " + time);
        }
        now = time;
        long[] due = buckets.headMap(time, true).keySet().stream().mapToLong(Long::longValue).toArray();
        long delivered = 0;
        for (long b : due) {
            Bucket bucket = buckets.remove(b);
            if (bucket == null) {
                continue;
            }
            buffered.remove(b);
            if (bucket.filePages > 0) {
                delivered += processFile(bucket, sink);
            }
            for (int i = 0; i < bucket.pages.size(); i++) {
                delivered += processPage(pool.page(bucket.pages.getInt(i)), bucket, sink,
                        i == bucket.pages.size() - 1 ? bucket.usedInLast : -1);
            }
            for (int i = 0; i < bucket.pages.size(); i++) {
                pool.release(bucket.pages.getInt(i));
            }
        }
        return delivered;
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public long tolerance() {
        return options.tolerance();
    }

    /** The options this store was opened with. */
    public BucketStoreOptions options() {
        return options;
    }

    @Override
    public long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public boolean persistent() {
        return true;
    }

    /** Buckets (buffers) currently holding entries, in memory or on disk. */
    public int bucketCount() {
        return buckets.size();
    }

    /** Buckets currently holding pages in memory. */
    public int bufferedBucketCount() {
        return buffered.size();
    }

    /** Free pages left in the pool. */
    public int freePages() {
        return pool.freeCount();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        for (Bucket b : new ArrayList<>(buffered.values())) {
            flush(b);
        }
        writeMeta(dir.resolve(META));
        closed = true;
    }

    // ---------------------------------------------------------------- placement and buffers

    private void place(int seq, int g, long key, long at, byte[] record, int off, int len) throws IOException {
        long b = at <= now ? at : bucketFor(now, at);
        assert b <= at && (at <= now || b > now) : "bucket " + b + " for at " + at + " at now " + now;
        boolean dueAtBucket = b < at && at - b <= earlyAllowance(now, at);
        append(seq, g, key, at, b, record, off, len, dueAtBucket);
    }

    private void append(int seq, int g, long key, long at, long b, byte[] record, int off, int len,
                        boolean dueAtBucket) throws IOException {
        index.locate(seq, b);
        Bucket bucket = buckets.get(b);
        if (bucket == null) {
            bucket = new Bucket(b);
            buckets.put(b, bucket);
        }
        int need = ENTRY_HEADER + len;
        if (bucket.pages.isEmpty() || bucket.usedInLast + need > PagePool.PAGE_SIZE) {
            int page = pool.take();
            if (page < 0) {
                makeRoom();
                page = pool.take();
            }
            if (bucket.pages.isEmpty()) {
                buffered.put(b, bucket);
            } else {
                pool.page(bucket.pages.getInt(bucket.pages.size() - 1)).putInt(0, bucket.usedInLast); // seal it
            }
            bucket.pages.add(page);
            bucket.usedInLast = PAGE_HEADER;
        }
        ByteBuffer p = pool.page(bucket.pages.getInt(bucket.pages.size() - 1));
        int pos = bucket.usedInLast;
        p.putInt(pos, seq);
        p.putInt(pos + 4, g);
        p.putLong(pos + 8, key);
        p.putLong(pos + 16, at);
        p.putShort(pos + 24, (short) (dueAtBucket ? len | DUE_AT_BUCKET : len));
        p.put(pos + ENTRY_HEADER, record, off, len);
        bucket.usedInLast = pos + need;
    }

    /**
     * Pool dry: flush buffers in the options' {@link FlushOrder}, big ones first, until an eighth of the pool is free
     * (paper §2.2).
     */
    private void makeRoom() throws IOException {
        int target = Math.max(1, pool.capacity() / 8);
        long pagesBuffered = pool.capacity() - pool.freeCount();
        long average = Math.max(1, pagesBuffered / Math.max(1, buffered.size()));
        for (int pass = 0; pass < 2 && pool.freeCount() < target; pass++) {
            Iterator<Bucket> it = options.flushOrder() == FlushOrder.FARTHEST_FIRST
                    ? buffered.descendingMap().values().iterator()
                    : buffered.values().iterator();
            while (it.hasNext() && pool.freeCount() < target) {
                Bucket b = it.next();
                if (pass == 0 && b.pages.size() < average) {
                    continue;
                }
                it.remove();
                flush(b);
            }
        }
    }

    private void flush(Bucket bucket) throws IOException {
        int n = bucket.pages.size();
        if (n == 0) {
            return;
        }
        ByteBuffer[] srcs = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            ByteBuffer p = pool.page(bucket.pages.getInt(i));
            if (i == n - 1) {
                p.putInt(0, bucket.usedInLast); // earlier pages were sealed when their successor was taken
            }
            srcs[i] = p.duplicate().clear();
        }
        try (FileChannel ch = FileChannel.open(file(bucket.time), writeOptions())) {
            long pos = bucket.filePages * PagePool.PAGE_SIZE;
            long total = (long) n * PagePool.PAGE_SIZE;
            long written = 0;
            ch.position(pos);
            while (written < total) {
                written += ch.write(srcs);
            }
        }
        bytesWritten += (long) n * PagePool.PAGE_SIZE;
        bucket.filePages += n;
        for (int i = 0; i < n; i++) {
            pool.release(bucket.pages.getInt(i));
        }
        bucket.pages.clear();
        bucket.usedInLast = 0;
        buffered.remove(bucket.time);
    }

    // ---------------------------------------------------------------- reading a due bucket

    private long processFile(Bucket bucket, DueSink sink) throws IOException {
        // Move the file aside first: records re-queued into this same bucket time while it is read (at <= now)
        // start a new file under the bucket's name.
        Path f = dir.resolve("b-" + bucket.time + ".reading");
        Files.move(file(bucket.time), f, StandardCopyOption.REPLACE_EXISTING);
        long delivered = 0;
        try (FileChannel ch = FileChannel.open(f, readOptions())) {
            long size = bucket.filePages * PagePool.PAGE_SIZE;
            long pos = 0;
            while (pos < size) {
                readBuffer.clear();
                readBuffer.limit((int) Math.min(READ_CHUNK, size - pos));
                while (readBuffer.hasRemaining()) {
                    int r = ch.read(readBuffer, pos + readBuffer.position());
                    if (r < 0) {
                        throw new IOException("bucket file " + f + " shorter than its " + bucket.filePages + " pages");
                    }
                }
                int got = readBuffer.position();
                bytesRead += got;
                for (int off = 0; off < got; off += PagePool.PAGE_SIZE) {
                    delivered += processPage(readBuffer.slice(off, PagePool.PAGE_SIZE), bucket, sink, -1);
                }
                pos += got;
            }
        }
        Files.delete(f);
        return delivered;
    }

    /** Delivers or re-queues the live entries of one page; {@code used < 0} means read the page's header. */
    private long processPage(ByteBuffer p, Bucket bucket, DueSink sink, int used) throws IOException {
        int end = used >= 0 ? used : p.getInt(0);
        if (end < PAGE_HEADER || end > PagePool.PAGE_SIZE) {
            throw new IOException("corrupt page in bucket " + bucket.time + ": used bytes " + end);
        }
        long delivered = 0;
        int pos = PAGE_HEADER;
        while (pos < end) {
            int seq = p.getInt(pos);
            int g = p.getInt(pos + 4);
            long key = p.getLong(pos + 8);
            long at = p.getLong(pos + 16);
            int lenField = Short.toUnsignedInt(p.getShort(pos + 24));
            int len = lenField & ~DUE_AT_BUCKET;
            p.get(pos + ENTRY_HEADER, scratch, 0, len);
            pos += ENTRY_HEADER + len;
            if (!index.isLive(seq, g)) {
                continue; // replaced, deleted or already delivered
            }
            if (at - now > options.tolerance() && (lenField & DUE_AT_BUCKET) == 0) {
                place(seq, g, key, at, scratch, 0, len); // too early: re-queue at its true time, finer resolution
                continue;
            }
            index.release(key);
            delivered++;
            sink.accept(key, at, scratch, len);
        }
        return delivered;
    }

    // ---------------------------------------------------------------- files and meta

    private Path file(long bucket) {
        return dir.resolve("b-" + bucket + ".bkt");
    }

    private OpenOption[] writeOptions() {
        return options.directIo()
                ? new OpenOption[]{StandardOpenOption.CREATE, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT}
                : new OpenOption[]{StandardOpenOption.CREATE, StandardOpenOption.WRITE};
    }

    private OpenOption[] readOptions() {
        return options.directIo()
                ? new OpenOption[]{StandardOpenOption.READ, ExtendedOpenOption.DIRECT}
                : new OpenOption[]{StandardOpenOption.READ};
    }

    private void writeMeta(Path meta) throws IOException {
        Path tmp = meta.resolveSibling(META + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
            out.writeInt(META_VERSION);
            out.writeInt(kind());
            out.writeLong(now);
            index.write(out);
            out.writeInt(buckets.size());
            for (Map.Entry<Long, Bucket> e : buckets.entrySet()) {
                out.writeLong(e.getKey());
                out.writeLong(e.getValue().filePages);
            }
        }
        Files.move(tmp, meta, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void readMeta(Path meta) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(meta), 1 << 16))) {
            int version = in.readInt();
            if (version != META_VERSION) {
                throw new IOException("unsupported store format version " + version + " in " + meta);
            }
            int k = in.readInt();
            if (k != kind()) {
                throw new IOException(meta + " belongs to a store of kind " + k + ", not " + kind());
            }
            now = in.readLong();
            index = SequenceIndex.read(in);
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                Bucket b = new Bucket(in.readLong());
                b.filePages = in.readLong();
                if (Files.size(file(b.time)) != b.filePages * PagePool.PAGE_SIZE) {
                    throw new IOException("bucket file " + file(b.time) + " does not hold its " + b.filePages
                            + " pages");
                }
                buckets.put(b.time, b);
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
    }
}
