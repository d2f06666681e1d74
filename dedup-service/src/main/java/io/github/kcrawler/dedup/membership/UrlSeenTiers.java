package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.FingerprintSet;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The URL-seen test of seed 000 §4.3 (DESIGN §4.1): three tiers asked in the paper's order, each fingerprint
 * stopping at the first that answers "seen".
 * <ol>
 *   <li>{@link LruFingerprintCache}: hit → duplicate (moved to the head). Miss → inserted at the head; the evicted
 *   tail, if any, is put into the filter (after the filter was asked about the current fingerprint).</li>
 *   <li>{@link FingerprintFilter} (a {@link StableBloomFilterLight}): positive → duplicate. This is the only source
 *   of error: a false positive is a new URL skipped, at the filter's stable false-positive rate.</li>
 *   <li>The exact {@link FingerprintSet} (RocksDB in the service): present → duplicate; absent → inserted, new.</li>
 * </ol>
 * Hit rate = (LRU hits + filter positives) / tests; every miss costs one storage operation. Correctness never
 * depends on the first two tiers being warm: empty caches only send more tests to the store. A fingerprint is
 * admitted at most once between forgets, because only the store admits and the store is exact.
 *
 * <p>{@link #forget} removes the fingerprint from the LRU and the store and zeroes its k filter counters, so a URL
 * the scheduler dropped is admitted again when rediscovered (zeroing can only add false negatives).
 *
 * <p>Snapshots ({@link #snapshotTo}/{@link #restoreFrom}, format version 1) hold the LRU and the filter, tagged with
 * a caller-chosen long (e.g. the changelog offset the store was at). Restoring is safe only if the snapshot
 * reflects exactly the store's state: a snapshot taken after admissions that were later rolled back (exactly-once
 * abort, unclean stop) or before forgets that were since applied would make the caches answer "seen" for URLs the
 * store does not hold. Write one at a clean close, check the tag against the store on restore, and start cold
 * otherwise. Counters are plain longs for a metrics binder; the instance is confined to one stream thread.
 */
public final class UrlSeenTiers implements UrlSeen {
    /** {@link #probe} answer: the LRU held the fingerprint. */
    public static final int LRU_HIT = 1;
    /** {@link #probe} answer: the LRU missed and the filter was positive. */
    public static final int FILTER_POSITIVE = 2;
    /** {@link #probe} answer: neither cache knows it; the store decides. */
    public static final int MISS = 0;

    static final int SNAPSHOT_MAGIC = 0x4B545553; // "KTUS"
    static final int SNAPSHOT_VERSION = 1;

    private final LruFingerprintCache lru;
    private final FingerprintFilter filter;
    private final FingerprintSet store;
    private long pendingEviction;
    private boolean evictionPending;

    private long tests;
    private long lruHits;
    private long filterPositives;
    private long storageLookups;
    private long storageHits;
    private long newUrls;
    private long forgets;

    /**
     * @param lruCapacity LRU entries (0: no LRU, every fingerprint goes straight into the filter)
     * @param filter      the middle tier ({@link FingerprintFilter#disabled()} for LRU only)
     * @param store       the exact, durable fingerprint set
     */
    public UrlSeenTiers(int lruCapacity, FingerprintFilter filter, FingerprintSet store) {
        this.filter = Objects.requireNonNull(filter, "filter");
        this.store = Objects.requireNonNull(store, "store");
        this.lru = new LruFingerprintCache(lruCapacity, this::evicted);
    }

    /** The tiers of {@code config} in front of {@code store}. */
    public static UrlSeenTiers create(UrlSeenTierConfig config, FingerprintSet store) {
        return new UrlSeenTiers(config.lruSize(), config.newFilter(), store);
    }

    private void evicted(long fingerprint) {
        pendingEviction = fingerprint;
        evictionPending = true;
    }

    @Override
    public boolean testAndAdd(long fingerprint) {
        if (probe(fingerprint) != MISS) {
            return false;
        }
        storageLookups++;
        if (store.add(fingerprint)) {
            newUrls++;
            return true;
        }
        storageHits++;
        return false;
    }

    /**
     * Tiers 1 and 2 only, with their updates (LRU recency, eviction into the filter) and counters: the part of the
     * test the paper's simulation measures. {@link #testAndAdd} is this plus the store.
     *
     * @return {@link #LRU_HIT}, {@link #FILTER_POSITIVE} or {@link #MISS}
     */
    public int probe(long fingerprint) {
        tests++;
        if (lru.touchOrInsert(fingerprint)) {
            lruHits++;
            return LRU_HIT;
        }
        boolean positive = filter.mightContain(fingerprint);
        if (evictionPending) {
            evictionPending = false;
            filter.put(pendingEviction);
        }
        if (positive) {
            filterPositives++;
            return FILTER_POSITIVE;
        }
        return MISS;
    }

    @Override
    public void forget(long fingerprint) {
        forgets++;
        lru.remove(fingerprint);
        filter.forget(fingerprint);
        store.remove(fingerprint);
    }

    public long tests() {
        return tests;
    }

    public long lruHits() {
        return lruHits;
    }

    /** Filter positives (the paper's "SBFL hits"), true and false ones. */
    public long sbflPositives() {
        return filterPositives;
    }

    public long storageLookups() {
        return storageLookups;
    }

    /** Storage lookups that found the fingerprint: false negatives of the two caches. */
    public long storageHits() {
        return storageHits;
    }

    public long newUrls() {
        return newUrls;
    }

    public long forgets() {
        return forgets;
    }

    /** (LRU hits + filter positives) / tests; 0 before the first test. */
    public double hitRate() {
        return tests == 0 ? 0.0 : (lruHits + filterPositives) / (double) tests;
    }

    /** Bytes held by the LRU and the filter (the store is not counted). */
    public long memoryBytes() {
        return lru.memoryBytes() + filter.memoryBytes();
    }

    public LruFingerprintCache lru() {
        return lru;
    }

    public FingerprintFilter filter() {
        return filter;
    }

    /** Writes the LRU and the filter, tagged with {@code tag}; the stream is not closed. */
    public void snapshotTo(OutputStream out, long tag) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(SNAPSHOT_MAGIC);
        data.writeByte(SNAPSHOT_VERSION);
        data.writeLong(tag);
        lru.writeTo(data);
        boolean hasFilter = filter instanceof StableCounterFilter;
        data.writeBoolean(hasFilter);
        if (hasFilter) {
            ((StableCounterFilter) filter).writeTo(data);
        }
        data.flush();
    }

    /**
     * Restores a snapshot written by {@link #snapshotTo} and returns its tag. On a damaged snapshot or one whose
     * filter geometry (m, d, k) differs from this instance's, it throws and leaves both caches empty: cold, and
     * correct. See the class comment for when a restore is safe.
     */
    public long restoreFrom(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        long tag = readHeader(data);
        readBody(data);
        return tag;
    }

    /**
     * Restores a snapshot written by {@link #snapshotTo} only if its tag is {@code expectedTag}; returns false and
     * leaves the caches untouched otherwise. Throws, leaving both caches empty, on a damaged snapshot.
     */
    public boolean restoreFrom(InputStream in, long expectedTag) throws IOException {
        DataInputStream data = new DataInputStream(in);
        if (readHeader(data) != expectedTag) {
            return false;
        }
        readBody(data);
        return true;
    }

    private static long readHeader(DataInputStream data) throws IOException {
        int magic = data.readInt();
        if (magic != SNAPSHOT_MAGIC) {
            throw new IOException("not a URL-seen snapshot: magic " + Integer.toHexString(magic));
        }
        int version = data.readUnsignedByte();
        if (version != SNAPSHOT_VERSION) {
            throw new IOException("URL-seen snapshot version " + version + " is not supported");
        }
        return data.readLong();
    }

    private void readBody(DataInputStream data) throws IOException {
        try {
            lru.readFrom(data);
            boolean hasFilter = data.readBoolean();
            if (filter instanceof StableCounterFilter) {
                if (!hasFilter) {
                    throw new IOException("URL-seen snapshot has no filter but this test has one");
                }
                ((StableCounterFilter) filter).readFrom(data);
            }
        } catch (IOException | RuntimeException e) {
            lru.clear();
            if (filter instanceof StableCounterFilter) {
                ((StableCounterFilter) filter).clearCounters();
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "UrlSeenTiers[lru=" + lru.capacity() + ", filter=" + filter + ", store=" + store + "]";
    }
}
